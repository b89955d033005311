package source

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
)

// fuzzRead reads all of in with the reader newR makes and checks what must
// always hold: no panic, an end, and sane positions (line numbers within
// the input, never going backwards, columns not negative).
func fuzzRead(t *testing.T, in []byte, newR func(io.Reader, Options) Reader, max int) []Record {
	lines := bytes.Count(in, []byte{'\n'}) + 1
	r := newR(bytes.NewReader(in), Options{Name: "f", MaxLineBytes: max, Warn: func(e *Error) {
		if e.Line < 0 || e.Line > lines || e.Col < 0 {
			t.Fatalf("warning at impossible position %d:%d (%d lines)", e.Line, e.Col, lines)
		}
	}})
	var recs []Record
	last := 0
	for i := 0; ; i++ {
		if i > len(in)+2 {
			t.Fatalf("more than %d results from %d bytes", i, len(in))
		}
		rec, err := r.Next()
		if err == io.EOF {
			return recs
		}
		var e *Error
		if errors.As(err, &e) {
			if e.Line < 1 || e.Line > lines || e.Col < 0 || e.Line < last {
				t.Fatalf("error at impossible position %d:%d (%d lines, last %d): %v", e.Line, e.Col, lines, last, e)
			}
			last = e.Line
			continue
		}
		if err != nil {
			if errors.Is(err, ErrFormat) {
				return recs
			}
			t.Fatalf("unexpected fatal error %v", err)
		}
		if rec.Line < 1 || rec.Line > lines || rec.Line < last {
			t.Fatalf("record at impossible line %d (%d lines, last %d)", rec.Line, lines, last)
		}
		last = rec.Line
		recs = append(recs, rec)
	}
}

func FuzzText(f *testing.F) {
	for _, s := range []string{
		"https://a.example/\n", "\ufeff https://a.example/ \r\n\r\n# c\nhttps://b.example/",
		"/relative/path\n\xff\xfe\n", strings.Repeat("x", 300) + "\nhttps://a.example/\n", "\r\r\n\n",
	} {
		f.Add([]byte(s), uint16(0))
		f.Add([]byte(s), uint16(64))
	}
	f.Fuzz(func(t *testing.T, in []byte, max uint16) {
		for _, rec := range fuzzRead(t, in, NewText, int(max)) {
			loc := rec.URL.Loc
			if loc == "" || strings.ContainsAny(loc, "\n") || loc[0] == '#' || strings.TrimSpace(loc) != loc {
				t.Fatalf("text record %q: empty, comment, untrimmed or multi-line", loc)
			}
			if !bytes.Contains(in, []byte(loc)) {
				t.Fatalf("text record %q is not in the input", loc)
			}
		}
	})
}

func FuzzCSV(f *testing.F) {
	for _, s := range []string{
		"loc,lastmod,changefreq,priority\nhttps://a.example/,2026-11-02,weekly,0.8\n",
		"loc,priority\n\"https://a.example/\nx\",high\nhttps://b.example/,1\n",
		"loc\n\"unterminated\n", "Priority,URL,x\n0.5,\"a\"\"b\",c\n", "lastmod\n2026\n", "loc,LOC\n",
		"loc,lastmod\n,2026-02-30\n, 2026-01-01 10:00\n\"a\"b,\n",
	} {
		f.Add([]byte(s), uint16(0))
		f.Add([]byte(s), uint16(24))
	}
	f.Fuzz(func(t *testing.T, in []byte, max uint16) {
		fuzzRead(t, in, NewCSV, int(max))
	})
}

func FuzzJSONL(f *testing.F) {
	for _, s := range []string{
		`{"loc":"https://a.example/","lastmod":"2026-11-02T10:00:00Z","priority":0.8}` + "\n",
		`{"loc":"https://a.example/","images":[{"loc":"https://c.example/a.jpg"}],"news":{"publication":{"name":"N","language":"en"},"title":"t"}}`,
		`{"loc":1}` + "\n" + `{"lastmod":"yesterday"}` + "\n[1]\nnull\n{bad\n",
		`{"loc":"x","videos":[{"duration":"long"}]}`, "\n\n  \n",
		`{"loc":"https://a.example/","priority":"0.5","videos":[{"duration":"600","rating":"4.5"},{"title":1}],"news":{"title":2},"alternates":[{"hreflang":3}]}`,
	} {
		f.Add([]byte(s), uint16(0))
		f.Add([]byte(s), uint16(32))
	}
	f.Fuzz(func(t *testing.T, in []byte, max uint16) {
		fuzzRead(t, in, NewJSONL, int(max))
	})
}

// FuzzNew drives New as generate does: the format from the name or the
// first bytes, gzip and UTF-16 (a BOM) recognised and converted.
func FuzzNew(f *testing.F) {
	for _, s := range []string{
		"https://a.example/\n", "\xff\xfel\x00o\x00c\x00\r\x00\n\x00h\x00", "\xfe\xff\x00{\x00\"", "\xff\xfe\x00\xd8",
		"\x1f\x8b", "loc\nhttps://a.example/\n", `{"loc":"https://a.example/"}`,
	} {
		for n := range uint8(4) {
			f.Add([]byte(s), n)
		}
	}
	f.Fuzz(func(t *testing.T, in []byte, which uint8) {
		name := []string{"in", "in.txt", "in.csv", "in.jsonl"}[which%4]
		r, err := New(bytes.NewReader(in), Options{Name: name, MaxLineBytes: 256, Warn: func(*Error) {}})
		if err != nil {
			return
		}
		for range 100000 {
			_, err := r.Next()
			var e *Error
			if err == io.EOF || err != nil && !errors.As(err, &e) {
				return
			}
		}
		t.Fatal("reader does not end")
	})
}
