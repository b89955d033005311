# The CMS presets side by side with the CMSs' own sitemap generators, on one
# database of 100,000 pages (CMS_PAGES): MediaWiki 1.39's
# maintenance/generateSitemap.php and WordPress 6.1's core sitemaps (every
# wp-sitemap page rendered through php-cli) against `sitemap generate
# --preset` and `sitemap serve --preset` (the start-up build, then a page).
# Needs Debian's mariadb-server, mediawiki, wordpress and php-cli (apt-get
# install mariadb-server mediawiki wordpress php-cli php-mysql php-xml
# php-mbstring php-intl); the section says so and is skipped without them.
# Then, on the WordPress database, the time from a COMMIT to the page
# `sitemap serve --preset wordpress` answers holding it, without the change
# triggers (every page read again every --recheck) and with them
# (--install-trigger: only the page holding the post). CMS_PEERS=0 skips
# the peers' runs (generateSitemap.php, WordPress's core sitemaps).
# Sourced by run.sh (say, measure, $OUT, $BENCH).
CMS_PAGES=${CMS_PAGES:-100000}
CMS_PEERS=${CMS_PEERS:-1}
cms_skip() { say "## cms: skipped ($1)"; }

# cms_serve PRESET DB BASE: serve --preset's start-up (every page built
# before it listens), then the time of a page request and its peak memory.
cms_serve() {
	sport=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
	rm -f "$OUT/cms-serve-$1.stderr" # a background job opens it after the loop below may look
	t0=$(date +%s.%N)
	"$OUT/sitemap" serve --db "$2" --preset "$1" --base-url "$3" --addr "127.0.0.1:$sport" --access-log=false 2>"$OUT/cms-serve-$1.stderr" &
	spid=$!
	while ! grep -q 'listening on' "$OUT/cms-serve-$1.stderr" 2>/dev/null; do
		kill -0 $spid 2>/dev/null || break
		sleep 0.05
	done
	t1=$(date +%s.%N)
	page=$(curl -s "http://127.0.0.1:$sport/sitemap.xml" | grep -o 'sitemap-[0-9]*.xml' | tail -1)
	ptime=$(curl -s -o /dev/null -w '%{time_total}' "http://127.0.0.1:$sport/$page")
	rss=$(awk '/VmHWM/ {print int($2/1024)}' /proc/$spid/status)
	kill $spid; wait $spid 2>/dev/null
	say "| cms-$1-serve-preset: start-up, every page built | $(echo "$t1 - $t0" | bc | sed 's/^\./0./' | cut -c1-5)s | $rss MB |"
	say "| cms-$1-serve-preset: a page ($page) answered | ${ptime}s | |"
}
# cms_commit DB BASE LABEL MINUTE: serve --preset wordpress, then 5 times
# an UPDATE of one post's post_modified_gmt (to a time at MINUTE, other for
# each run: a value an earlier run set would be served already) and the
# time until the page holding it (found before) answers the new lastmod.
cms_commit() {
	sport=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
	rm -f "$OUT/cms-commit-$3.stderr"
	"$OUT/sitemap" serve --db "$1" --preset wordpress --base-url "$2" --addr "127.0.0.1:$sport" --access-log=false 2>"$OUT/cms-commit-$3.stderr" &
	spid=$!
	while ! grep -q 'listening on' "$OUT/cms-commit-$3.stderr" 2>/dev/null; do
		kill -0 $spid 2>/dev/null || break
		sleep 0.05
	done
	sleep 10 # the feed's check of every page at start
	times=""
	for i in 1 2 3 4 5; do
		n=$((CMS_PAGES / 7 * i))
		id=$(my wp -N -e "SELECT ID FROM wp_posts WHERE post_name LIKE 'post-$n%' LIMIT 1")
		page=""
		for p in $(curl -s "http://127.0.0.1:$sport/sitemap.xml" | grep -o 'sitemap-[0-9]*.xml'); do
			curl -s "http://127.0.0.1:$sport/$p" | grep -q "/post-$n/\|/post-$n-zurich-co/" && { page=$p; break; }
		done
		want="2026-11-2${i}T0${i}:$4:00Z"
		t0=$(date +%s.%N)
		my wp -e "UPDATE wp_posts SET post_modified_gmt = '2026-11-2$i 0$i:$4:00' WHERE ID = $id"
		while ! curl -s "http://127.0.0.1:$sport/$page" | grep -q "$want"; do
			[ "$(echo "$(date +%s.%N) - $t0 > 60" | bc)" = 1 ] && break
			sleep 0.02
		done
		times="$times $(echo "$(date +%s.%N) - $t0" | bc | sed 's/^\./0./' | cut -c1-5)"
	done
	kill $spid; wait $spid 2>/dev/null
	say "| cms-wordpress-commit-to-page, $3: COMMIT to the page answering it (5 commits) | $(echo $times | tr ' ' '\n' | sort -n | sed -n 3p)s median, $(echo $times | tr ' ' '\n' | sort -n | tail -1)s max ($(echo $times | tr ' ' ',')) | |"
}
if ! command -v php >/dev/null || [ ! -d /usr/share/mediawiki ] || [ ! -d /usr/share/wordpress ] || [ ! -x /usr/sbin/mariadbd ]; then
	cms_skip "needs mariadb-server, mediawiki, wordpress and php-cli"
else
	CMS=$(mktemp -d /tmp/sitemap-bench-cms-XXXXXX)
	chmod 755 "$CMS"
	run_as=""
	[ "$(id -u)" = 0 ] && { chown mysql:mysql "$CMS"; run_as="su mysql -s /bin/sh -c"; }
	port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
	dbinit="mariadb-install-db --no-defaults --datadir=$CMS/data --auth-root-authentication-method=normal --skip-test-db"
	dbrun="/usr/sbin/mariadbd --no-defaults --datadir=$CMS/data --tmpdir=$CMS --socket=$CMS/sock --port=$port --bind-address=127.0.0.1 --skip-log-bin --innodb-flush-log-at-trx-commit=0 --innodb-buffer-pool-size=256M --character-set-server=utf8mb4 --collation-server=utf8mb4_unicode_ci --pid-file=$CMS/pid"
	if [ -n "$run_as" ]; then $run_as "$dbinit" >/dev/null 2>&1; ($run_as "$dbrun" >"$CMS/log" 2>&1 &); else $dbinit >/dev/null 2>&1; ($dbrun >"$CMS/log" 2>&1 &); fi
	my() { mariadb -uroot -h127.0.0.1 -P"$port" "$@"; }
	for _ in $(seq 50); do my -e 'SELECT 1' >/dev/null 2>&1 && break; sleep 0.2; done
	say "## cms: $CMS_PAGES pages, MariaDB $(my -N -e 'SELECT VERSION()')"
	say ""
	say "| run | time | peak memory |"
	say "| --- | --- | --- |"
	# MediaWiki: installed by its installer, then $CMS_PAGES rows in page.
	conf=$CMS/mw
	mkdir -p "$conf"
	(cd /usr/share/mediawiki && php maintenance/install.php --dbtype mysql --dbserver "127.0.0.1:$port" --dbname wiki --dbuser root --dbpass '' \
		--server https://wiki.example.org --scriptpath "" --pass 'AdminPass12345!x' --confpath "$conf" "Bench Wiki" Admin >/dev/null 2>&1)
	printf '%s\n' '$wgArticlePath = "/wiki/$1";' '$wgSitemapNamespaces = [ 0 ];' >>"$conf/LocalSettings.php"
	my wiki -e "INSERT INTO page (page_namespace, page_title, page_is_redirect, page_random, page_touched, page_latest, page_len)
		SELECT IF(seq % 10 = 0, 1, 0), CONCAT('Page_', seq, IF(seq % 3 = 0, '_Zürich_&_Co', IF(seq % 3 = 1, '/Sub_page', '_(film)'))),
		IF(seq % 50 = 0, 1, 0), RAND(), DATE_FORMAT(TIMESTAMP('2026-01-01') + INTERVAL seq MINUTE, '%Y%m%d%H%i%s'), 1, 100 FROM seq_1_to_$CMS_PAGES"
	mkdir -p "$CMS/mwsm"
	[ "$CMS_PEERS" = 0 ] || measure cms-mediawiki-generateSitemap sh -c "cd /usr/share/mediawiki && php maintenance/generateSitemap.php --conf $conf/LocalSettings.php --fspath $CMS/mwsm --skip-redirects --compress no"
	measure cms-mediawiki-generate-preset "$OUT/sitemap" generate --base-url https://wiki.example.org/ --db "mysql://root@127.0.0.1:$port/wiki" --preset mediawiki --out "$CMS/mwours"
	cat "$CMS"/mwsm/*NS_0*.xml | grep -o '<loc>[^<]*' | sed 's/<loc>//' | sort >"$CMS/mw-theirs.txt"
	cat "$CMS"/mwours/sitemap-*.xml | grep -o '<loc>[^<]*' | sed 's/<loc>//' | grep -v 'sitemap-[0-9]*.xml$\|sitemap.xml$' | sort >"$CMS/mw-ours.txt"
	comm -3 "$CMS/mw-theirs.txt" "$CMS/mw-ours.txt" >"$OUT/cms-mediawiki.diff"
	say "| MediaWiki URLs: generateSitemap.php $(wc -l <"$CMS/mw-theirs.txt"), preset $(wc -l <"$CMS/mw-ours.txt"), differing $(wc -l <"$OUT/cms-mediawiki.diff") (out/cms-mediawiki.diff) | | |"
	cms_serve mediawiki "mysql://root@127.0.0.1:$port/wiki" https://wiki.example.org/
	# WordPress: installed and filled by WordPress (site.php), then
	# $CMS_PAGES published posts in wp_posts.
	wp=$CMS/wp
	cp -a /usr/share/wordpress/. "$wp/"
	cat >"$wp/wp-config.php" <<PHP
<?php
define('DB_NAME', 'wp'); define('DB_USER', 'root'); define('DB_PASSWORD', ''); define('DB_HOST', '127.0.0.1:$port');
define('DB_CHARSET', 'utf8mb4'); define('DB_COLLATE', ''); \$table_prefix = 'wp_';
define('WP_CONTENT_DIR', '$wp/wp-content');
if ( ! defined( 'ABSPATH' ) ) define( 'ABSPATH', __DIR__ . '/' );
require_once ABSPATH . 'wp-settings.php';
PHP
	my -e 'CREATE DATABASE wp'
	(cd "$wp" && php "$BENCH/../preset/testdata/wordpress/site.php" '/%year%/%monthnum%/%postname%/' posts >/dev/null 2>&1)
	my wp -e "INSERT INTO wp_posts (post_author, post_date, post_date_gmt, post_content, post_title, post_excerpt, post_status, post_name, to_ping, pinged,
		post_modified, post_modified_gmt, post_content_filtered, post_type, guid)
		SELECT 1, TIMESTAMP('2025-01-01') + INTERVAL seq MINUTE, TIMESTAMP('2025-01-01') + INTERVAL seq MINUTE, 'Text.', CONCAT('Post ', seq), '', 'publish',
		CONCAT('post-', seq, IF(seq % 2 = 0, '-zurich-co', '')), '', '', TIMESTAMP('2025-06-01') + INTERVAL seq MINUTE, TIMESTAMP('2025-06-01') + INTERVAL seq MINUTE, '', 'post', ''
		FROM seq_1_to_$CMS_PAGES;
		UPDATE wp_term_taxonomy SET count = count + $CMS_PAGES WHERE term_id = 1;
		INSERT INTO wp_term_relationships (object_id, term_taxonomy_id) SELECT ID, 1 FROM wp_posts WHERE post_title LIKE 'Post %'"
	cat >"$wp/render.php" <<'PHP'
<?php
// Every page of WordPress's core sitemaps rendered as WordPress renders
// it; prints the locs.
$_SERVER['HTTP_HOST'] = 'blog.example.com';
require_once __DIR__ . '/wp-load.php';
$server = wp_sitemaps_get_server();
foreach ( $server->registry->get_providers() as $provider ) {
	$subtypes = $provider->get_object_subtypes();
	foreach ( empty( $subtypes ) ? array( '' ) : array_keys( $subtypes ) as $subtype ) {
		for ( $p = 1; $p <= $provider->get_max_num_pages( $subtype ); $p++ ) {
			$xml = $server->renderer->get_sitemap_xml( $provider->get_url_list( $p, $subtype ) );
			preg_match_all( '#<loc>([^<]*)</loc>#', $xml, $m );
			echo implode( "\n", $m[1] ), "\n";
		}
	}
}
fwrite( STDERR, 'peak PHP memory ' . round( memory_get_peak_usage() / 1048576 ) . " MiB\n" );
PHP
	[ "$CMS_PEERS" = 0 ] || measure cms-wordpress-core-sitemaps sh -c "cd $wp && php render.php >$CMS/wp-theirs-raw.txt"
	measure cms-wordpress-generate-preset "$OUT/sitemap" generate --base-url https://blog.example.com/ --db "mysql://root@127.0.0.1:$port/wp" --preset wordpress --out "$CMS/wpours"
	grep -v '^$' "$CMS/wp-theirs-raw.txt" | sed 's/&amp;/\&/g' | python3 -c 'import sys,urllib.parse as u; [print(u.quote(u.unquote(l.strip()), safe=":/?=&%")) for l in sys.stdin]' | sort >"$CMS/wp-theirs.txt"
	cat "$CMS"/wpours/sitemap-*.xml | grep -o '<loc>[^<]*' | sed 's/<loc>//; s/&amp;/\&/g' | grep -v 'sitemap-[0-9]*.xml$\|sitemap.xml$' \
		| python3 -c 'import sys,urllib.parse as u; [print(u.quote(u.unquote(l.strip()), safe=":/?=&%")) for l in sys.stdin]' | sort >"$CMS/wp-ours.txt"
	comm -3 "$CMS/wp-theirs.txt" "$CMS/wp-ours.txt" >"$OUT/cms-wordpress.diff"
	say "| WordPress URLs: core $(wc -l <"$CMS/wp-theirs.txt"), preset $(wc -l <"$CMS/wp-ours.txt"), differing $(wc -l <"$OUT/cms-wordpress.diff") (out/cms-wordpress.diff) | | |"
	cms_serve wordpress "mysql://root@127.0.0.1:$port/wp" https://blog.example.com/
	say "| load average while measuring: $(cut -d' ' -f1-3 /proc/loadavg) | | |"
	cms_commit "mysql://root@127.0.0.1:$port/wp" https://blog.example.com/ "without triggers (--recheck 2s)" 11
	"$OUT/sitemap" serve --db "mysql://root@127.0.0.1:$port/wp" --preset wordpress --install-trigger 2>>"$OUT/cms-commit.stderr"
	cms_commit "mysql://root@127.0.0.1:$port/wp" https://blog.example.com/ "with --install-trigger" 22
	"$OUT/sitemap" serve --db "mysql://root@127.0.0.1:$port/wp" --preset wordpress --remove-trigger 2>>"$OUT/cms-commit.stderr"
	say "| load average after: $(cut -d' ' -f1-3 /proc/loadavg) | | |"
	kill "$(cat "$CMS/pid")" 2>/dev/null
	sleep 2
	rm -rf "$CMS"
fi
