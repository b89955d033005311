// Peer for bench/crawl.sh: sitemap-generator (npm, on simplecrawler)
// crawls a site with a given concurrency and a 1 ms request interval and
// writes its sitemap.
//
//   node bench/sitemap-generator.mjs http://127.0.0.1:PORT/ 4 out/sitemap.xml
//
// Prints every URL it adds to the sitemap on standard output, one a line,
// and a one-line summary (added, ignored, errors, seconds) on standard
// error.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const SitemapGenerator = require('sitemap-generator');

const [url, concurrency = '4', filepath = null] = process.argv.slice(2);
if (!url) {
  console.error('usage: node sitemap-generator.mjs START_URL [CONCURRENCY] [SITEMAP_PATH]');
  process.exit(2);
}
const generator = SitemapGenerator(url, {
  filepath,
  maxConcurrency: Number(concurrency),
  interval: 1,
  stripQuerystring: false,
  lastMod: true,
});
let added = 0, ignored = 0, errors = 0;
const out = [];
generator.on('add', (u) => { added++; out.push(u); });
generator.on('ignore', () => { ignored++; });
generator.on('error', () => { errors++; });
const t0 = process.hrtime.bigint();
generator.on('done', () => {
  const secs = Number(process.hrtime.bigint() - t0) / 1e9;
  process.stdout.write(out.join('\n') + (out.length ? '\n' : ''));
  console.error(`sitemap-generator: ${added} added, ${ignored} ignored, ${errors} errors in ${secs.toFixed(2)}s`);
});
generator.start();
