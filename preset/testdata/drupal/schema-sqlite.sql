-- The same tables as Drupal 10's SQLite driver creates them (its type
-- map: integer columns INTEGER, varchar VARCHAR, serial INTEGER PRIMARY
-- KEY AUTOINCREMENT; indexes named {table}_{index}).
CREATE TABLE /*_*/node_field_data (
  nid INTEGER NOT NULL CHECK (nid >= 0),
  vid INTEGER NOT NULL CHECK (vid >= 0),
  type VARCHAR(32) NOT NULL,
  langcode VARCHAR(12) NOT NULL,
  status INTEGER NOT NULL,
  uid INTEGER NOT NULL CHECK (uid >= 0),
  title VARCHAR(255) NOT NULL,
  created INTEGER NOT NULL,
  changed INTEGER NOT NULL,
  promote INTEGER NOT NULL,
  sticky INTEGER NOT NULL,
  default_langcode INTEGER NOT NULL,
  revision_translation_affected INTEGER DEFAULT NULL,
  PRIMARY KEY (nid, langcode)
);
CREATE INDEX /*_*/node_field_data_node__status_type ON /*_*/node_field_data (status, type, nid);

CREATE TABLE /*_*/path_alias (
  id INTEGER PRIMARY KEY AUTOINCREMENT CHECK (id >= 0),
  revision_id INTEGER NULL DEFAULT NULL CHECK (revision_id >= 0),
  uuid VARCHAR(128) NOT NULL,
  langcode VARCHAR(12) NOT NULL,
  path VARCHAR(255) NULL DEFAULT NULL,
  alias VARCHAR(255) NULL DEFAULT NULL,
  status INTEGER NOT NULL
);
CREATE UNIQUE INDEX /*_*/path_alias_path_alias_field__uuid__value ON /*_*/path_alias (uuid);
CREATE INDEX /*_*/path_alias_path_alias__path_langcode_id_status ON /*_*/path_alias (path, langcode, id, status);
