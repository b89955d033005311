package serve

import (
	"context"
	"fmt"
	"strings"
)

// locateMySQL is Locate on MySQL and MariaDB: the keys and bounds are
// compared as the key column compares them, in its type and collation
// (read from information_schema), so a page holds a key exactly when
// its ORDER BY would put it there. A query's key column has no type to
// read: errNoLocator.
func (s *SQLSource) locateMySQL(ctx context.Context, uppers, keys []Key) ([]int, error) {
	if s.q.Table == "" {
		return nil, errNoLocator
	}
	cast, err := s.mysqlKeyCast(ctx)
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	b.WriteString("SELECT count(*) FROM (")
	args := make([]any, 0, len(uppers)+1)
	for i, u := range uppers {
		if i > 0 {
			b.WriteString(" UNION ALL ")
		}
		b.WriteString("SELECT ? AS b")
		args = append(args, mysqlArg(u))
	}
	b.WriteString(") AS u WHERE " + fmt.Sprintf(cast, "u.b") + " < " + fmt.Sprintf(cast, "?"))
	q := b.String()
	out := make([]int, len(keys))
	for i, k := range keys {
		if err := s.db.QueryRowContext(ctx, q, append(args, mysqlArg(k))...).Scan(&out[i]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// mysqlArg is a key as a parameter: the text form of a key a feed gave
// as bytes.
func mysqlArg(k Key) any {
	if b, ok := k.([]byte); ok {
		return string(b)
	}
	return k
}

// mysqlKeyCast returns the expression (a format with one %s) that turns
// a value into one of the key column's type and collation.
func (s *SQLSource) mysqlKeyCast(ctx context.Context) (string, error) {
	schema, table, ok := strings.Cut(s.q.Table, ".")
	if !ok {
		schema, table = "", s.q.Table
	}
	var typ, colType string
	var cs, coll *string
	err := s.db.QueryRowContext(ctx, `SELECT DATA_TYPE, COLUMN_TYPE, CHARACTER_SET_NAME, COLLATION_NAME FROM information_schema.COLUMNS
		WHERE TABLE_SCHEMA = COALESCE(NULLIF(?, ''), DATABASE()) AND TABLE_NAME = ? AND COLUMN_NAME = ?`, schema, table, s.q.Key).Scan(&typ, &colType, &cs, &coll)
	if err != nil {
		return "", fmt.Errorf("serve: the type of key column %s of table %s: %w", s.q.Key, s.q.Table, err)
	}
	switch strings.ToLower(typ) {
	case "tinyint", "smallint", "mediumint", "int", "integer", "bigint", "year":
		if strings.Contains(strings.ToLower(colType), "unsigned") {
			return "CAST(%s AS UNSIGNED)", nil
		}
		return "CAST(%s AS SIGNED)", nil
	case "decimal", "numeric", "float", "double", "real":
		return "CAST(%s AS DOUBLE)", nil
	case "date", "datetime", "timestamp":
		return "CAST(%s AS DATETIME(6))", nil
	case "binary", "varbinary", "tinyblob", "blob", "mediumblob", "longblob":
		return "CAST(%s AS BINARY)", nil
	}
	if cs == nil || coll == nil {
		return "", errNoLocator
	}
	return "CONVERT(%s USING " + *cs + ") COLLATE " + *coll, nil
}
