-- The same tables as Drupal 10's PostgreSQL driver creates them (its type
-- map: int unsigned is integer with a CHECK, tinyint smallint; indexes
-- named {table}__{index}).
CREATE TABLE /*_*/node_field_data (
  nid integer NOT NULL CHECK (nid >= 0),
  vid integer NOT NULL CHECK (vid >= 0),
  type varchar(32) NOT NULL,
  langcode varchar(12) NOT NULL,
  status smallint NOT NULL,
  uid integer NOT NULL CHECK (uid >= 0),
  title varchar(255) NOT NULL,
  created integer NOT NULL,
  changed integer NOT NULL,
  promote smallint NOT NULL,
  sticky smallint NOT NULL,
  default_langcode smallint NOT NULL,
  revision_translation_affected smallint DEFAULT NULL,
  PRIMARY KEY (nid, langcode)
);
CREATE INDEX /*_*/node_field_data__node__status_type__idx ON /*_*/node_field_data (status, type, nid);
CREATE INDEX /*_*/node_field_data__node_field__changed__idx ON /*_*/node_field_data (changed);

CREATE TABLE /*_*/path_alias (
  id serial CHECK (id >= 0),
  revision_id integer DEFAULT NULL CHECK (revision_id >= 0),
  uuid varchar(128) NOT NULL,
  langcode varchar(12) NOT NULL,
  path varchar(255) DEFAULT NULL,
  alias varchar(255) DEFAULT NULL,
  status smallint NOT NULL,
  PRIMARY KEY (id),
  CONSTRAINT /*_*/path_alias_field__uuid__value__key UNIQUE (uuid),
  CONSTRAINT /*_*/path_alias__revision_id__key UNIQUE (revision_id)
);
CREATE INDEX /*_*/path_alias__path_langcode_id_status__idx ON /*_*/path_alias (path, langcode, id, status);
CREATE INDEX /*_*/path_alias__alias_langcode_id_status__idx ON /*_*/path_alias (alias, langcode, id, status);
