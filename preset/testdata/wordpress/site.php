<?php
// Installs WordPress into an empty database and fills it with a site's
// content through WordPress's own functions (list.php then prints what
// its core sitemaps list). Run with php-cli from WordPress's directory,
// whose wp-config.php names the database:
// php site.php STRUCTURE SHOW_ON_FRONT (see make.sh).
define( 'WP_INSTALLING', true );
$_SERVER['HTTP_HOST'] = 'blog.example.com';
$_SERVER['REQUEST_URI'] = '/';
require_once getcwd() . '/wp-load.php';
require_once ABSPATH . 'wp-admin/includes/upgrade.php';
require_once ABSPATH . 'wp-admin/includes/image.php';

$structure = $argv[1];
$front     = $argv[2];
add_filter( 'pre_wp_mail', '__return_false' ); // no mail to the admin
wp_install( 'Test Blog', 'admin', 'admin@example.com', true, '', 'Secret-pass-123' );
update_option( 'home', 'https://blog.example.com' );
update_option( 'siteurl', 'https://blog.example.com' );
update_option( 'permalink_structure', $structure );
global $wp_rewrite;
$wp_rewrite->init();
$wp_rewrite->set_permalink_structure( $structure );

$editor = wp_insert_user( array( 'user_login' => 'jane doe', 'user_pass' => 'x-Pass-123', 'user_nicename' => 'jane-doe', 'role' => 'editor' ) );
$idle   = wp_insert_user( array( 'user_login' => 'idle', 'user_pass' => 'x-Pass-123', 'role' => 'author' ) );

$news  = wp_insert_term( 'News & Events', 'category' );
$local = wp_insert_term( 'Zürich local', 'category', array( 'parent' => $news['term_id'] ) );
$deep  = wp_insert_term( 'Deeper', 'category', array( 'parent' => $local['term_id'] ) );
$empty = wp_insert_term( 'Empty one', 'category' );

function post( $args ) {
	$defaults = array( 'post_status' => 'publish', 'post_type' => 'post', 'post_author' => 1, 'post_content' => 'Text.' );
	$id = wp_insert_post( array_merge( $defaults, $args ), true );
	if ( is_wp_error( $id ) ) {
		fwrite( STDERR, $id->get_error_message() . "\n" );
		exit( 1 );
	}
	return $id;
}
$i = 0;
function day() {
	global $i;
	$i++;
	return sprintf( '2026-%02d-%02d %02d:%02d:00', 1 + $i % 12, 1 + $i % 28, $i % 24, $i % 60 );
}
post( array( 'post_title' => 'Hello World & Friends', 'post_date' => day(), 'post_category' => array( $news['term_id'] ), 'tags_input' => array( 'ünïcode tag', 'Go' ) ) );
post( array( 'post_title' => 'Über uns: Straße', 'post_date' => day(), 'post_category' => array( $deep['term_id'], $news['term_id'] ), 'post_author' => $editor ) );
post( array( 'post_title' => '日本語の記事', 'post_date' => day(), 'tags_input' => array( 'Go' ) ) );
post( array( 'post_title' => 'A/B testing 100%', 'post_date' => day(), 'post_category' => array( $local['term_id'] ) ) );
post( array( 'post_title' => 'Draft post', 'post_status' => 'draft', 'post_date' => day() ) );
post( array( 'post_title' => 'Private post', 'post_status' => 'private', 'post_date' => day() ) );
post( array( 'post_title' => 'Pending post', 'post_status' => 'pending', 'post_date' => day() ) );
post( array( 'post_title' => 'Scheduled post', 'post_status' => 'future', 'post_date' => '2030-01-01 10:00:00' ) );
post( array( 'post_title' => 'Trashed post', 'post_status' => 'trash', 'post_date' => day() ) );
post( array( 'post_title' => 'Protected', 'post_password' => 'pw', 'post_date' => day() ) );
$gallery = post( array( 'post_title' => 'Gallery post', 'post_date' => day() ) );
set_post_format( $gallery, 'gallery' );
$same1 = post( array( 'post_title' => 'Same title', 'post_date' => day() ) );
$same2 = post( array( 'post_title' => 'Same title', 'post_date' => day() ) );
$noidx = post( array( 'post_title' => 'Yoast noindex', 'post_date' => day() ) );
update_post_meta( $noidx, '_yoast_wpseo_meta-robots-noindex', '1' );
$rank = post( array( 'post_title' => 'Rank Math noindex', 'post_date' => day() ) );
update_post_meta( $rank, 'rank_math_robots', array( 'noindex', 'nofollow' ) );

// A featured image: an attachment with its file, as the media library
// makes it.
$img = post( array( 'post_title' => 'Photo', 'post_type' => 'attachment', 'post_status' => 'inherit', 'post_mime_type' => 'image/jpeg', 'guid' => 'https://blog.example.com/wp-content/uploads/2026/11/photo one.jpg' ) );
update_post_meta( $img, '_wp_attached_file', '2026/11/photo one.jpg' );
$with = post( array( 'post_title' => 'With a photo', 'post_date' => day() ) );
set_post_thumbnail( $with, $img );

// A public custom post type, as a shop plugin registers it (list.php
// registers it too: registrations are not stored).
register_post_type( 'product', array( 'public' => true, 'label' => 'Products' ) );
post( array( 'post_title' => 'Blue Shirt & Co', 'post_type' => 'product', 'post_date' => day() ) );
post( array( 'post_title' => 'Draft product', 'post_type' => 'product', 'post_status' => 'draft', 'post_date' => day() ) );

$about = post( array( 'post_title' => 'About', 'post_type' => 'page', 'post_date' => day() ) );
$team  = post( array( 'post_title' => 'Team & Staff', 'post_type' => 'page', 'post_parent' => $about, 'post_date' => day() ) );
post( array( 'post_title' => 'Zoë Müller', 'post_type' => 'page', 'post_parent' => $team, 'post_date' => day() ) );
post( array( 'post_title' => 'Draft page', 'post_type' => 'page', 'post_status' => 'draft', 'post_date' => day() ) );
$home = post( array( 'post_title' => 'Welcome', 'post_type' => 'page', 'post_date' => day() ) );
$blog = post( array( 'post_title' => 'Blog', 'post_type' => 'page', 'post_date' => day() ) );
if ( 'page' === $front ) {
	update_option( 'show_on_front', 'page' );
	update_option( 'page_on_front', $home );
	update_option( 'page_for_posts', $blog );
}
wp_delete_post( 2, true ); // the installer's Sample Page goes, as on most sites
