<?php
// Prints the URLs WordPress's core sitemaps (wp-sitemap.xml and the
// sitemaps it lists) hold for the site site.php made, one per line: every
// provider (posts, taxonomies, users), subtype and page. Run with php-cli
// from WordPress's directory: php list.php.
$_SERVER['HTTP_HOST'] = 'blog.example.com';
$_SERVER['REQUEST_URI'] = '/';
require_once getcwd() . '/wp-load.php';
register_post_type( 'product', array( 'public' => true, 'label' => 'Products' ) );

// The core sitemaps' URLs, every provider, subtype and page.
$server = wp_sitemaps_get_server();
foreach ( $server->registry->get_providers() as $provider ) {
	$subtypes = $provider->get_object_subtypes();
	$names    = empty( $subtypes ) ? array( '' ) : array_keys( $subtypes );
	foreach ( $names as $subtype ) {
		$pages = $provider->get_max_num_pages( $subtype );
		for ( $p = 1; $p <= $pages; $p++ ) {
			foreach ( $provider->get_url_list( $p, $subtype ) as $entry ) {
				echo $entry['loc'], "\n";
			}
		}
	}
}
