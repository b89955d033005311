-- The page and page_props tables of MediaWiki 1.39, as written in Debian's mediawiki
-- package, maintenance/sqlite/tables-generated.sql (verbatim).
CREATE TABLE /*_*/page_props (
  pp_page INTEGER UNSIGNED NOT NULL,
  pp_propname BLOB NOT NULL,
  pp_value BLOB NOT NULL,
  pp_sortkey DOUBLE PRECISION DEFAULT NULL,
  PRIMARY KEY(pp_page, pp_propname)
);

CREATE UNIQUE INDEX pp_propname_page ON /*_*/page_props (pp_propname, pp_page);

CREATE UNIQUE INDEX pp_propname_sortkey_page ON /*_*/page_props (pp_propname, pp_sortkey, pp_page);

CREATE TABLE /*_*/page (
  page_id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
  page_namespace INTEGER NOT NULL, page_title BLOB NOT NULL,
  page_is_redirect SMALLINT UNSIGNED DEFAULT 0 NOT NULL,
  page_is_new SMALLINT UNSIGNED DEFAULT 0 NOT NULL,
  page_random DOUBLE PRECISION NOT NULL,
  page_touched BLOB NOT NULL, page_links_updated BLOB DEFAULT NULL,
  page_latest INTEGER UNSIGNED NOT NULL,
  page_len INTEGER UNSIGNED NOT NULL,
  page_content_model BLOB DEFAULT NULL,
  page_lang BLOB DEFAULT NULL
);

CREATE UNIQUE INDEX page_name_title ON /*_*/page (page_namespace, page_title);

CREATE INDEX page_random ON /*_*/page (page_random);

CREATE INDEX page_len ON /*_*/page (page_len);

CREATE INDEX page_redirect_namespace_len ON /*_*/page (
  page_is_redirect, page_namespace,
  page_len
);
