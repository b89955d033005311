-- WordPress 6.1 (Debian's wordpress package) as site.php made it: prefix blog_, permalink structure '/articles/%category%/%post_id%-%postname%', front page: page.
/*M!999999\- enable the sandbox mode */ 
/*!40101 SET @saved_cs_client     = @@character_set_client */;
/*!40101 SET character_set_client = utf8mb4 */;
CREATE TABLE `blog_commentmeta` (
  `meta_id` bigint(20) unsigned NOT NULL AUTO_INCREMENT,
  `comment_id` bigint(20) unsigned NOT NULL DEFAULT 0,
  `meta_key` varchar(255) DEFAULT NULL,
  `meta_value` longtext DEFAULT NULL,
  PRIMARY KEY (`meta_id`),
  KEY `comment_id` (`comment_id`),
  KEY `meta_key` (`meta_key`(191))
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_520_ci;
/*!40101 SET character_set_client = @saved_cs_client */;
/*!40101 SET @saved_cs_client     = @@character_set_client */;
/*!40101 SET character_set_client = utf8mb4 */;
CREATE TABLE `blog_comments` (
  `comment_ID` bigint(20) unsigned NOT NULL AUTO_INCREMENT,
  `comment_post_ID` bigint(20) unsigned NOT NULL DEFAULT 0,
  `comment_author` tinytext NOT NULL,
  `comment_author_email` varchar(100) NOT NULL DEFAULT '',
  `comment_author_url` varchar(200) NOT NULL DEFAULT '',
  `comment_author_IP` varchar(100) NOT NULL DEFAULT '',
  `comment_date` datetime NOT NULL DEFAULT '0000-00-00 00:00:00',
  `comment_date_gmt` datetime NOT NULL DEFAULT '0000-00-00 00:00:00',
  `comment_content` text NOT NULL,
  `comment_karma` int(11) NOT NULL DEFAULT 0,
  `comment_approved` varchar(20) NOT NULL DEFAULT '1',
  `comment_agent` varchar(255) NOT NULL DEFAULT '',
  `comment_type` varchar(20) NOT NULL DEFAULT 'comment',
  `comment_parent` bigint(20) unsigned NOT NULL DEFAULT 0,
  `user_id` bigint(20) unsigned NOT NULL DEFAULT 0,
  PRIMARY KEY (`comment_ID`),
  KEY `comment_post_ID` (`comment_post_ID`),
  KEY `comment_approved_date_gmt` (`comment_approved`,`comment_date_gmt`),
  KEY `comment_date_gmt` (`comment_date_gmt`),
  KEY `comment_parent` (`comment_parent`),
  KEY `comment_author_email` (`comment_author_email`(10))
) ENGINE=InnoDB AUTO_INCREMENT=2 DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_520_ci;
/*!40101 SET character_set_client = @saved_cs_client */;
INSERT INTO `blog_comments` VALUES
(1,1,'A WordPress Commenter','wapuu@wordpress.example','https://wordpress.org/','','2026-11-27 14:45:19','2026-11-27 14:45:19','Hi, this is a comment.\nTo get started with moderating, editing, and deleting comments, please visit the Comments screen in the dashboard.\nCommenter avatars come from <a href=\"https://en.gravatar.com/\">Gravatar</a>.',0,'1','','comment',0,0);
/*!40101 SET @saved_cs_client     = @@character_set_client */;
/*!40101 SET character_set_client = utf8mb4 */;
CREATE TABLE `blog_links` (
  `link_id` bigint(20) unsigned NOT NULL AUTO_INCREMENT,
  `link_url` varchar(255) NOT NULL DEFAULT '',
  `link_name` varchar(255) NOT NULL DEFAULT '',
  `link_image` varchar(255) NOT NULL DEFAULT '',
  `link_target` varchar(25) NOT NULL DEFAULT '',
  `link_description` varchar(255) NOT NULL DEFAULT '',
  `link_visible` varchar(20) NOT NULL DEFAULT 'Y',
  `link_owner` bigint(20) unsigned NOT NULL DEFAULT 1,
  `link_rating` int(11) NOT NULL DEFAULT 0,
  `link_updated` datetime NOT NULL DEFAULT '0000-00-00 00:00:00',
  `link_rel` varchar(255) NOT NULL DEFAULT '',
  `link_notes` mediumtext NOT NULL,
  `link_rss` varchar(255) NOT NULL DEFAULT '',
  PRIMARY KEY (`link_id`),
  KEY `link_visible` (`link_visible`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_520_ci;
/*!40101 SET character_set_client = @saved_cs_client */;
/*!40101 SET @saved_cs_client     = @@character_set_client */;
/*!40101 SET character_set_client = utf8mb4 */;
CREATE TABLE `blog_options` (
  `option_id` bigint(20) unsigned NOT NULL AUTO_INCREMENT,
  `option_name` varchar(191) NOT NULL DEFAULT '',
  `option_value` longtext NOT NULL,
  `autoload` varchar(20) NOT NULL DEFAULT 'yes',
  PRIMARY KEY (`option_id`),
  UNIQUE KEY `option_name` (`option_name`),
  KEY `autoload` (`autoload`)
) ENGINE=InnoDB AUTO_INCREMENT=128 DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_520_ci;
/*!40101 SET character_set_client = @saved_cs_client */;
INSERT INTO `blog_options` VALUES
(1,'siteurl','https://blog.example.com','yes'),
(2,'home','https://blog.example.com','yes'),
(3,'blogname','Test Blog','yes'),
(4,'blogdescription','','yes'),
(5,'users_can_register','0','yes'),
(6,'admin_email','admin@example.com','yes'),
(7,'start_of_week','1','yes'),
(8,'use_balanceTags','0','yes'),
(9,'use_smilies','1','yes'),
(10,'require_name_email','1','yes'),
(11,'comments_notify','1','yes'),
(12,'posts_per_rss','10','yes'),
(13,'rss_use_excerpt','0','yes'),
(14,'mailserver_url','mail.example.com','yes'),
(15,'mailserver_login','login@example.com','yes'),
(16,'mailserver_pass','password','yes'),
(17,'mailserver_port','110','yes'),
(18,'default_category','1','yes'),
(19,'default_comment_status','open','yes'),
(20,'default_ping_status','open','yes'),
(21,'default_pingback_flag','1','yes'),
(22,'posts_per_page','10','yes'),
(23,'date_format','F j, Y','yes'),
(24,'time_format','g:i a','yes'),
(25,'links_updated_date_format','F j, Y g:i a','yes'),
(26,'comment_moderation','0','yes'),
(27,'moderation_notify','1','yes'),
(28,'permalink_structure','/articles/%category%/%post_id%-%postname%','yes'),
(29,'rewrite_rules','','yes'),
(30,'hack_file','0','yes'),
(31,'blog_charset','UTF-8','yes'),
(32,'moderation_keys','','no'),
(33,'active_plugins','a:0:{}','yes'),
(34,'category_base','','yes'),
(35,'ping_sites','http://rpc.pingomatic.com/','yes'),
(36,'comment_max_links','2','yes'),
(37,'gmt_offset','0','yes'),
(38,'default_email_category','1','yes'),
(39,'recently_edited','','no'),
(40,'template','twentytwentythree','yes'),
(41,'stylesheet','twentytwentythree','yes'),
(42,'comment_registration','0','yes'),
(43,'html_type','text/html','yes'),
(44,'use_trackback','0','yes'),
(45,'default_role','subscriber','yes'),
(46,'db_version','53496','yes'),
(47,'uploads_use_yearmonth_folders','1','yes'),
(48,'upload_path','','yes'),
(49,'blog_public','1','yes'),
(50,'default_link_category','2','yes'),
(51,'show_on_front','page','yes'),
(52,'tag_base','','yes'),
(53,'show_avatars','1','yes'),
(54,'avatar_rating','G','yes'),
(55,'upload_url_path','','yes'),
(56,'thumbnail_size_w','150','yes'),
(57,'thumbnail_size_h','150','yes'),
(58,'thumbnail_crop','1','yes'),
(59,'medium_size_w','300','yes'),
(60,'medium_size_h','300','yes'),
(61,'avatar_default','mystery','yes'),
(62,'large_size_w','1024','yes'),
(63,'large_size_h','1024','yes'),
(64,'image_default_link_type','none','yes'),
(65,'image_default_size','','yes'),
(66,'image_default_align','','yes'),
(67,'close_comments_for_old_posts','0','yes'),
(68,'close_comments_days_old','14','yes'),
(69,'thread_comments','1','yes'),
(70,'thread_comments_depth','5','yes'),
(71,'page_comments','0','yes'),
(72,'comments_per_page','50','yes'),
(73,'default_comments_page','newest','yes'),
(74,'comment_order','asc','yes'),
(75,'sticky_posts','a:0:{}','yes'),
(76,'widget_categories','a:0:{}','yes'),
(77,'widget_text','a:0:{}','yes'),
(78,'widget_rss','a:0:{}','yes'),
(79,'uninstall_plugins','a:0:{}','no'),
(80,'timezone_string','','yes'),
(81,'page_for_posts','28','yes'),
(82,'page_on_front','27','yes'),
(83,'default_post_format','0','yes'),
(84,'link_manager_enabled','0','yes'),
(85,'finished_splitting_shared_terms','1','yes'),
(86,'site_icon','0','yes'),
(87,'medium_large_size_w','768','yes'),
(88,'medium_large_size_h','0','yes'),
(89,'wp_page_for_privacy_policy','3','yes'),
(90,'show_comments_cookies_opt_in','1','yes'),
(91,'admin_email_lifespan','1811342718','yes'),
(92,'disallowed_keys','','no'),
(93,'comment_previously_approved','1','yes'),
(94,'auto_plugin_theme_update_emails','a:0:{}','no'),
(95,'auto_update_core_dev','enabled','yes'),
(96,'auto_update_core_minor','enabled','yes'),
(97,'auto_update_core_major','enabled','yes'),
(98,'wp_force_deactivated_plugins','a:0:{}','yes'),
(99,'initial_db_version','53496','yes'),
(100,'blog_user_roles','a:5:{s:13:\"administrator\";a:2:{s:4:\"name\";s:13:\"Administrator\";s:12:\"capabilities\";a:61:{s:13:\"switch_themes\";b:1;s:11:\"edit_themes\";b:1;s:16:\"activate_plugins\";b:1;s:12:\"edit_plugins\";b:1;s:10:\"edit_users\";b:1;s:10:\"edit_files\";b:1;s:14:\"manage_options\";b:1;s:17:\"moderate_comments\";b:1;s:17:\"manage_categories\";b:1;s:12:\"manage_links\";b:1;s:12:\"upload_files\";b:1;s:6:\"import\";b:1;s:15:\"unfiltered_html\";b:1;s:10:\"edit_posts\";b:1;s:17:\"edit_others_posts\";b:1;s:20:\"edit_published_posts\";b:1;s:13:\"publish_posts\";b:1;s:10:\"edit_pages\";b:1;s:4:\"read\";b:1;s:8:\"level_10\";b:1;s:7:\"level_9\";b:1;s:7:\"level_8\";b:1;s:7:\"level_7\";b:1;s:7:\"level_6\";b:1;s:7:\"level_5\";b:1;s:7:\"level_4\";b:1;s:7:\"level_3\";b:1;s:7:\"level_2\";b:1;s:7:\"level_1\";b:1;s:7:\"level_0\";b:1;s:17:\"edit_others_pages\";b:1;s:20:\"edit_published_pages\";b:1;s:13:\"publish_pages\";b:1;s:12:\"delete_pages\";b:1;s:19:\"delete_others_pages\";b:1;s:22:\"delete_published_pages\";b:1;s:12:\"delete_posts\";b:1;s:19:\"delete_others_posts\";b:1;s:22:\"delete_published_posts\";b:1;s:20:\"delete_private_posts\";b:1;s:18:\"edit_private_posts\";b:1;s:18:\"read_private_posts\";b:1;s:20:\"delete_private_pages\";b:1;s:18:\"edit_private_pages\";b:1;s:18:\"read_private_pages\";b:1;s:12:\"delete_users\";b:1;s:12:\"create_users\";b:1;s:17:\"unfiltered_upload\";b:1;s:14:\"edit_dashboard\";b:1;s:14:\"update_plugins\";b:1;s:14:\"delete_plugins\";b:1;s:15:\"install_plugins\";b:1;s:13:\"update_themes\";b:1;s:14:\"install_themes\";b:1;s:11:\"update_core\";b:1;s:10:\"list_users\";b:1;s:12:\"remove_users\";b:1;s:13:\"promote_users\";b:1;s:18:\"edit_theme_options\";b:1;s:13:\"delete_themes\";b:1;s:6:\"export\";b:1;}}s:6:\"editor\";a:2:{s:4:\"name\";s:6:\"Editor\";s:12:\"capabilities\";a:34:{s:17:\"moderate_comments\";b:1;s:17:\"manage_categories\";b:1;s:12:\"manage_links\";b:1;s:12:\"upload_files\";b:1;s:15:\"unfiltered_html\";b:1;s:10:\"edit_posts\";b:1;s:17:\"edit_others_posts\";b:1;s:20:\"edit_published_posts\";b:1;s:13:\"publish_posts\";b:1;s:10:\"edit_pages\";b:1;s:4:\"read\";b:1;s:7:\"level_7\";b:1;s:7:\"level_6\";b:1;s:7:\"level_5\";b:1;s:7:\"level_4\";b:1;s:7:\"level_3\";b:1;s:7:\"level_2\";b:1;s:7:\"level_1\";b:1;s:7:\"level_0\";b:1;s:17:\"edit_others_pages\";b:1;s:20:\"edit_published_pages\";b:1;s:13:\"publish_pages\";b:1;s:12:\"delete_pages\";b:1;s:19:\"delete_others_pages\";b:1;s:22:\"delete_published_pages\";b:1;s:12:\"delete_posts\";b:1;s:19:\"delete_others_posts\";b:1;s:22:\"delete_published_posts\";b:1;s:20:\"delete_private_posts\";b:1;s:18:\"edit_private_posts\";b:1;s:18:\"read_private_posts\";b:1;s:20:\"delete_private_pages\";b:1;s:18:\"edit_private_pages\";b:1;s:18:\"read_private_pages\";b:1;}}s:6:\"author\";a:2:{s:4:\"name\";s:6:\"Author\";s:12:\"capabilities\";a:10:{s:12:\"upload_files\";b:1;s:10:\"edit_posts\";b:1;s:20:\"edit_published_posts\";b:1;s:13:\"publish_posts\";b:1;s:4:\"read\";b:1;s:7:\"level_2\";b:1;s:7:\"level_1\";b:1;s:7:\"level_0\";b:1;s:12:\"delete_posts\";b:1;s:22:\"delete_published_posts\";b:1;}}s:11:\"contributor\";a:2:{s:4:\"name\";s:11:\"Contributor\";s:12:\"capabilities\";a:5:{s:10:\"edit_posts\";b:1;s:4:\"read\";b:1;s:7:\"level_1\";b:1;s:7:\"level_0\";b:1;s:12:\"delete_posts\";b:1;}}s:10:\"subscriber\";a:2:{s:4:\"name\";s:10:\"Subscriber\";s:12:\"capabilities\";a:2:{s:4:\"read\";b:1;s:7:\"level_0\";b:1;}}}','yes'),
(101,'fresh_site','0','yes'),
(102,'user_count','3','no'),
(103,'widget_block','a:6:{i:2;a:1:{s:7:\"content\";s:19:\"<!-- wp:search /-->\";}i:3;a:1:{s:7:\"content\";s:154:\"<!-- wp:group --><div class=\"wp-block-group\"><!-- wp:heading --><h2>Recent Posts</h2><!-- /wp:heading --><!-- wp:latest-posts /--></div><!-- /wp:group -->\";}i:4;a:1:{s:7:\"content\";s:227:\"<!-- wp:group --><div class=\"wp-block-group\"><!-- wp:heading --><h2>Recent Comments</h2><!-- /wp:heading --><!-- wp:latest-comments {\"displayAvatar\":false,\"displayDate\":false,\"displayExcerpt\":false} /--></div><!-- /wp:group -->\";}i:5;a:1:{s:7:\"content\";s:146:\"<!-- wp:group --><div class=\"wp-block-group\"><!-- wp:heading --><h2>Archives</h2><!-- /wp:heading --><!-- wp:archives /--></div><!-- /wp:group -->\";}i:6;a:1:{s:7:\"content\";s:150:\"<!-- wp:group --><div class=\"wp-block-group\"><!-- wp:heading --><h2>Categories</h2><!-- /wp:heading --><!-- wp:categories /--></div><!-- /wp:group -->\";}s:12:\"_multiwidget\";i:1;}','yes'),
(104,'sidebars_widgets','a:4:{s:19:\"wp_inactive_widgets\";a:0:{}s:9:\"sidebar-1\";a:3:{i:0;s:7:\"block-2\";i:1;s:7:\"block-3\";i:2;s:7:\"block-4\";}s:9:\"sidebar-2\";a:2:{i:0;s:7:\"block-5\";i:1;s:7:\"block-6\";}s:13:\"array_version\";i:3;}','yes'),
(108,'category_children','a:2:{i:2;a:1:{i:0;i:3;}i:3;a:1:{i:0;i:4;}}','yes'),
(109,'wp_calendar_block_has_published_posts','1','yes'),
(110,'cron','a:7:{i:1795790721;a:1:{s:8:\"do_pings\";a:1:{s:32:\"40cd750bba9870f18aada2478b24840a\";a:2:{s:8:\"schedule\";b:0;s:4:\"args\";a:0:{}}}}i:1795790724;a:6:{s:32:\"recovery_mode_clean_expired_keys\";a:1:{s:32:\"40cd750bba9870f18aada2478b24840a\";a:3:{s:8:\"schedule\";s:5:\"daily\";s:4:\"args\";a:0:{}s:8:\"interval\";i:86400;}}s:18:\"wp_https_detection\";a:1:{s:32:\"40cd750bba9870f18aada2478b24840a\";a:3:{s:8:\"schedule\";s:10:\"twicedaily\";s:4:\"args\";a:0:{}s:8:\"interval\";i:43200;}}s:34:\"wp_privacy_delete_old_export_files\";a:1:{s:32:\"40cd750bba9870f18aada2478b24840a\";a:3:{s:8:\"schedule\";s:6:\"hourly\";s:4:\"args\";a:0:{}s:8:\"interval\";i:3600;}}s:16:\"wp_version_check\";a:1:{s:32:\"40cd750bba9870f18aada2478b24840a\";a:3:{s:8:\"schedule\";s:10:\"twicedaily\";s:4:\"args\";a:0:{}s:8:\"interval\";i:43200;}}s:17:\"wp_update_plugins\";a:1:{s:32:\"40cd750bba9870f18aada2478b24840a\";a:3:{s:8:\"schedule\";s:10:\"twicedaily\";s:4:\"args\";a:0:{}s:8:\"interval\";i:43200;}}s:16:\"wp_update_themes\";a:1:{s:32:\"40cd750bba9870f18aada2478b24840a\";a:3:{s:8:\"schedule\";s:10:\"twicedaily\";s:4:\"args\";a:0:{}s:8:\"interval\";i:43200;}}}i:1795877124;a:1:{s:30:\"wp_site_health_scheduled_check\";a:1:{s:32:\"40cd750bba9870f18aada2478b24840a\";a:3:{s:8:\"schedule\";s:6:\"weekly\";s:4:\"args\";a:0:{}s:8:\"interval\";i:604800;}}}i:1797073860;a:1:{s:19:\"publish_future_post\";a:1:{s:32:\"64fe7e19c11c6aa5ae4105b856a866cd\";a:2:{s:8:\"schedule\";b:0;s:4:\"args\";a:1:{i:0;i:15;}}}}i:1798154580;a:1:{s:19:\"publish_future_post\";a:1:{s:32:\"17f415781210aaa50f7cb291eccfc7af\";a:2:{s:8:\"schedule\";b:0;s:4:\"args\";a:1:{i:0;i:28;}}}}i:1893492000;a:1:{s:19:\"publish_future_post\";a:1:{s:32:\"a33bdbdff47548655d9bd9c05ea3930a\";a:2:{s:8:\"schedule\";b:0;s:4:\"args\";a:1:{i:0;i:11;}}}}s:7:\"version\";i:2;}','yes'),
(111,'widget_pages','a:1:{s:12:\"_multiwidget\";i:1;}','yes'),
(112,'widget_calendar','a:1:{s:12:\"_multiwidget\";i:1;}','yes'),
(113,'widget_archives','a:1:{s:12:\"_multiwidget\";i:1;}','yes'),
(114,'widget_media_audio','a:1:{s:12:\"_multiwidget\";i:1;}','yes'),
(115,'widget_media_image','a:1:{s:12:\"_multiwidget\";i:1;}','yes'),
(116,'widget_media_gallery','a:1:{s:12:\"_multiwidget\";i:1;}','yes'),
(117,'widget_media_video','a:1:{s:12:\"_multiwidget\";i:1;}','yes'),
(118,'widget_meta','a:1:{s:12:\"_multiwidget\";i:1;}','yes'),
(119,'widget_search','a:1:{s:12:\"_multiwidget\";i:1;}','yes'),
(122,'widget_recent-posts','a:1:{s:12:\"_multiwidget\";i:1;}','yes'),
(123,'widget_recent-comments','a:1:{s:12:\"_multiwidget\";i:1;}','yes'),
(124,'widget_tag_cloud','a:1:{s:12:\"_multiwidget\";i:1;}','yes'),
(125,'widget_nav_menu','a:1:{s:12:\"_multiwidget\";i:1;}','yes'),
(126,'widget_custom_html','a:1:{s:12:\"_multiwidget\";i:1;}','yes'),
(127,'_transient_doing_cron','1795790725.0148370265960693359375','yes');
/*!40101 SET @saved_cs_client     = @@character_set_client */;
/*!40101 SET character_set_client = utf8mb4 */;
CREATE TABLE `blog_postmeta` (
  `meta_id` bigint(20) unsigned NOT NULL AUTO_INCREMENT,
  `post_id` bigint(20) unsigned NOT NULL DEFAULT 0,
  `meta_key` varchar(255) DEFAULT NULL,
  `meta_value` longtext DEFAULT NULL,
  PRIMARY KEY (`meta_id`),
  KEY `post_id` (`post_id`),
  KEY `meta_key` (`meta_key`(191))
) ENGINE=InnoDB AUTO_INCREMENT=27 DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_520_ci;
/*!40101 SET character_set_client = @saved_cs_client */;
INSERT INTO `blog_postmeta` VALUES
(2,3,'_wp_page_template','default'),
(3,4,'_pingme','1'),
(4,4,'_encloseme','1'),
(5,5,'_pingme','1'),
(6,5,'_encloseme','1'),
(7,6,'_pingme','1'),
(8,6,'_encloseme','1'),
(9,7,'_pingme','1'),
(10,7,'_encloseme','1'),
(11,13,'_pingme','1'),
(12,13,'_encloseme','1'),
(13,14,'_pingme','1'),
(14,14,'_encloseme','1'),
(15,16,'_pingme','1'),
(16,16,'_encloseme','1'),
(17,17,'_pingme','1'),
(18,17,'_encloseme','1'),
(19,17,'_yoast_wpseo_meta-robots-noindex','1'),
(20,18,'_pingme','1'),
(21,18,'_encloseme','1'),
(22,18,'rank_math_robots','a:2:{i:0;s:7:\"noindex\";i:1;s:8:\"nofollow\";}'),
(23,19,'_wp_attached_file','2026/11/photo one.jpg'),
(24,20,'_pingme','1'),
(25,20,'_encloseme','1'),
(26,20,'_thumbnail_id','19');
/*!40101 SET @saved_cs_client     = @@character_set_client */;
/*!40101 SET character_set_client = utf8mb4 */;
CREATE TABLE `blog_posts` (
  `ID` bigint(20) unsigned NOT NULL AUTO_INCREMENT,
  `post_author` bigint(20) unsigned NOT NULL DEFAULT 0,
  `post_date` datetime NOT NULL DEFAULT '0000-00-00 00:00:00',
  `post_date_gmt` datetime NOT NULL DEFAULT '0000-00-00 00:00:00',
  `post_content` longtext NOT NULL,
  `post_title` text NOT NULL,
  `post_excerpt` text NOT NULL,
  `post_status` varchar(20) NOT NULL DEFAULT 'publish',
  `comment_status` varchar(20) NOT NULL DEFAULT 'open',
  `ping_status` varchar(20) NOT NULL DEFAULT 'open',
  `post_password` varchar(255) NOT NULL DEFAULT '',
  `post_name` varchar(200) NOT NULL DEFAULT '',
  `to_ping` text NOT NULL,
  `pinged` text NOT NULL,
  `post_modified` datetime NOT NULL DEFAULT '0000-00-00 00:00:00',
  `post_modified_gmt` datetime NOT NULL DEFAULT '0000-00-00 00:00:00',
  `post_content_filtered` longtext NOT NULL,
  `post_parent` bigint(20) unsigned NOT NULL DEFAULT 0,
  `guid` varchar(255) NOT NULL DEFAULT '',
  `menu_order` int(11) NOT NULL DEFAULT 0,
  `post_type` varchar(20) NOT NULL DEFAULT 'post',
  `post_mime_type` varchar(100) NOT NULL DEFAULT '',
  `comment_count` bigint(20) NOT NULL DEFAULT 0,
  PRIMARY KEY (`ID`),
  KEY `post_name` (`post_name`(191)),
  KEY `type_status_date` (`post_type`,`post_status`,`post_date`,`ID`),
  KEY `post_parent` (`post_parent`),
  KEY `post_author` (`post_author`)
) ENGINE=InnoDB AUTO_INCREMENT=29 DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_520_ci;
/*!40101 SET character_set_client = @saved_cs_client */;
INSERT INTO `blog_posts` VALUES
(1,1,'2026-11-27 14:45:19','2026-11-27 14:45:19','<!-- wp:paragraph -->\n<p>Welcome to WordPress. This is your first post. Edit or delete it, then start writing!</p>\n<!-- /wp:paragraph -->','Hello world!','','publish','open','open','','hello-world','','','2026-11-27 14:45:19','2026-11-27 14:45:19','',0,'http://blog.example.com/?p=1',0,'post','',1),
(3,1,'2026-11-27 14:45:19','2026-11-27 14:45:19','<!-- wp:heading --><h2>Who we are</h2><!-- /wp:heading --><!-- wp:paragraph --><p><strong class=\"privacy-policy-tutorial\">Suggested text: </strong>Our website address is: http://blog.example.com.</p><!-- /wp:paragraph --><!-- wp:heading --><h2>Comments</h2><!-- /wp:heading --><!-- wp:paragraph --><p><strong class=\"privacy-policy-tutorial\">Suggested text: </strong>When visitors leave comments on the site we collect the data shown in the comments form, and also the visitor&#8217;s IP address and browser user agent string to help spam detection.</p><!-- /wp:paragraph --><!-- wp:paragraph --><p>An anonymized string created from your email address (also called a hash) may be provided to the Gravatar service to see if you are using it. The Gravatar service privacy policy is available here: https://automattic.com/privacy/. After approval of your comment, your profile picture is visible to the public in the context of your comment.</p><!-- /wp:paragraph --><!-- wp:heading --><h2>Media</h2><!-- /wp:heading --><!-- wp:paragraph --><p><strong class=\"privacy-policy-tutorial\">Suggested text: </strong>If you upload images to the website, you should avoid uploading images with embedded location data (EXIF GPS) included. Visitors to the website can download and extract any location data from images on the website.</p><!-- /wp:paragraph --><!-- wp:heading --><h2>Cookies</h2><!-- /wp:heading --><!-- wp:paragraph --><p><strong class=\"privacy-policy-tutorial\">Suggested text: </strong>If you leave a comment on our site you may opt-in to saving your name, email address and website in cookies. These are for your convenience so that you do not have to fill in your details again when you leave another comment. These cookies will last for one year.</p><!-- /wp:paragraph --><!-- wp:paragraph --><p>If you visit our login page, we will set a temporary cookie to determine if your browser accepts cookies. This cookie contains no personal data and is discarded when you close your browser.</p><!-- /wp:paragraph --><!-- wp:paragraph --><p>When you log in, we will also set up several cookies to save your login information and your screen display choices. Login cookies last for two days, and screen options cookies last for a year. If you select &quot;Remember Me&quot;, your login will persist for two weeks. If you log out of your account, the login cookies will be removed.</p><!-- /wp:paragraph --><!-- wp:paragraph --><p>If you edit or publish an article, an additional cookie will be saved in your browser. This cookie includes no personal data and simply indicates the post ID of the article you just edited. It expires after 1 day.</p><!-- /wp:paragraph --><!-- wp:heading --><h2>Embedded content from other websites</h2><!-- /wp:heading --><!-- wp:paragraph --><p><strong class=\"privacy-policy-tutorial\">Suggested text: </strong>Articles on this site may include embedded content (e.g. videos, images, articles, etc.). Embedded content from other websites behaves in the exact same way as if the visitor has visited the other website.</p><!-- /wp:paragraph --><!-- wp:paragraph --><p>These websites may collect data about you, use cookies, embed additional third-party tracking, and monitor your interaction with that embedded content, including tracking your interaction with the embedded content if you have an account and are logged in to that website.</p><!-- /wp:paragraph --><!-- wp:heading --><h2>Who we share your data with</h2><!-- /wp:heading --><!-- wp:paragraph --><p><strong class=\"privacy-policy-tutorial\">Suggested text: </strong>If you request a password reset, your IP address will be included in the reset email.</p><!-- /wp:paragraph --><!-- wp:heading --><h2>How long we retain your data</h2><!-- /wp:heading --><!-- wp:paragraph --><p><strong class=\"privacy-policy-tutorial\">Suggested text: </strong>If you leave a comment, the comment and its metadata are retained indefinitely. This is so we can recognize and approve any follow-up comments automatically instead of holding them in a moderation queue.</p><!-- /wp:paragraph --><!-- wp:paragraph --><p>For users that register on our website (if any), we also store the personal information they provide in their user profile. All users can see, edit, or delete their personal information at any time (except they cannot change their username). Website administrators can also see and edit that information.</p><!-- /wp:paragraph --><!-- wp:heading --><h2>What rights you have over your data</h2><!-- /wp:heading --><!-- wp:paragraph --><p><strong class=\"privacy-policy-tutorial\">Suggested text: </strong>If you have an account on this site, or have left comments, you can request to receive an exported file of the personal data we hold about you, including any data you have provided to us. You can also request that we erase any personal data we hold about you. This does not include any data we are obliged to keep for administrative, legal, or security purposes.</p><!-- /wp:paragraph --><!-- wp:heading --><h2>Where your data is sent</h2><!-- /wp:heading --><!-- wp:paragraph --><p><strong class=\"privacy-policy-tutorial\">Suggested text: </strong>Visitor comments may be checked through an automated spam detection service.</p><!-- /wp:paragraph -->','Privacy Policy','','draft','closed','open','','privacy-policy','','','2026-11-27 14:45:19','2026-11-27 14:45:19','',0,'http://blog.example.com/?page_id=3',0,'page','',0),
(4,1,'2026-02-02 01:01:00','2026-02-02 01:01:00','Text.','Hello World &amp; Friends','','publish','open','open','','hello-world-friends','','','2026-02-02 01:01:00','2026-02-02 01:01:00','',0,'https://blog.example.com/articles/news-events/4-hello-world-friends',0,'post','',0),
(5,2,'2026-03-03 02:02:00','2026-03-03 02:02:00','Text.','Über uns: Straße','','publish','open','open','','uber-uns-strase','','','2026-03-03 02:02:00','2026-03-03 02:02:00','',0,'https://blog.example.com/articles/news-events/5-uber-uns-strase',0,'post','',0),
(6,1,'2026-04-04 03:03:00','2026-04-04 03:03:00','Text.','日本語の記事','','publish','open','open','','%e6%97%a5%e6%9c%ac%e8%aa%9e%e3%81%ae%e8%a8%98%e4%ba%8b','','','2026-04-04 03:03:00','2026-04-04 03:03:00','',0,'https://blog.example.com/articles/uncategorized/6-%e6%97%a5%e6%9c%ac%e8%aa%9e%e3%81%ae%e8%a8%98%e4%ba%8b',0,'post','',0),
(7,1,'2026-05-05 04:04:00','2026-05-05 04:04:00','Text.','A/B testing 100%','','publish','open','open','','a-b-testing-100','','','2026-05-05 04:04:00','2026-05-05 04:04:00','',0,'https://blog.example.com/articles/news-events/zurich-local/7-a-b-testing-100',0,'post','',0),
(8,1,'2026-06-06 05:05:00','0000-00-00 00:00:00','Text.','Draft post','','draft','open','open','','','','','2026-06-06 05:05:00','0000-00-00 00:00:00','',0,'https://blog.example.com/?p=8',0,'post','',0),
(9,1,'2026-07-07 06:06:00','2026-07-07 06:06:00','Text.','Private post','','private','open','open','','private-post','','','2026-07-07 06:06:00','2026-07-07 06:06:00','',0,'https://blog.example.com/?p=9',0,'post','',0),
(10,1,'2026-08-08 07:07:00','0000-00-00 00:00:00','Text.','Pending post','','pending','open','open','','','','','2026-08-08 07:07:00','0000-00-00 00:00:00','',0,'https://blog.example.com/?p=10',0,'post','',0),
(11,1,'2030-01-01 10:00:00','2030-01-01 10:00:00','Text.','Scheduled post','','future','open','open','','scheduled-post','','','2030-01-01 10:00:00','2030-01-01 10:00:00','',0,'https://blog.example.com/?p=11',0,'post','',0),
(12,1,'2026-09-09 08:08:00','2026-09-09 08:08:00','Text.','Trashed post','','trash','open','open','','trashed-post','','','2026-09-09 08:08:00','2026-09-09 08:08:00','',0,'https://blog.example.com/?p=12',0,'post','',0),
(13,1,'2026-10-10 09:09:00','2026-10-10 09:09:00','Text.','Protected','','publish','open','open','pw','protected','','','2026-10-10 09:09:00','2026-10-10 09:09:00','',0,'https://blog.example.com/articles/uncategorized/13-protected',0,'post','',0),
(14,1,'2026-11-11 10:10:00','2026-11-11 10:10:00','Text.','Gallery post','','publish','open','open','','gallery-post','','','2026-11-11 10:10:00','2026-11-11 10:10:00','',0,'https://blog.example.com/articles/uncategorized/14-gallery-post',0,'post','',0),
(15,1,'2026-12-12 11:11:00','2026-12-12 11:11:00','Text.','Same title','','future','open','open','','same-title','','','2026-12-12 11:11:00','2026-12-12 11:11:00','',0,'https://blog.example.com/?p=15',0,'post','',0),
(16,1,'2026-01-13 12:12:00','2026-01-13 12:12:00','Text.','Same title','','publish','open','open','','same-title-2','','','2026-01-13 12:12:00','2026-01-13 12:12:00','',0,'https://blog.example.com/articles/uncategorized/16-same-title-2',0,'post','',0),
(17,1,'2026-02-14 13:13:00','2026-02-14 13:13:00','Text.','Yoast noindex','','publish','open','open','','yoast-noindex','','','2026-02-14 13:13:00','2026-02-14 13:13:00','',0,'https://blog.example.com/articles/uncategorized/17-yoast-noindex',0,'post','',0),
(18,1,'2026-03-15 14:14:00','2026-03-15 14:14:00','Text.','Rank Math noindex','','publish','open','open','','rank-math-noindex','','','2026-03-15 14:14:00','2026-03-15 14:14:00','',0,'https://blog.example.com/articles/uncategorized/18-rank-math-noindex',0,'post','',0),
(19,1,'2026-11-27 14:45:22','2026-11-27 14:45:22','Text.','Photo','','inherit','open','closed','','photo','','','2026-11-27 14:45:22','2026-11-27 14:45:22','',0,'https://blog.example.com/wp-content/uploads/2026/11/photo%20one.jpg',0,'attachment','image/jpeg',0),
(20,1,'2026-04-16 15:15:00','2026-04-16 15:15:00','Text.','With a photo','','publish','open','open','','with-a-photo','','','2026-04-16 15:15:00','2026-04-16 15:15:00','',0,'https://blog.example.com/articles/uncategorized/20-with-a-photo',0,'post','',0),
(21,1,'2026-05-17 16:16:00','2026-05-17 16:16:00','Text.','Blue Shirt &amp; Co','','publish','closed','closed','','blue-shirt-co','','','2026-05-17 16:16:00','2026-05-17 16:16:00','',0,'https://blog.example.com/articles/product/blue-shirt-co',0,'product','',0),
(22,1,'2026-06-18 17:17:00','0000-00-00 00:00:00','Text.','Draft product','','draft','closed','closed','','','','','2026-06-18 17:17:00','0000-00-00 00:00:00','',0,'https://blog.example.com/?post_type=product&p=22',0,'product','',0),
(23,1,'2026-07-19 18:18:00','2026-07-19 18:18:00','Text.','About','','publish','closed','closed','','about','','','2026-07-19 18:18:00','2026-07-19 18:18:00','',0,'https://blog.example.com/about',0,'page','',0),
(24,1,'2026-08-20 19:19:00','2026-08-20 19:19:00','Text.','Team &amp; Staff','','publish','closed','closed','','team-staff','','','2026-08-20 19:19:00','2026-08-20 19:19:00','',23,'https://blog.example.com/about/team-staff',0,'page','',0),
(25,1,'2026-09-21 20:20:00','2026-09-21 20:20:00','Text.','Zoë Müller','','publish','closed','closed','','zoe-muller','','','2026-09-21 20:20:00','2026-09-21 20:20:00','',24,'https://blog.example.com/about/team-staff/zoe-muller',0,'page','',0),
(26,1,'2026-10-22 21:21:00','0000-00-00 00:00:00','Text.','Draft page','','draft','closed','closed','','','','','2026-10-22 21:21:00','0000-00-00 00:00:00','',0,'https://blog.example.com/?page_id=26',0,'page','',0),
(27,1,'2026-11-23 22:22:00','2026-11-23 22:22:00','Text.','Welcome','','publish','closed','closed','','welcome','','','2026-11-23 22:22:00','2026-11-23 22:22:00','',0,'https://blog.example.com/welcome',0,'page','',0),
(28,1,'2026-12-24 23:23:00','2026-12-24 23:23:00','Text.','Blog','','future','closed','closed','','blog','','','2026-12-24 23:23:00','2026-12-24 23:23:00','',0,'https://blog.example.com/?page_id=28',0,'page','',0);
/*!40101 SET @saved_cs_client     = @@character_set_client */;
/*!40101 SET character_set_client = utf8mb4 */;
CREATE TABLE `blog_term_relationships` (
  `object_id` bigint(20) unsigned NOT NULL DEFAULT 0,
  `term_taxonomy_id` bigint(20) unsigned NOT NULL DEFAULT 0,
  `term_order` int(11) NOT NULL DEFAULT 0,
  PRIMARY KEY (`object_id`,`term_taxonomy_id`),
  KEY `term_taxonomy_id` (`term_taxonomy_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_520_ci;
/*!40101 SET character_set_client = @saved_cs_client */;
INSERT INTO `blog_term_relationships` VALUES
(1,1,0),
(4,2,0),
(4,6,0),
(4,7,0),
(5,2,0),
(5,4,0),
(6,1,0),
(6,7,0),
(7,3,0),
(8,1,0),
(9,1,0),
(10,1,0),
(11,1,0),
(12,1,0),
(13,1,0),
(14,1,0),
(14,8,0),
(15,1,0),
(16,1,0),
(17,1,0),
(18,1,0),
(20,1,0);
/*!40101 SET @saved_cs_client     = @@character_set_client */;
/*!40101 SET character_set_client = utf8mb4 */;
CREATE TABLE `blog_term_taxonomy` (
  `term_taxonomy_id` bigint(20) unsigned NOT NULL AUTO_INCREMENT,
  `term_id` bigint(20) unsigned NOT NULL DEFAULT 0,
  `taxonomy` varchar(32) NOT NULL DEFAULT '',
  `description` longtext NOT NULL,
  `parent` bigint(20) unsigned NOT NULL DEFAULT 0,
  `count` bigint(20) NOT NULL DEFAULT 0,
  PRIMARY KEY (`term_taxonomy_id`),
  UNIQUE KEY `term_id_taxonomy` (`term_id`,`taxonomy`),
  KEY `taxonomy` (`taxonomy`)
) ENGINE=InnoDB AUTO_INCREMENT=9 DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_520_ci;
/*!40101 SET character_set_client = @saved_cs_client */;
INSERT INTO `blog_term_taxonomy` VALUES
(1,1,'category','',0,8),
(2,2,'category','',0,2),
(3,3,'category','',2,1),
(4,4,'category','',3,1),
(5,5,'category','',0,0),
(6,6,'post_tag','',0,1),
(7,7,'post_tag','',0,2),
(8,8,'post_format','',0,1);
/*!40101 SET @saved_cs_client     = @@character_set_client */;
/*!40101 SET character_set_client = utf8mb4 */;
CREATE TABLE `blog_termmeta` (
  `meta_id` bigint(20) unsigned NOT NULL AUTO_INCREMENT,
  `term_id` bigint(20) unsigned NOT NULL DEFAULT 0,
  `meta_key` varchar(255) DEFAULT NULL,
  `meta_value` longtext DEFAULT NULL,
  PRIMARY KEY (`meta_id`),
  KEY `term_id` (`term_id`),
  KEY `meta_key` (`meta_key`(191))
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_520_ci;
/*!40101 SET character_set_client = @saved_cs_client */;
/*!40101 SET @saved_cs_client     = @@character_set_client */;
/*!40101 SET character_set_client = utf8mb4 */;
CREATE TABLE `blog_terms` (
  `term_id` bigint(20) unsigned NOT NULL AUTO_INCREMENT,
  `name` varchar(200) NOT NULL DEFAULT '',
  `slug` varchar(200) NOT NULL DEFAULT '',
  `term_group` bigint(10) NOT NULL DEFAULT 0,
  PRIMARY KEY (`term_id`),
  KEY `slug` (`slug`(191)),
  KEY `name` (`name`(191))
) ENGINE=InnoDB AUTO_INCREMENT=9 DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_520_ci;
/*!40101 SET character_set_client = @saved_cs_client */;
INSERT INTO `blog_terms` VALUES
(1,'Uncategorized','uncategorized',0),
(2,'News &amp; Events','news-events',0),
(3,'Zürich local','zurich-local',0),
(4,'Deeper','deeper',0),
(5,'Empty one','empty-one',0),
(6,'ünïcode tag','unicode-tag',0),
(7,'Go','go',0),
(8,'post-format-gallery','post-format-gallery',0);
/*!40101 SET @saved_cs_client     = @@character_set_client */;
/*!40101 SET character_set_client = utf8mb4 */;
CREATE TABLE `blog_usermeta` (
  `umeta_id` bigint(20) unsigned NOT NULL AUTO_INCREMENT,
  `user_id` bigint(20) unsigned NOT NULL DEFAULT 0,
  `meta_key` varchar(255) DEFAULT NULL,
  `meta_value` longtext DEFAULT NULL,
  PRIMARY KEY (`umeta_id`),
  KEY `user_id` (`user_id`),
  KEY `meta_key` (`meta_key`(191))
) ENGINE=InnoDB AUTO_INCREMENT=44 DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_520_ci;
/*!40101 SET character_set_client = @saved_cs_client */;
INSERT INTO `blog_usermeta` VALUES
(1,1,'nickname','admin'),
(2,1,'first_name',''),
(3,1,'last_name',''),
(4,1,'description',''),
(5,1,'rich_editing','true'),
(6,1,'syntax_highlighting','true'),
(7,1,'comment_shortcuts','false'),
(8,1,'admin_color','fresh'),
(9,1,'use_ssl','0'),
(10,1,'show_admin_bar_front','true'),
(11,1,'locale',''),
(12,1,'blog_capabilities','a:1:{s:13:\"administrator\";b:1;}'),
(13,1,'blog_user_level','10'),
(14,1,'dismissed_wp_pointers',''),
(15,1,'show_welcome_panel','1'),
(16,2,'nickname','jane doe'),
(17,2,'first_name',''),
(18,2,'last_name',''),
(19,2,'description',''),
(20,2,'rich_editing','true'),
(21,2,'syntax_highlighting','true'),
(22,2,'comment_shortcuts','false'),
(23,2,'admin_color','fresh'),
(24,2,'use_ssl','0'),
(25,2,'show_admin_bar_front','true'),
(26,2,'locale',''),
(27,2,'blog_capabilities','a:1:{s:6:\"editor\";b:1;}'),
(28,2,'blog_user_level','7'),
(29,2,'dismissed_wp_pointers',''),
(30,3,'nickname','idle'),
(31,3,'first_name',''),
(32,3,'last_name',''),
(33,3,'description',''),
(34,3,'rich_editing','true'),
(35,3,'syntax_highlighting','true'),
(36,3,'comment_shortcuts','false'),
(37,3,'admin_color','fresh'),
(38,3,'use_ssl','0'),
(39,3,'show_admin_bar_front','true'),
(40,3,'locale',''),
(41,3,'blog_capabilities','a:1:{s:6:\"author\";b:1;}'),
(42,3,'blog_user_level','2'),
(43,3,'dismissed_wp_pointers','');
/*!40101 SET @saved_cs_client     = @@character_set_client */;
/*!40101 SET character_set_client = utf8mb4 */;
CREATE TABLE `blog_users` (
  `ID` bigint(20) unsigned NOT NULL AUTO_INCREMENT,
  `user_login` varchar(60) NOT NULL DEFAULT '',
  `user_pass` varchar(255) NOT NULL DEFAULT '',
  `user_nicename` varchar(50) NOT NULL DEFAULT '',
  `user_email` varchar(100) NOT NULL DEFAULT '',
  `user_url` varchar(100) NOT NULL DEFAULT '',
  `user_registered` datetime NOT NULL DEFAULT '0000-00-00 00:00:00',
  `user_activation_key` varchar(255) NOT NULL DEFAULT '',
  `user_status` int(11) NOT NULL DEFAULT 0,
  `display_name` varchar(250) NOT NULL DEFAULT '',
  PRIMARY KEY (`ID`),
  KEY `user_login_key` (`user_login`),
  KEY `user_nicename` (`user_nicename`),
  KEY `user_email` (`user_email`)
) ENGINE=InnoDB AUTO_INCREMENT=4 DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_520_ci;
/*!40101 SET character_set_client = @saved_cs_client */;
INSERT INTO `blog_users` VALUES
(1,'admin','','admin','admin@example.com','http://blog.example.com','2026-11-27 14:45:19','',0,'admin'),
(2,'jane doe','','jane-doe','','','2026-11-27 14:45:20','',0,'jane doe'),
(3,'idle','','idle','','','2026-11-27 14:45:20','',0,'idle');
