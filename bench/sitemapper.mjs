// Peer for bench/fetch.sh: sitemapper (npm) crawls a sitemap index with a
// given concurrency and counts the URLs it returns.
//
//   node bench/sitemapper.mjs http://127.0.0.1:PORT/index-4.xml 8
//
// Prints the URL count on standard output and a one-line summary (URLs,
// errors, seconds) on standard error; exits 1 when sitemapper reports
// errors.
import Sitemapper from 'sitemapper';

const [url, concurrency = '8'] = process.argv.slice(2);
if (!url) {
  console.error('usage: node sitemapper.mjs INDEX_URL [CONCURRENCY]');
  process.exit(2);
}
const sm = new Sitemapper({ url, concurrency: Number(concurrency), timeout: 600000, retries: 0 });
const t0 = process.hrtime.bigint();
const { sites, errors } = await sm.fetch();
const secs = Number(process.hrtime.bigint() - t0) / 1e9;
console.error(`sitemapper: ${sites.length} URLs, ${errors.length} errors in ${secs.toFixed(2)}s`);
for (const e of errors) console.error(`sitemapper: ${e.type} ${e.url}`);
console.log(sites.length);
process.exit(errors.length > 0 ? 1 : 0);
