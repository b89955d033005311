#!/bin/sh
# Remakes rows.json and the generateSitemap-*.tsv lists of this directory
# with MediaWiki itself (Debian 12: apt-get install mediawiki php-cli
# php-mysql mariadb-server). Give a MariaDB server the root user reaches
# without a password: sh make.sh 127.0.0.1:3306. The wiki's database is
# "wiki" on it (dropped first); its settings go to a temporary directory.
set -e
server=${1:?give HOST:PORT of a MariaDB server}
host=${server%:*} port=${server#*:}
here=$(cd "$(dirname "$0")" && pwd)
conf=$(mktemp -d)
mariadb -uroot -h"$host" -P"$port" -e 'DROP DATABASE IF EXISTS wiki'
cd /usr/share/mediawiki
php maintenance/install.php --dbtype mysql --dbserver "$server" --dbname wiki --dbuser root --dbpass '' \
	--server https://wiki.example.org --scriptpath "" --pass 'AdminPass12345!x' --confpath "$conf" "Test Wiki" Admin
printf '%s\n' '$wgArticlePath = "/wiki/$1";' '$wgSitemapNamespaces = [ 0 ];' >>"$conf/LocalSettings.php"
mk() { printf '%s' "$2" | php maintenance/edit.php --conf "$conf/LocalSettings.php" -u Admin -s test "$1" >/dev/null; }
for t in "Hello World" "Zürich & Co" "AC/DC" "Question?" "C++" "50% off" "Straße" "日本語" "It's here" "Foo:Bar" \
	"Tilde~" "Parens (disambiguation)" "Comma,list" 'Dollar$ At@home' "Star* Exclaim!" "Semi;colon" 'Quote"s' \
	"Équipe" "Ünïcödé/Sub page" "Plus+Sign" "Eq=sign" "lowercase start"; do
	mk "$t" "Some content about $t."
done
mk "Redirect to hello" "#REDIRECT [[Hello World]]"
mk "Talk:Hello World" "Talk."
mk "Help:Contents" "Help."
mk "User:Admin" "Me."
mk "Secret page" "Hidden __NOINDEX__ text."
mk "Category:Things" "Cat."
list() { for f in "$1"/*NS_*.xml; do grep -o '<loc>[^<]*</loc>\|<lastmod>[^<]*' "$f" | sed 's/<[^>]*>//g' | paste - -; done; }
out=$(mktemp -d)
php maintenance/generateSitemap.php --conf "$conf/LocalSettings.php" --fspath "$out/a" --skip-redirects --compress no
sed -i 's/\$wgSitemapNamespaces = \[ 0 \];/$wgSitemapNamespaces = [ 0, 1, 12 ];/' "$conf/LocalSettings.php"
php maintenance/generateSitemap.php --conf "$conf/LocalSettings.php" --fspath "$out/b" --skip-redirects --compress no
{
	echo "# What MediaWiki 1.39's maintenance/generateSitemap.php --skip-redirects lists for the rows of"
	echo "# rows.json with \$wgSitemapNamespaces = [ 0 ] and \$wgArticlePath = \"/wiki/\$1\": loc and lastmod."
	list "$out/a"
} >"$here/generateSitemap-ns0.tsv"
{ echo "# The same with \$wgSitemapNamespaces = [ 0, 1, 12 ]."; list "$out/b"; } >"$here/generateSitemap-ns0-1-12.tsv"
python3 - "$here/rows.json" <<PY
import json, subprocess, sys
def q(sql):
    out = subprocess.run(['mariadb', '-uroot', '-h$host', '-P$port', 'wiki', '-N', '--raw', '-B', '-e', sql], capture_output=True, check=True).stdout.decode()
    return [l.split('\t') for l in out.splitlines()]
pages = [{"id": int(r[0]), "ns": int(r[1]), "title": r[2], "redirect": int(r[3]), "touched": r[4]} for r in q("select page_id, page_namespace, page_title, page_is_redirect, page_touched from page order by page_id")]
props = [{"page": int(r[0]), "name": r[1]} for r in q("select pp_page, pp_propname from page_props")]
json.dump({"page": pages, "page_props": props}, open(sys.argv[1], 'w'), ensure_ascii=False, indent=0)
PY
rm -rf "$conf" "$out"
