package source

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/rules"
)

// The lenient reading of a JSONL entry record whose fields do not all fit
// the model: one bad field or extension block costs that field or block,
// not the page. json.Unmarshal reads a record in one go and stops at the
// first value it cannot take (a date it cannot parse) or leaves one field
// out (a string where a number goes); then the record is read again field
// by field, and each array of images, videos and alternates element by
// element:
//
//   - a number written as a JSON string that holds exactly one number
//     ("priority": "0.5", "duration": "600") is read as that number, with
//     a warning (Error.Fixed);
//   - any other value that does not fit drops its field ("lastmod"), its
//     element ("videos[1]") or its block ("news"), with a warning naming
//     the rule and what was left out (Error.Dropped);
//   - a loc that is not a string, or a record that is not a JSON object,
//     still costs the entry: there is no page without it.

// jsonlFields are the record's top-level fields, in the order they are
// read and warned about.
var jsonlFields = [...]string{"loc", "lastmod", "changefreq", "priority", "images", "videos", "news", "alternates", "content_hash", "source", "title"}

// fieldRule is the rule a bad value of a top-level field breaks.
var fieldRule = map[string]rules.ID{
	"lastmod": rules.M01, "changefreq": rules.C01, "priority": rules.P01, "images": rules.IM01, "videos": rules.V01,
	"news": rules.N01, "alternates": rules.H05,
}

// lenient reads the record b field by field (see the file comment); err is
// what json.Unmarshal said about it. It returns nil when even the lenient
// reading cannot make an entry of b.
func (j *jsonlReader) lenient(b []byte, line, cut int) (sitemap.URL, *Error) {
	var u sitemap.URL
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(b, &obj); err != nil {
		return u, j.jsonError(err, line, cut)
	}
	warn := func(rule rules.ID, msg, dropped string, fixed bool) {
		j.o.warn(&Error{File: j.o.Name, Line: line, Rule: rule, Message: msg, Dropped: dropped, Fixed: fixed})
	}
	for _, name := range jsonlFields {
		raw, ok := obj[name]
		if !ok {
			continue
		}
		var err error
		switch name {
		case "loc":
			if err = json.Unmarshal(raw, &u.Loc); err != nil {
				return u, &Error{File: j.o.Name, Line: line, Rule: rules.X04,
					Message: fmt.Sprintf("field \"loc\" is %s; want a string, the page's absolute URL", jsonKind(raw))}
			}
			continue
		case "lastmod":
			err = decodeInto(raw, &u.LastMod)
		case "changefreq":
			err = decodeInto(raw, &u.ChangeFreq)
		case "priority":
			if err = decodeInto(raw, &u.Priority); err != nil {
				if f, ok := stringNumber(raw, false); ok {
					u.Priority, err = &f, nil
					warn(rules.P01, fmt.Sprintf("priority is the JSON string %s; read as the number %s (write it without quotes)", raw, strconv.FormatFloat(f, 'g', -1, 64)), "", true)
				}
			}
		case "content_hash":
			err = decodeInto(raw, &u.ContentHash)
		case "source":
			err = decodeInto(raw, &u.Source)
		case "title":
			err = decodeInto(raw, &u.Title)
		case "images":
			u.Images, err = lenientList[sitemap.Image](raw, name, rules.IM01, warn)
		case "videos":
			u.Videos, err = lenientList[sitemap.Video](raw, name, rules.V01, warn)
		case "alternates":
			u.Alternates, err = lenientList[sitemap.Alternate](raw, name, rules.H05, warn)
		case "news":
			var n sitemap.News
			if err = lenientValue(raw, &n, name, warn); err == nil && strings.TrimSpace(string(raw)) != "null" {
				u.News = &n
			}
		}
		if err != nil {
			warn(ruleOf(name, err), fmt.Sprintf("%s dropped, the page kept: %s", name, valueError(name, raw, err)), name, false)
		}
	}
	if _, ok := obj["loc"]; !ok {
		// As json.Unmarshal would: the encoder reports the missing loc.
		u.Loc = ""
	}
	return u, nil
}

// decodeInto sets *dst to the JSON value raw, leaving it as it was when
// raw does not fit.
func decodeInto[T any](raw json.RawMessage, dst *T) error {
	var v T
	if err := json.Unmarshal(raw, &v); err != nil {
		return err
	}
	*dst = v
	return nil
}

// lenientList reads a JSON array element by element into a []T: an
// element that does not fit is dropped with a warning; the array itself
// not being an array is the error returned.
func lenientList[T any](raw json.RawMessage, name string, rule rules.ID, warn func(rule rules.ID, msg, dropped string, fixed bool)) ([]T, error) {
	var elems []json.RawMessage
	if err := json.Unmarshal(raw, &elems); err != nil {
		return nil, err
	}
	var out []T
	for i, e := range elems {
		var v T
		at := name + "[" + strconv.Itoa(i) + "]"
		if err := lenientValue(e, &v, at, warn); err != nil {
			warn(ruleOf(name, err), fmt.Sprintf("%s dropped, the page kept: %s", at, valueError(at, e, err)), at, false)
			continue
		}
		out = append(out, v)
	}
	return out, nil
}

// lenientValue reads the JSON object raw into v, reading a number written
// as a string in one of its own fields ("duration": "600") as the number,
// with a warning.
func lenientValue(raw json.RawMessage, v any, at string, warn func(rule rules.ID, msg, dropped string, fixed bool)) error {
	err := json.Unmarshal(raw, v)
	for range 8 { // a few fields may need it; each pass fixes one
		var typ *json.UnmarshalTypeError
		if err == nil || !errors.As(err, &typ) || typ.Value != "string" || !numeric(typ.Type) || strings.Contains(typ.Field, ".") {
			return err
		}
		var obj map[string]json.RawMessage
		if json.Unmarshal(raw, &obj) != nil {
			return err
		}
		f, ok := stringNumber(obj[typ.Field], isInt(typ.Type))
		if !ok {
			return err
		}
		num := strconv.FormatFloat(f, 'g', -1, 64)
		warn(ruleOf(at, err), fmt.Sprintf("%s.%s is the JSON string %s; read as the number %s (write it without quotes)", at, typ.Field, obj[typ.Field], num), "", true)
		obj[typ.Field] = json.RawMessage(num)
		if raw, err = json.Marshal(obj); err != nil {
			return err
		}
		err = json.Unmarshal(raw, v)
	}
	return err
}

// stringNumber reads raw, a JSON string, as the one number it holds:
// exactly a decimal number (an integer when integer is set), no white
// space, no hex, no NaN or infinity.
func stringNumber(raw json.RawMessage, integer bool) (float64, bool) {
	var s string
	if json.Unmarshal(raw, &s) != nil || s == "" {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E') {
			return 0, false
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) || integer && f != math.Trunc(f) {
		return 0, false
	}
	return f, true
}

func numeric(t reflect.Type) bool {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return true
	}
	return false
}

func isInt(t reflect.Type) bool {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t.Kind() != reflect.Float32 && t.Kind() != reflect.Float64
}

// ruleOf is the rule a bad value of the field named (or of an element of
// it: "videos[1]") breaks: M-01 for a date that cannot be read, else the
// field's own.
func ruleOf(name string, err error) rules.ID {
	if errors.Is(err, sitemap.ErrDate) {
		return rules.M01
	}
	if i := strings.IndexAny(name, "[."); i >= 0 {
		name = name[:i]
	}
	if r, ok := fieldRule[name]; ok {
		return r
	}
	return rules.X04
}

// valueError says what is wrong with the value raw of the field name.
func valueError(name string, raw json.RawMessage, err error) string {
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &typ):
		f := typ.Field
		if f == "" {
			f = name
		} else if !strings.HasPrefix(f, name) {
			f = name + "." + f
		}
		return fmt.Sprintf("%s is a JSON %s; want %s", f, typ.Value, want(typ.Type.String()))
	case errors.Is(err, sitemap.ErrDate):
		return "bad date: " + strings.TrimPrefix(err.Error(), sitemap.ErrDate.Error()+": ")
	}
	return fmt.Sprintf("%s is %s: %v", name, jsonKind(raw), err)
}

// jsonKind names the kind of JSON value raw is.
func jsonKind(raw json.RawMessage) string {
	s := strings.TrimSpace(string(raw))
	switch {
	case s == "":
		return "empty"
	case s[0] == '"':
		return "a string"
	case s[0] == '{':
		return "an object"
	case s[0] == '[':
		return "an array"
	case s == "null":
		return "null"
	case s == "true" || s == "false":
		return "true or false"
	}
	return "a number"
}
