package source

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/rules"
)

type jsonlReader struct {
	o  Options
	lr *lineReader
	// hinted holds the foreign fields already warned about (once each
	// per input).
	hinted map[string]bool
}

// foreignFields are fields other tools write in their JSON entries
// (sitemap.js's SitemapItem, most of all) that the entry record names
// otherwise; each gets a hint naming the field to use.
var foreignFields = []struct{ name, use string }{
	{"url", `"loc"`},
	{"img", `"images": [{"loc": …}]`},
	{"links", `"alternates": [{"hreflang": …, "href": …}]`},
	{"video", `"videos": [{…}]`},
	{"lastmodISO", `"lastmod"`},
	{"changeFreq", `"changefreq"`},
	{"lastMod", `"lastmod"`},
}

// foreign returns the foreign fields b, a JSON object, has at its top
// level; nil (and no work beyond a scan) when it has none.
func foreign(b []byte) []int {
	var found []int
	for i, f := range foreignFields {
		if bytes.Contains(b, []byte(`"`+f.name+`"`)) {
			found = append(found, i)
		}
	}
	if found == nil {
		return nil
	}
	var top map[string]json.RawMessage
	if json.Unmarshal(b, &top) != nil {
		return nil
	}
	keep := found[:0]
	for _, i := range found {
		if _, ok := top[foreignFields[i].name]; ok {
			keep = append(keep, i)
		}
	}
	return keep
}

func newJSONL(br *bufio.Reader, o Options) *jsonlReader {
	return &jsonlReader{o: o, lr: newLineReader(br, o.maxLine())}
}

func (j *jsonlReader) Next() (Record, error) {
	for {
		b, tooLong, err := j.lr.next()
		if err != nil {
			return Record{}, err
		}
		line := j.lr.line
		if tooLong {
			return Record{}, tooLongError(j.o, line)
		}
		b, cut := trimSpace(b)
		if len(b) == 0 {
			continue
		}
		if b[0] != '{' {
			return Record{}, &Error{File: j.o.Name, Line: line, Col: cut + 1, Rule: rules.SRC01,
				Message: fmt.Sprintf("%s is not a JSON object; each line of a JSONL file is one entry record {\"loc\": …}", preview(b))}
		}
		var u sitemap.URL
		if err := json.Unmarshal(b, &u); err != nil {
			var syn *json.SyntaxError
			if errors.As(err, &syn) {
				return Record{}, j.jsonError(err, line, cut)
			}
			// A value that does not fit: read the record field by field,
			// so that one bad field costs that field, not the page.
			var e *Error
			if u, e = j.lenient(b, line, cut); e != nil {
				return Record{}, e
			}
		}
		if fs := foreign(b); fs != nil {
			if err := j.hint(fs, u.Loc == "", line, cut); err != nil {
				return Record{}, err
			}
		}
		// C-04: read changefreq case-insensitively; the encoder checks it.
		if c := sitemap.ChangeFreq(strings.ToLower(string(u.ChangeFreq))); c != u.ChangeFreq && c.Valid() {
			u.ChangeFreq = c
		}
		return Record{URL: u, Line: line}, nil
	}
}

func (j *jsonlReader) jsonError(err error, line, cut int) *Error {
	e := &Error{File: j.o.Name, Line: line, Rule: rules.SRC01}
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		e.Col = cut + int(syn.Offset)
		e.Message = "bad JSON: " + syn.Error()
	case errors.As(err, &typ):
		e.Col = cut + int(typ.Offset)
		field := typ.Field
		if field == "" {
			field = "record"
		}
		e.Message = fmt.Sprintf("field %q is a JSON %s; want %s", field, typ.Value, want(typ.Type.String()))
	case errors.Is(err, sitemap.ErrDate):
		e.Rule = rules.M01
		e.Message = "bad date: " + strings.TrimPrefix(err.Error(), sitemap.ErrDate.Error()+": ")
	default:
		e.Message = "bad record: " + err.Error()
	}
	if e.Col < 0 {
		e.Col = 0
	}
	return e
}

// want says what JSON value a Go type of the model takes.
func want(t string) string {
	t = strings.TrimPrefix(t, "*")
	switch {
	case strings.HasPrefix(t, "[]"):
		return "an array"
	case strings.HasPrefix(t, "float"), strings.HasPrefix(t, "int"):
		return "a number"
	case t == "string", strings.HasSuffix(t, "ChangeFreq"), strings.HasSuffix(t, "Relationship"), strings.HasSuffix(t, "Date"):
		return "a string"
	case t == "bool":
		return "true or false"
	}
	return "an object"
}

// preview quotes b for a message, cut to its first 40 bytes (a line of
// binary data would otherwise fill the terminal).
func preview(b []byte) string {
	const n = 40
	if len(b) > n {
		return fmt.Sprintf("%q…", b[:n])
	}
	return fmt.Sprintf("%q", b)
}

// hint warns, once per field and input, about the foreign fields fs of
// the record at line; a record without loc but with "url" is an error
// that says to rename it.
func (j *jsonlReader) hint(fs []int, noLoc bool, line, cut int) *Error {
	for _, i := range fs {
		f := foreignFields[i]
		if f.name == "url" && noLoc {
			return &Error{File: j.o.Name, Line: line, Col: cut + 1, Rule: rules.X04,
				Message: `the record has no "loc"; its "url" field is not one of the entry record: name it "loc"`}
		}
		if j.hinted[f.name] {
			continue
		}
		if j.hinted == nil {
			j.hinted = make(map[string]bool)
		}
		j.hinted[f.name] = true
		j.o.warn(&Error{File: j.o.Name, Line: line, Col: cut + 1, Rule: rules.SRC04,
			Message: fmt.Sprintf("field %q is not one of the entry record and is ignored (here and on later lines); write it as %s", f.name, f.use)})
	}
	return nil
}
