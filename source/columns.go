package source

import (
	"fmt"
	"strings"
)

// ColumnMap names the header column of a CSV input that holds an entry
// record field: {Field: "loc", Header: "Address"} reads each row's loc
// from its "Address" column. Header is matched case-insensitively.
type ColumnMap struct {
	Field  string
	Header string
}

// ParseColumns reads a column mapping as a command line gives it:
// comma-separated FIELD=HEADER pairs, such as
//
//	loc=Address,lastmod="Last Modified"
//
// FIELD is loc, lastmod, changefreq, priority, or a crawler export's
// status, indexability or canonical (any case); HEADER is a
// header name as it stands, white space around it trimmed, or quoted
// with '"' (a '"' in it doubled) when it holds a comma or starts with a
// quote. A shell that removed the quotes leaves lastmod=Last Modified,
// which reads the same. An empty s is no mapping.
func ParseColumns(s string) ([]ColumnMap, error) {
	var out []ColumnMap
	rest := strings.TrimSpace(s)
	for rest != "" {
		eq := strings.IndexByte(rest, '=')
		comma := strings.IndexByte(rest, ',')
		if eq < 0 || (comma >= 0 && comma < eq) {
			pair := rest
			if comma >= 0 {
				pair = rest[:comma]
			}
			return nil, fmt.Errorf("%q is not FIELD=HEADER; give pairs like loc=Address,lastmod=\"Last Modified\"", strings.TrimSpace(pair))
		}
		field := strings.TrimSpace(rest[:eq])
		if colIndex(field) < 0 {
			return nil, fmt.Errorf("%q is not a field; map %s (loc=Address)", field, fieldList)
		}
		rest = strings.TrimLeft(rest[eq+1:], " \t")
		var header string
		if strings.HasPrefix(rest, `"`) {
			var b strings.Builder
			i := 1
			closed := false
			for i < len(rest) {
				if rest[i] == '"' {
					if i+1 < len(rest) && rest[i+1] == '"' {
						b.WriteByte('"')
						i += 2
						continue
					}
					closed = true
					i++
					break
				}
				b.WriteByte(rest[i])
				i++
			}
			if !closed {
				return nil, fmt.Errorf("%s=%s: the quoted header name is not closed; add the closing '\"'", field, rest)
			}
			header = b.String()
			rest = strings.TrimLeft(rest[i:], " \t")
			if rest != "" && rest[0] != ',' {
				return nil, fmt.Errorf("%s=\"%s\": text after the closing quote; put a comma between pairs", field, header)
			}
		} else {
			end := strings.IndexByte(rest, ',')
			if end < 0 {
				end = len(rest)
			}
			header = strings.TrimSpace(rest[:end])
			rest = rest[end:]
		}
		if header == "" {
			return nil, fmt.Errorf("%s=: give the name of the header column that holds %s", field, field)
		}
		for _, m := range out {
			if strings.EqualFold(m.Field, field) {
				return nil, fmt.Errorf("%s is mapped twice", strings.ToLower(field))
			}
		}
		out = append(out, ColumnMap{Field: strings.ToLower(field), Header: header})
		rest = strings.TrimSpace(strings.TrimPrefix(rest, ","))
	}
	return out, nil
}
