package serve

import (
	"context"
	"fmt"
	"strconv"
	"strings"
)

// locateMySQL is Locate on MySQL and MariaDB: the keys and bounds are
// compared as the key column compares them, in its type and collation
// (read from information_schema; for a query, an integer or decimal key
// column's type from the result, and a text one has no collation to
// read: errNoLocator). One query a chunk of keys and bounds.
func (s *SQLSource) locateMySQL(ctx context.Context, uppers, keys []Key) ([]int, error) {
	cast, err := s.mysqlKeyCast(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]int, len(keys))
	const chunk = 20_000 // at most 65,535 parameters a statement
	for k := 0; k < len(keys); k += chunk {
		ks := keys[k:min(k+chunk, len(keys))]
		for u := 0; u < len(uppers); u += chunk {
			if err := s.locateMySQLChunk(ctx, cast, uppers[u:min(u+chunk, len(uppers))], ks, out[k:]); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// locateMySQLChunk adds to out[j] the number of uppers below keys[j].
func (s *SQLSource) locateMySQLChunk(ctx context.Context, cast string, uppers, keys []Key, out []int) error {
	var b strings.Builder
	args := make([]any, 0, len(uppers)+len(keys))
	b.WriteString("SELECT k.j, (SELECT count(*) FROM (")
	for i, u := range uppers {
		if i > 0 {
			b.WriteString(" UNION ALL ")
		}
		b.WriteString("SELECT ? AS b")
		args = append(args, mysqlArg(u))
	}
	b.WriteString(") AS u WHERE " + fmt.Sprintf(cast, "u.b") + " < " + fmt.Sprintf(cast, "k.v") + ") FROM (")
	for j, k := range keys {
		if j > 0 {
			b.WriteString(" UNION ALL ")
		}
		b.WriteString("SELECT ? AS v, " + strconv.Itoa(j) + " AS j")
		args = append(args, mysqlArg(k))
	}
	b.WriteString(") AS k")
	return s.addLocated(ctx, b.String(), args, out[:len(keys)])
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
	if s.q.Table == "" {
		return s.mysqlQueryKeyCast(ctx)
	}
	schema, table, ok := strings.Cut(s.q.Table, ".")
	if !ok {
		schema, table = "", s.q.Table
	}
	var typ, colType string
	var cs, coll *string
	err := s.db.QueryRowContext(ctx, `SELECT DATA_TYPE, COLUMN_TYPE, CHARACTER_SET_NAME, COLLATION_NAME FROM information_schema.COLUMNS
		WHERE TABLE_SCHEMA = COALESCE(NULLIF(?, ''), DATABASE()) AND TABLE_NAME = ? AND COLUMN_NAME = ?`, schema, table, s.q.Key).Scan(&typ, &colType, &cs, &coll)
	if err != nil {
		return "", fmt.Errorf("the type of key column %s of table %s: %w", s.q.Key, s.q.Table, err)
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

// mysqlQueryKeyCast is mysqlKeyCast for a query: its result's key column
// type, when it is a number.
func (s *SQLSource) mysqlQueryKeyCast(ctx context.Context) (string, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT "+s.key+" FROM "+s.from+" LIMIT 0")
	if err != nil {
		return "", err
	}
	defer rows.Close()
	cts, err := rows.ColumnTypes()
	if err != nil || len(cts) != 1 {
		return "", errNoLocator
	}
	typ := strings.ToUpper(cts[0].DatabaseTypeName())
	switch {
	case strings.Contains(typ, "INT") && strings.HasPrefix(typ, "UNSIGNED"):
		return "CAST(%s AS UNSIGNED)", nil
	case strings.Contains(typ, "INT"):
		return "CAST(%s AS SIGNED)", nil
	case typ == "DECIMAL":
		return "CAST(%s AS DECIMAL(65, 10))", nil
	}
	return "", errNoLocator
}
