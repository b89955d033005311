#!/bin/sh
# Remakes the dump-*.sql and wp-sitemap-*.txt of this directory with
# WordPress itself (Debian 12: apt-get install wordpress php-cli php-mysql
# mariadb-server). Give a MariaDB server the root user reaches without a
# password: sh make.sh 127.0.0.1:3306. Each site is made in database
# "wp" (dropped first) by site.php through WordPress's own functions, its
# core sitemaps listed by list.php, and the database dumped (the secret
# keys, salts and password hashes of these throwaway installs blanked).
set -e
server=${1:?give HOST:PORT of a MariaDB server}
host=${server%:*} port=${server#*:}
here=$(cd "$(dirname "$0")" && pwd)
wp=$(mktemp -d)
cp -a /usr/share/wordpress/. "$wp/"
cat >"$wp/wp-config.php" <<PHP
<?php
define('DB_NAME', 'wp'); define('DB_USER', 'root'); define('DB_PASSWORD', ''); define('DB_HOST', '$server');
define('DB_CHARSET', 'utf8mb4'); define('DB_COLLATE', '');
\$table_prefix = getenv('WP_PREFIX') ?: 'wp_';
define('WP_CONTENT_DIR', '$wp/wp-content');
if ( ! defined( 'ABSPATH' ) ) define( 'ABSPATH', __DIR__ . '/' );
require_once ABSPATH . 'wp-settings.php';
PHP
site() { # NAME PREFIX STRUCTURE SHOW_ON_FRONT
	my="mariadb -uroot -h$host -P$port"
	$my -e 'DROP DATABASE IF EXISTS wp; CREATE DATABASE wp'
	(cd "$wp" && WP_PREFIX=$2 php "$here/site.php" "$3" "$4" && WP_PREFIX=$2 php "$here/list.php") >"$here/wp-sitemap-$1.txt"
	$my wp -e "DELETE FROM ${2}options WHERE option_name LIKE '%\\_key' OR option_name LIKE '%\\_salt'; UPDATE ${2}users SET user_pass = ''"
	{
		echo "-- WordPress 6.1 (Debian's wordpress package) as site.php made it: prefix $2, permalink structure '$3', front page: $4."
		mariadb-dump -uroot -h"$host" -P"$port" --skip-comments --skip-dump-date --compact wp
	} >"$here/dump-$1.sql"
}
site dated wp_ '/%year%/%monthnum%/%postname%/' posts
site category blog_ '/articles/%category%/%post_id%-%postname%' page
site plain wp_ '' posts
rm -rf "$wp"
