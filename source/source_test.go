package source

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/klauspost/compress/gzip"

	sitemap "github.com/sitemapkit/sitemap"
)

// result is what a test expects from one Next call: a record (Loc, Line)
// or an entry error (its position and a fragment of its message).
type result struct {
	loc  string
	line int
	col  int    // for errors
	err  string // message fragment; "" for a record
}

// drain reads r to the end, turning records and *Errors into results. It
// fails the test on a fatal error unless wantFatal is set, and returns it.
func drain(t *testing.T, r Reader) ([]result, []Record, error) {
	t.Helper()
	var got []result
	var recs []Record
	for i := 0; ; i++ {
		if i > 100000 {
			t.Fatal("reader does not end")
		}
		rec, err := r.Next()
		if err == io.EOF {
			return got, recs, nil
		}
		var e *Error
		if errors.As(err, &e) {
			got = append(got, result{line: e.Line, col: e.Col, err: e.Error()})
			continue
		}
		if err != nil {
			return got, recs, err
		}
		got = append(got, result{loc: rec.URL.Loc, line: rec.Line})
		recs = append(recs, rec)
	}
}

func check(t *testing.T, got, want []result) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("got %d results, want %d:\n got %+v\nwant %+v", len(got), len(want), got, want)
	}
	for i := range want {
		g, w := got[i], want[i]
		if w.err == "" {
			if g.err != "" || g.loc != w.loc || g.line != w.line {
				t.Errorf("result %d = %+v, want record %q on line %d", i, g, w.loc, w.line)
			}
			continue
		}
		if g.err == "" || g.line != w.line || (w.col != 0 && g.col != w.col) || !strings.Contains(g.err, w.err) {
			t.Errorf("result %d = %+v, want error %q at %d:%d", i, g, w.err, w.line, w.col)
		}
	}
}

func TestText(t *testing.T) {
	long := strings.Repeat("x", 200)
	tests := []struct {
		name, in string
		max      int
		want     []result
	}{
		{"T-01 one per line", "https://a.example/\nhttps://a.example/b\n", 0,
			[]result{{loc: "https://a.example/", line: 1}, {loc: "https://a.example/b", line: 2}}},
		{"no final newline", "https://a.example/", 0, []result{{loc: "https://a.example/", line: 1}}},
		{"T-08 CRLF, BOM, trim, blank and comment lines", "\ufeff https://a.example/ \r\n\r\n# comment\n\t\nhttps://a.example/c\r\n", 0,
			[]result{{loc: "https://a.example/", line: 1}, {loc: "https://a.example/c", line: 5}}},
		{"T-08 & stays &", "https://a.example/?a=1&b=2\n", 0, []result{{loc: "https://a.example/?a=1&b=2", line: 1}}},
		{"relative URL is passed on for the encoder (L-01)", "/relative/path\n", 0, []result{{loc: "/relative/path", line: 1}}},
		{"T-04 invalid UTF-8", "https://a.example/\xff\nhttps://b.example/\n", 0,
			[]result{{line: 1, col: 1, err: "not valid UTF-8"}, {loc: "https://b.example/", line: 2}}},
		{"line too long is an error for that line", "https://a.example/\nhttps://" + long + "\nhttps://b.example/\n", 100,
			[]result{{loc: "https://a.example/", line: 1}, {line: 2, col: 1, err: "longer than 100 bytes"}, {loc: "https://b.example/", line: 3}}},
		{"empty", "", 0, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _, err := drain(t, NewText(strings.NewReader(tt.in), Options{Name: "urls.txt", MaxLineBytes: tt.max}))
			if err != nil {
				t.Fatal(err)
			}
			check(t, got, tt.want)
		})
	}
}

// A 10 MB line, longer than the buffer and the cap, costs that line only.
func TestTextHugeLine(t *testing.T) {
	in := "https://a.example/\n" + strings.Repeat("y", 10<<20) + "\nhttps://b.example/\n" + strings.Repeat("z", 3<<20)
	got, _, err := drain(t, NewText(strings.NewReader(in), Options{Name: "big.txt"}))
	if err != nil {
		t.Fatal(err)
	}
	check(t, got, []result{{loc: "https://a.example/", line: 1}, {line: 2, err: "longer than"},
		{loc: "https://b.example/", line: 3}, {line: 4, err: "longer than"}})
	// A line longer than the bufio buffer but under the cap is read whole.
	loc := "https://a.example/" + strings.Repeat("p", 200<<10)
	got, _, err = drain(t, NewText(strings.NewReader(loc+"\r\nhttps://b.example/"), Options{}))
	if err != nil {
		t.Fatal(err)
	}
	check(t, got, []result{{loc: loc, line: 1}, {loc: "https://b.example/", line: 2}})
}

func TestCSV(t *testing.T) {
	tests := []struct {
		name, in string
		want     []result
		warn     string
	}{
		{"header and rows", "loc,lastmod,changefreq,priority\nhttps://a.example/,2026-11-02,weekly,0.8\nhttps://a.example/b,,,\n",
			[]result{{loc: "https://a.example/", line: 2}, {loc: "https://a.example/b", line: 3}}, ""},
		{"columns in any order, case-insensitive, url alias", "Priority,URL\n0.5,https://a.example/\n",
			[]result{{loc: "https://a.example/", line: 2}}, ""},
		{"unknown columns warned once", "loc,tags,notes\nhttps://a.example/,A,x\nhttps://a.example/b,B,y\n",
			[]result{{loc: "https://a.example/", line: 2}, {loc: "https://a.example/b", line: 3}}, `ignoring column(s) "tags", "notes"`},
		{"RFC 4180 quotes, escaped quotes and commas", "loc,lastmod\n\"https://a.example/?q=a,b\",\"2026-01-02\"\n\"https://a.example/\"\"x\"\"\",\n",
			[]result{{loc: "https://a.example/?q=a,b", line: 2}, {loc: `https://a.example/"x"`, line: 3}}, ""},
		{"quoted line break: the record keeps its first line, errors their own", "loc,priority\n\"https://a.example/\nx\",high\nhttps://b.example/,1\n",
			[]result{{loc: "https://a.example/\nx", line: 2}, {loc: "https://b.example/", line: 4}}, `urls.csv:3:4: priority dropped, the page kept: "high" is not a number`},
		{"M-01 bad lastmod with position", "loc,lastmod\nhttps://a.example/,2026-02-30\nhttps://b.example/,2026-02-28\n",
			[]result{{loc: "https://a.example/", line: 2}, {loc: "https://b.example/", line: 3}}, "urls.csv:2:20: lastmod dropped, the page kept: lastmod is not a W3C Datetime"},
		{"lenient lastmod kept with a warning", "loc,lastmod\nhttps://a.example/,2026-02-03 10:00:00\n",
			[]result{{loc: "https://a.example/", line: 2}}, "a space between date and time"},
		{"P-01 bad priority", "loc,priority\nhttps://a.example/,NaN\n",
			[]result{{loc: "https://a.example/", line: 2}}, `urls.csv:2:20: priority dropped, the page kept: "NaN" is not a number`},
		{"unterminated quote at end", "loc\n\"https://a.example/\n",
			[]result{{line: 2, col: 1, err: "not closed"}}, ""},
		{"blank lines skipped, CRLF, BOM", "\ufeffloc\r\n\r\nhttps://a.example/\r\n",
			[]result{{loc: "https://a.example/", line: 3}}, ""},
		{"empty file", "", nil, ""},
		{"semicolon separator from the header row", "loc;priority\n\"https://a.example/?a=1;b=2\";0.5\nhttps://b.example/;x\n",
			[]result{{loc: "https://a.example/?a=1;b=2", line: 2}, {loc: "https://b.example/", line: 3}}, `urls.csv:3:20: priority dropped, the page kept: "x" is not a number`},
		{"tab separator", "loc\tlastmod\nhttps://a.example/\t2026-01-01\n",
			[]result{{loc: "https://a.example/", line: 2}}, ""},
		{"short rows leave fields absent, long rows ignore extras", "loc,lastmod,priority\nhttps://a.example/\nhttps://b.example/,2026-01-01,0.1,extra\n",
			[]result{{loc: "https://a.example/", line: 2}, {loc: "https://b.example/", line: 3}}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var warns []string
			o := Options{Name: "urls.csv", Warn: func(e *Error) { warns = append(warns, e.Error()) }}
			got, _, err := drain(t, NewCSV(strings.NewReader(tt.in), o))
			if err != nil {
				t.Fatal(err)
			}
			check(t, got, tt.want)
			if tt.warn != "" && (len(warns) != 1 || !strings.Contains(warns[0], tt.warn)) {
				t.Errorf("warnings %q, want one containing %q", warns, tt.warn)
			}
			if tt.warn == "" && len(warns) > 0 {
				t.Errorf("unexpected warnings %q", warns)
			}
		})
	}
}

func TestCSVValues(t *testing.T) {
	in := "loc,lastmod,changefreq,priority\nhttps://a.example/,2026-11-02T10:00:00+01:00,Weekly,0.8\n"
	_, recs, err := drain(t, NewCSV(strings.NewReader(in), Options{}))
	if err != nil || len(recs) != 1 {
		t.Fatalf("recs %v, err %v", recs, err)
	}
	u := recs[0].URL
	if u.LastMod.String() != "2026-11-02T10:00:00+01:00" || u.ChangeFreq != sitemap.Weekly || u.Priority == nil || *u.Priority != 0.8 {
		t.Errorf("got %+v (C-04 case-insensitive changefreq, M-01 lastmod kept as written)", u)
	}
}

func TestCSVBadHeader(t *testing.T) {
	for _, in := range []string{"lastmod,priority\n2026-01-01,0.5\n", "loc,LOC\nhttps://a.example/,x\n"} {
		_, _, err := drain(t, NewCSV(strings.NewReader(in), Options{Name: "h.csv"}))
		var e *Error
		if err == nil || errors.As(err, &e) || !errors.Is(err, ErrFormat) || !strings.HasPrefix(err.Error(), "h.csv:1:") {
			t.Errorf("%q: err %v, want a fatal ErrFormat error at h.csv:1", in, err)
		}
	}
}

func TestJSONL(t *testing.T) {
	tests := []struct {
		name, in string
		want     []result
	}{
		{"records, blank lines, unknown and source fields ignored",
			`{"loc":"https://a.example/","lastmod":"2026-11-02T10:00:00Z","priority":0.8}` + "\n\n" +
				`{"loc":"https://a.example/b","source":"https://x.example/s.xml","whatever":[1,2]}` + "\r\n",
			[]result{{loc: "https://a.example/", line: 1}, {loc: "https://a.example/b", line: 3}}},
		{"bad JSON with column", `{"loc":"https://a.example/",}` + "\n" + `{"loc":"https://b.example/"}`,
			[]result{{line: 1, col: 29, err: "bad JSON"}, {loc: "https://b.example/", line: 2}}},
		{"wrong type drops the field, names it", `  {"loc":"https://a.example/","priority":"high"}`,
			[]result{{loc: "https://a.example/", line: 1}}},
		{"M-01 bad date drops lastmod", `{"loc":"https://a.example/","lastmod":"yesterday"}`,
			[]result{{loc: "https://a.example/", line: 1}}},
		{"loc not a string costs the entry", `{"loc":5,"priority":0.5}`,
			[]result{{line: 1, err: `field "loc" is a number; want a string`}}},
		{"not an object", "[\"https://a.example/\"]\nnull\n",
			[]result{{line: 1, col: 1, err: "not a JSON object"}, {line: 2, col: 1, err: "not a JSON object"}}},
		{"trailing data", `{"loc":"https://a.example/"} x`, []result{{line: 1, err: "bad JSON"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _, err := drain(t, NewJSONL(strings.NewReader(tt.in), Options{Name: "urls.jsonl"}))
			if err != nil {
				t.Fatal(err)
			}
			check(t, got, tt.want)
		})
	}
}

// The JSONL record of docs/CONVENTIONS.md carries every extension.
func TestJSONLExtensions(t *testing.T) {
	in := `{"loc": "https://www.example.com/a?x=1&y=2", "lastmod": "2026-11-02T10:00:00Z", "changefreq": "WEEKLY", "priority": 0.8,` +
		` "images": [{"loc": "https://cdn.example.com/a.jpg"}],` +
		` "videos": [{"thumbnail_loc": "https://cdn.example.com/t.jpg", "title": "T", "description": "D", "content_loc": "https://cdn.example.com/v.mp4", "duration": 600, "publication_date": "2026-11-01", "family_friendly": true, "tags": ["a","b"]}],` +
		` "news": {"publication": {"name": "The Daily", "language": "en"}, "publication_date": "2026-11-02T08:00:00Z", "title": "N"},` +
		` "alternates": [{"hreflang": "de", "href": "https://www.example.com/de/a"}], "source": "https://www.example.com/sitemap-3.xml.gz"}`
	_, recs, err := drain(t, NewJSONL(strings.NewReader(in), Options{}))
	if err != nil || len(recs) != 1 {
		t.Fatalf("recs %v err %v", recs, err)
	}
	u := recs[0].URL
	if u.Loc != "https://www.example.com/a?x=1&y=2" || u.ChangeFreq != sitemap.Weekly || len(u.Images) != 1 ||
		len(u.Videos) != 1 || *u.Videos[0].Duration != 600 || len(u.Videos[0].Tags) != 2 ||
		u.News == nil || u.News.Publication.Name != "The Daily" || u.News.PublicationDate.String() != "2026-11-02T08:00:00Z" ||
		len(u.Alternates) != 1 || u.Alternates[0].Hreflang != "de" {
		t.Errorf("decoded %+v", u)
	}
}

func TestNewFormatAndGzip(t *testing.T) {
	gz := func(s string) string {
		var b bytes.Buffer
		w := gzip.NewWriter(&b)
		w.Write([]byte(s))
		w.Close()
		return b.String()
	}
	tests := []struct {
		name, in string
		f        Format
		want     string
	}{
		{"urls.txt", "https://a.example/\n", FormatAuto, "https://a.example/"},
		{"urls.CSV", "loc\nhttps://a.example/\n", FormatAuto, "https://a.example/"},
		{"urls.ndjson", `{"loc":"https://a.example/"}`, FormatAuto, "https://a.example/"},
		{"urls.jsonl.gz", gz(`{"loc":"https://a.example/"}`), FormatAuto, "https://a.example/"},
		{"urls.txt.gz", gz("https://a.example/\n"), FormatAuto, "https://a.example/"},
		{"-", `  {"loc":"https://a.example/"}`, FormatAuto, "https://a.example/"},
		{"-", "loc,lastmod\nhttps://a.example/,\n", FormatAuto, "https://a.example/"},
		{"-", gz("https://a.example/\n"), FormatAuto, "https://a.example/"},
		{"urls.list", "loc\nhttps://a.example/\n", FormatCSV, "https://a.example/"},
	}
	for _, tt := range tests {
		r, err := New(strings.NewReader(tt.in), Options{Name: tt.name, Format: tt.f})
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		rec, err := r.Next()
		if err != nil || rec.URL.Loc != tt.want {
			t.Errorf("%s: got %q, %v; want %q", tt.name, rec.URL.Loc, err, tt.want)
		}
	}
	for in, want := range map[string]Format{"txt": FormatText, "TEXT": FormatText, "csv": FormatCSV, "ndjson": FormatJSONL, "": FormatAuto} {
		if f, err := ParseFormat(in); err != nil || f != want {
			t.Errorf("ParseFormat(%q) = %v, %v", in, f, err)
		}
	}
	if _, err := ParseFormat("xml"); err == nil {
		t.Error("ParseFormat(xml): no error")
	}
}

func TestErrorString(t *testing.T) {
	for _, tt := range []struct {
		e    Error
		want string
	}{
		{Error{File: "urls.txt", Line: 3, Message: "m"}, "urls.txt:3: m"},
		{Error{File: "u.csv", Line: 3, Col: 7, Rule: "P-01", Message: "m"}, "u.csv:3:7: m (P-01)"},
		{Error{File: "u.csv", Line: 3, Rule: "M-01", Message: "m (M-01)"}, "u.csv:3: m (M-01)"},
		{Error{Message: "m"}, "m"},
	} {
		if got := tt.e.Error(); got != tt.want {
			t.Errorf("%+v: %q, want %q", tt.e, got, tt.want)
		}
	}
}

// errReader fails after its data: an I/O error ends the stream as a fatal
// error, never as an *Error.
type errReader struct{ data string }

func (r *errReader) Read(p []byte) (int, error) {
	if r.data == "" {
		return 0, errors.New("disk on fire")
	}
	n := copy(p, r.data)
	r.data = r.data[n:]
	return n, nil
}

func TestIOError(t *testing.T) {
	for _, f := range []Format{FormatText, FormatCSV, FormatJSONL} {
		r, err := New(&errReader{"loc\n"}, Options{Format: f})
		if err != nil {
			t.Fatal(err)
		}
		_, _, err = drain(t, r)
		var e *Error
		if err == nil || errors.As(err, &e) || !strings.Contains(err.Error(), "disk on fire") {
			t.Errorf("%v: err %v, want the I/O error", f, err)
		}
	}
}

// TestInvalidUTF8Preview: a line that is not UTF-8 (a binary file given as
// text or CSV) is quoted in its message only in part, not as kilobytes of
// escapes.
func TestInvalidUTF8Preview(t *testing.T) {
	bin := "\x7fELF\x02\x01" + strings.Repeat("\xfe\xff", 3000) // no NUL: not refused as binary
	for _, tc := range []struct{ format, in string }{
		{"text", bin + "\nhttps://a.example/\n"},
		{"csv", "loc,lastmod\n" + bin + ",2026-01-01\n"},
	} {
		f, err := ParseFormat(tc.format)
		if err != nil {
			t.Fatal(err)
		}
		r, err := New(strings.NewReader(tc.in), Options{Name: "in", Format: f})
		if err != nil {
			t.Fatal(err)
		}
		got, _, err := drain(t, r)
		if err != nil {
			t.Fatalf("%s: %v", tc.format, err)
		}
		if len(got) == 0 || !strings.Contains(got[0].err, "not valid UTF-8") {
			t.Fatalf("%s: got %+v, want a UTF-8 error first", tc.format, got)
		}
		if msg := got[0].err; len(msg) > 300 || !strings.Contains(msg, `"\x7fELF`) || !strings.Contains(msg, "…") {
			t.Errorf("%s: message of %d bytes, want the value's start and an ellipsis in under 300:\n%.400s", tc.format, len(msg), msg)
		}
	}
}

// TestNotEntries: binary data, or XML read as text (a sitemap given to
// generate), is refused as a whole (ErrFormat) instead of line by line.
func TestNotEntries(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
	}{
		{"urls.txt", "\x7fELF\x02\x01\x01\x00\x00", "binary data (a NUL byte at byte 8)"},
		{"urls.jsonl", "{\"loc\":\"x\x00\"}\n", "binary data"},
		{"sitemap.txt", "\ufeff\n  <?xml version=\"1.0\"?>\n<urlset>\n", "XML (a sitemap?), not a list of URLs"},
		{"<stdin>", "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">", "XML (a sitemap?)"},
	} {
		_, err := New(strings.NewReader(tc.in), Options{Name: tc.name})
		if !errors.Is(err, ErrFormat) || !strings.HasPrefix(err.Error(), tc.name+": ") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %q: %v; want ErrFormat saying %q", tc.name, tc.in, err, tc.want)
		}
	}
	// A text line that merely contains '<' is an entry (its loc is then
	// reported, L-07), and a gzip of text is still text.
	var zb bytes.Buffer
	zw := gzip.NewWriter(&zb)
	zw.Write([]byte("https://www.example.com/\n"))
	zw.Close()
	for _, in := range []string{"https://www.example.com/a<b\n", zb.String()} {
		if _, err := New(strings.NewReader(in), Options{Name: "urls.txt"}); err != nil {
			t.Errorf("%q: %v", in, err)
		}
	}
}
