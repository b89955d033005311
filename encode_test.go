package sitemap

import (
	"bytes"
	"errors"
	"flag"
	"io"
	"math/rand/v2"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sitemapkit/sitemap/internal/xmllint"
)

var update = flag.Bool("update", false, "rewrite testdata/golden/*.xml from the encoder's output")

func mustDate(t testing.TB, s string) Date {
	t.Helper()
	d, err := ParseDate(s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// encodeAll encodes urls (or index entries) with o through an Encoder and
// returns the document.
func encodeAll(t testing.TB, o EncoderOptions, urls []URL, index []IndexEntry) []byte {
	t.Helper()
	var buf bytes.Buffer
	e := NewEncoder(&buf, o)
	for i := range urls {
		if err := e.Encode(&urls[i]); err != nil {
			t.Fatalf("Encode(%s): %v", urls[i].Loc, err)
		}
	}
	for i := range index {
		if err := e.EncodeIndexEntry(&index[i]); err != nil {
			t.Fatalf("EncodeIndexEntry(%s): %v", index[i].Loc, err)
		}
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	if e.Written() != int64(buf.Len()) {
		t.Errorf("Written() = %d, but %d bytes reached the writer (S-07)", e.Written(), buf.Len())
	}
	if e.Count() != len(urls)+len(index) {
		t.Errorf("Count() = %d, want %d", e.Count(), len(urls)+len(index))
	}
	return buf.Bytes()
}

// fullVideo has every non-deprecated video field (V-03).
func fullVideo() Video {
	return Video{
		ThumbnailLoc:         "https://www.example.com/thumbs/123.jpg",
		Title:                "Grilling steaks for summer",
		Description:          "Alkis shows you how to get perfectly done steaks every time & <more>",
		ContentLoc:           "https://streamserver.example.com/video123.mp4",
		PlayerLoc:            "https://www.example.com/videoplayer.php?video=123&autoplay=1",
		Duration:             Int(600),
		ExpirationDate:       Date{Time: time.Date(2021, 11, 5, 19, 20, 30, 0, time.FixedZone("", 8*3600)), Precision: PrecisionSecond},
		Rating:               Float64(4.2),
		ViewCount:            Int64(12345),
		PublicationDate:      Date{Time: time.Date(2007, 11, 5, 0, 0, 0, 0, time.UTC), Precision: PrecisionDay},
		Tags:                 []string{"steak", "meat", "summer"},
		FamilyFriendly:       Bool(true),
		Restriction:          &Restriction{Relationship: Allow, Countries: "IE GB US CA"},
		RequiresSubscription: Bool(false),
		Uploader:             &Uploader{Name: "GrillyMcGrillerson", Info: "https://www.example.com/users/grillymcgrillerson"},
		Platform:             &Platform{Relationship: Deny, Platforms: "mobile tv"},
		Live:                 Bool(false),
	}
}

func goldenCases(t testing.TB) []struct {
	name, schema string
	o            EncoderOptions
	urls         []URL
	index        []IndexEntry
} {
	day := mustDate(t, "2026-11-02")
	sec := mustDate(t, "2026-11-02T10:00:00+01:00")
	frac := mustDate(t, "2026-11-02T10:00:00.250Z")
	minute := mustDate(t, "2026-11-02T10:30-05:00")
	return []struct {
		name, schema string
		o            EncoderOptions
		urls         []URL
		index        []IndexEntry
	}{
		{name: "plain", schema: xmllint.Sitemap, o: EncoderOptions{}, urls: []URL{
			{Loc: "https://www.example.com/"},
			{Loc: "https://www.example.com/a?x=1&y=2", LastMod: day},
			{Loc: "https://www.example.com/b", LastMod: sec, ChangeFreq: Weekly, Priority: Float64(0.8)},
			{Loc: "https://www.example.com/c", LastMod: frac, ChangeFreq: Never, Priority: Float64(0)},
			{Loc: "https://www.example.com/d", LastMod: minute, Priority: Float64(1)},
			{Loc: "https://www.example.com/%C3%BCmlat.php?q=it's&name=%22x%22", Priority: Float64(0.25)},
		}},
		{name: "extensions", schema: xmllint.All, o: EncoderOptions{Extensions: ExtAll}, urls: []URL{
			{
				Loc:     "https://www.example.com/english/page.html",
				LastMod: day,
				Alternates: []Alternate{
					{Hreflang: "de", Href: "https://www.example.de/deutsch/page.html"},
					{Hreflang: "en", Href: "https://www.example.com/english/page.html"},
					{Hreflang: "zh-Hant-TW", Href: "https://www.example.com/zh-tw/page.html"},
					{Hreflang: "es-419", Href: "https://www.example.com/es/page.html"},
					{Hreflang: "x-default", Href: "https://www.example.com/page.html"},
				},
				Images: []Image{{Loc: "https://example.com/image.jpg"}, {Loc: "https://cdn.example.com/a&b.png"}},
				Videos: []Video{fullVideo(), {
					ThumbnailLoc: "https://www.example.com/thumbs/2.jpg", Title: "Minimal", Description: "Player only",
					PlayerLoc: "https://www.example.com/player?v=2",
				}},
				News: &News{
					Publication:     Publication{Name: "The Example Times", Language: "en"},
					PublicationDate: mustDate(t, "2008-12-23T08:00:00Z"),
					Title:           "Companies A, B in Merger Talks",
				},
			},
			{Loc: "https://www.example.com/only-image", Images: []Image{{Loc: "https://www.example.com/x.jpg",
				Caption: "dropped without Legacy (IM-04)"}}},
		}},
		{name: "legacy", schema: xmllint.All, o: EncoderOptions{Extensions: ExtImage | ExtVideo | ExtNews, Legacy: true}, urls: []URL{{
			Loc: "https://www.example.com/legacy",
			Images: []Image{{Loc: "https://www.example.com/x.jpg", Caption: "A caption", GeoLocation: "Limerick, Ireland",
				Title: "A title", License: "https://www.example.com/license"}},
			Videos: []Video{func() Video {
				v := fullVideo()
				v.Category = "Grilling"
				v.GalleryLoc = "https://www.example.com/gallery"
				v.Prices = []VideoPrice{{Value: "1.99", Currency: "EUR", Type: "rent", Resolution: "hd"}, {Value: "4.99", Currency: "EUR"}}
				v.PlayerAllowEmbed = "yes"
				v.PlayerAutoplay = "ap=1"
				return v
			}()},
			News: &News{
				Publication: Publication{Name: "The Example Times", Language: "zh-cn"}, Access: "Subscription",
				Genres: "PressRelease, Blog", PublicationDate: day, Title: "Title", Keywords: "business, merger",
				StockTickers: "NASDAQ:A, NASDAQ:B",
			},
		}}},
		{name: "index", schema: xmllint.SiteIndex, o: EncoderOptions{Index: true}, index: []IndexEntry{
			{Loc: "https://www.example.com/sitemap-1.xml.gz", LastMod: mustDate(t, "2004-10-01T18:23:17+00:00")},
			{Loc: "https://www.example.com/sitemap-2.xml.gz", LastMod: day},
			{Loc: "https://www.example.com/sitemap-3.xml?a=1&b=2"},
		}},
		{name: "stylesheet", schema: xmllint.All, o: EncoderOptions{Extensions: ExtImage, Stylesheet: "/sitemap.xsl?v=1&x=2", SchemaLocation: true},
			urls: []URL{{Loc: "https://www.example.com/", Images: []Image{{Loc: "https://www.example.com/i.png"}}}}},
		{name: "index-schemalocation", schema: xmllint.SiteIndex, o: EncoderOptions{Index: true, SchemaLocation: true, Stylesheet: "https://www.example.com/index.xsl"},
			index: []IndexEntry{{Loc: "https://www.example.com/sitemap-1.xml"}}},
		{name: "escaping", schema: xmllint.All, o: EncoderOptions{Extensions: ExtVideo | ExtNews}, urls: []URL{{
			Loc: "https://www.example.com/q?a=1&b='2'&c=(3)",
			Videos: []Video{{ThumbnailLoc: "https://www.example.com/t.jpg?a=1&b=2",
				Title:       `Tom & Jerry <live> "quoted" 'single' ümlaut`,
				Description: "line one\r\nline two\ttabbed ]]> end",
				ContentLoc:  "https://www.example.com/v.mp4",
				Tags:        []string{"<tag>", "a&b"},
				Uploader:    &Uploader{Name: "Zoë & co", Info: "https://www.example.com/u?a=1&b='2'"}}},
			News: &News{Publication: Publication{Name: "Süddeutsche <Zeitung>", Language: "de"},
				PublicationDate: day, Title: "Grüße & \"Zitate\""},
		}}},
	}
}

// Golden files: the encoder's exact bytes for every feature, each file
// validated by xmllint against the XSD (X-06, V-03, N-08, IM-01, EX-05,
// I-08). Run with -update to rewrite them after a deliberate
// change.
func TestGolden(t *testing.T) {
	schemas := map[string][]string{}
	for _, tc := range goldenCases(t) {
		got := encodeAll(t, tc.o, tc.urls, tc.index)
		file := filepath.Join("testdata", "golden", tc.name+".xml")
		if *update {
			if err := os.WriteFile(file, got, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(file)
		if err != nil {
			t.Fatalf("%v (run go test -run TestGolden -update to create it)", err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: output differs from %s (run with -update after a deliberate change)\n got:\n%s\nwant:\n%s", tc.name, file, got, want)
		}
		if !bytes.HasPrefix(got, []byte(`<?xml version="1.0" encoding="UTF-8"?>`+"\n")) {
			t.Errorf("%s: does not start with the XML declaration (X-09)", tc.name)
		}
		schemas[tc.schema] = append(schemas[tc.schema], file)
	}
	for schema, fs := range schemas {
		xmllint.ValidateFiles(t, schema, fs...)
	}
}

// EX-05: only the namespaces asked for are declared; an entry needing an
// undeclared one is refused, and nothing is written for it.
func TestExtensionsDeclared(t *testing.T) {
	u := URL{Loc: "https://www.example.com/", Images: []Image{{Loc: "https://www.example.com/i.jpg"}}}
	if got := Extensions(&u); got != ExtImage {
		t.Errorf("Extensions = %v, want ExtImage", got)
	}
	u2 := URL{Loc: "https://www.example.com/", News: &News{}, Alternates: []Alternate{{}}, Videos: []Video{{}}}
	if got := Extensions(&u2); got != ExtNews|ExtXHTML|ExtVideo {
		t.Errorf("Extensions = %v", got)
	}
	hdr := string(EncoderOptions{Extensions: ExtImage}.AppendHeader(nil))
	if !strings.Contains(hdr, `xmlns:image="`+NamespaceImage+`"`) || strings.Contains(hdr, "xmlns:video") ||
		strings.Contains(hdr, "xmlns:news") || strings.Contains(hdr, "xmlns:xhtml") {
		t.Errorf("header declares the wrong namespaces: %s", hdr)
	}
	if strings.Contains(string(EncoderOptions{}.AppendHeader(nil)), "xmlns:") {
		t.Error("plain header declares extension namespaces")
	}
	var buf bytes.Buffer
	e := NewEncoder(&buf, EncoderOptions{})
	err := e.Encode(&u)
	var ee *EntryError
	if !errors.As(err, &ee) || ee.Rule != "EX-05" || ee.Field != "images" {
		t.Fatalf("Encode of an image entry without ExtImage: %v", err)
	}
	if e.Written() != 0 || e.Count() != 0 {
		t.Errorf("a refused entry changed the counts: Written %d, Count %d", e.Written(), e.Count())
	}
}

// S-07: AppendHeader + AppendURL... + Trailer are the document, byte for
// byte, and their lengths are what Written reports.
func TestByteCounts(t *testing.T) {
	for _, tc := range goldenCases(t) {
		if tc.o.Index {
			continue
		}
		doc := tc.o.AppendHeader(nil)
		var e Encoder
		_ = e
		var buf bytes.Buffer
		enc := NewEncoder(&buf, tc.o)
		for i := range tc.urls {
			before := len(doc)
			var err error
			doc, err = tc.o.AppendURL(doc, &tc.urls[i])
			if err != nil {
				t.Fatal(err)
			}
			w0 := enc.Written()
			if err := enc.Encode(&tc.urls[i]); err != nil {
				t.Fatal(err)
			}
			grew := enc.Written() - w0
			if i == 0 {
				grew -= int64(len(tc.o.AppendHeader(nil)))
			}
			if grew != int64(len(doc)-before) {
				t.Errorf("%s: entry %d grew Written by %d, AppendURL returned %d bytes", tc.name, i, grew, len(doc)-before)
			}
		}
		doc = append(doc, tc.o.Trailer()...)
		if err := enc.Close(); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(doc, buf.Bytes()) {
			t.Errorf("%s: AppendHeader+AppendURL+Trailer differs from the Encoder's output", tc.name)
		}
		if enc.Written() != int64(len(doc)) {
			t.Errorf("%s: Written %d, document %d bytes", tc.name, enc.Written(), len(doc))
		}
	}
	if n := len(EncoderOptions{}.Trailer()); n != 10 {
		t.Errorf("urlset trailer is %d bytes, S-07 says 10", n)
	}
}

// AppendURL leaves dst unchanged on error and does not allocate for a
// plain entry when dst has room.
func TestAppendURLNoAlloc(t *testing.T) {
	o := EncoderOptions{}
	u := URL{Loc: "https://www.example.com/products/widget-123?color=blue&size=m", LastMod: mustDate(t, "2026-11-02T10:00:00+01:00")}
	dst := make([]byte, 0, 1024)
	allocs := testing.AllocsPerRun(100, func() {
		var err error
		if _, err = o.AppendURL(dst[:0], &u); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("AppendURL allocates %.1f times per plain entry, want 0", allocs)
	}
	scope, _ := url.Parse("https://www.example.com/sitemap.xml")
	o.Scope = scope
	allocs = testing.AllocsPerRun(100, func() { o.AppendURL(dst[:0], &u) })
	if allocs != 0 {
		t.Errorf("AppendURL with Scope allocates %.1f times, want 0", allocs)
	}
	bad := URL{Loc: "/relative"}
	out, err := o.AppendURL([]byte("kept"), &bad)
	if err == nil || string(out) != "kept" {
		t.Errorf("AppendURL(bad) = %q, %v; want dst unchanged and an error", out, err)
	}
}

// M-08: lastmod is written YYYY-MM-DD or YYYY-MM-DDThh:mm:ss[.f](Z|±hh:mm);
// minute precision gets its seconds (":00" for a parsed hh:mm); zones the TZD cannot express are
// written in UTC (same instant). For day and second precision the text is
// Date.String's.
func TestAppendDate(t *testing.T) {
	lmt := time.FixedZone("LMT", 17*60+30) // +00:17:30: not whole minutes, so written in UTC
	odd := time.FixedZone("odd", 19*60+32) // +00:19:32 (Amsterdam LMT)
	far := time.FixedZone("far", 15*3600)  // beyond ±14:00 (D-03)
	tests := []struct {
		d    Date
		want string
	}{
		{DayOf(time.Date(2026, 1, 2, 23, 0, 0, 0, time.UTC)), "2026-01-02"},
		{Date{Time: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), Precision: PrecisionSecond}, "2026-01-02T03:04:05Z"},
		{Date{Time: time.Date(2026, 1, 2, 3, 4, 5, 120000000, time.FixedZone("", -(9*3600+30*60))), Precision: PrecisionSecond, FracDigits: 3}, "2026-01-02T03:04:05.120-09:30"},
		{Date{Time: time.Date(2026, 1, 2, 3, 4, 5, 123456789, time.UTC), Precision: PrecisionSecond, FracDigits: 12}, "2026-01-02T03:04:05.123456789Z"},
		{Date{Time: time.Date(2026, 1, 2, 3, 4, 0, 0, time.FixedZone("", 3600)), Precision: PrecisionMinute}, "2026-01-02T03:04:00+01:00"},
		{Date{Time: time.Date(2026, 1, 2, 3, 4, 0, 0, lmt), Precision: PrecisionMinute}, "2026-01-02T02:46:30Z"},
		{Date{Time: time.Date(1890, 1, 2, 3, 4, 5, 0, odd), Precision: PrecisionSecond}, "1890-01-02T02:44:33Z"},
		{Date{Time: time.Date(2026, 1, 2, 3, 4, 5, 0, far), Precision: PrecisionSecond}, "2026-01-01T12:04:05Z"},
		{Date{Time: time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC), Precision: PrecisionDay}, "0001-01-01"},
	}
	for _, tt := range tests {
		if err := checkDate(top("lastmod"), "M-08", tt.d); err != nil {
			t.Errorf("checkDate(%s): %v", tt.want, err)
		}
		got := string(appendDate(nil, tt.d))
		if got != tt.want {
			t.Errorf("appendDate = %s, want %s", got, tt.want)
		}
		if _, err := ParseDate(got); err != nil {
			t.Errorf("appendDate wrote %s, which ParseDate rejects: %v", got, err)
		}
		if tt.d.Precision == PrecisionDay || tt.d.Precision == PrecisionSecond && got[len(got)-1] != 'Z' {
			if s := tt.d.String(); s != got && tt.d.FracDigits <= 9 {
				t.Errorf("appendDate = %s, Date.String = %s", got, s)
			}
		}
	}
}

// fieldsOf agrees with package time on random instants and zones, from
// year 1 to 9999.
func TestFieldsOf(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	lo := time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
	hi := time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC).Unix()
	for i := 0; i < 100000; i++ {
		sec := lo + r.Int64N(hi-lo)
		zone := time.FixedZone("", (r.IntN(28*60+1)-14*60)*60)
		tm := time.Unix(sec, r.Int64N(1e9)).In(zone)
		f := fieldsOf(Date{Time: tm, Precision: PrecisionSecond})
		_, off := tm.Zone()
		y, mo, d := tm.Date()
		h, mi, s := tm.Clock()
		if f != (dateFields{y, int(mo), d, h, mi, s, tm.Nanosecond(), off}) {
			t.Fatalf("fieldsOf(%v) = %+v", tm, f)
		}
		if got, want := string(appendDate(nil, Date{Time: tm, Precision: PrecisionSecond, FracDigits: 9})), tm.Format("2006-01-02T15:04:05.000000000Z07:00"); got != want {
			t.Fatalf("appendDate = %s, time.Format = %s", got, want)
		}
	}
}

// The year bounds of checkDate are those of fieldsOf.
func TestLocalSecondsBounds(t *testing.T) {
	if got := time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC).Unix(); got != minLocalSec {
		t.Errorf("minLocalSec = %d, want %d", int64(minLocalSec), got)
	}
	if got := time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC).Unix(); got != maxLocalSec {
		t.Errorf("maxLocalSec = %d, want %d", int64(maxLocalSec), got)
	}
	plus1 := time.FixedZone("", 3600)
	for _, tt := range []struct {
		t  time.Time
		ok bool
	}{
		{time.Date(1, 1, 1, 0, 0, 0, 0, plus1), true},
		{time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC).Add(-time.Second), false},
		{time.Date(9999, 12, 31, 23, 59, 59, 999999999, plus1), true},
		{time.Date(10000, 1, 1, 0, 0, 0, 0, plus1), false},
	} {
		err := checkDate(top("lastmod"), "M-08", DateOf(tt.t))
		if (err == nil) != tt.ok {
			t.Errorf("checkDate(%v) = %v, want ok=%v", tt.t, err, tt.ok)
		}
	}
}

// P-04: priorities and ratings are written like FormatPriority.
func TestAppendDecimal(t *testing.T) {
	for _, p := range []float64{0, 0.1, 0.2, 0.25, 0.3, 0.5, 0.7, 0.8, 0.9, 1, 0.123456789, 1e-7, 0.30000000000000004, 4.2, 5, 2.5} {
		got := string(appendDecimal(nil, p))
		if want := FormatPriority(p); got != want {
			t.Errorf("appendDecimal(%v) = %s, FormatPriority = %s", p, got, want)
		}
	}
	negZero := -1 * 0.0
	negZero = -negZero
	if got := string(appendDecimal(nil, negZero)); got != "0.0" {
		t.Errorf("appendDecimal(-0) = %s", got)
	}
	for i := 0; i <= 1000; i++ {
		p := float64(i) / 1000
		if got, want := string(appendDecimal(nil, p)), FormatPriority(p); got != want {
			t.Fatalf("appendDecimal(%v) = %s, FormatPriority = %s", p, got, want)
		}
	}
}

func TestEncoderWithin(t *testing.T) {
	o := EncoderOptions{}
	u := URL{Loc: "https://www.example.com/page"}
	entry, _ := o.AppendURL(nil, &u)
	hdr := len(o.AppendHeader(nil))
	max := int64(hdr + 3*len(entry) + len(o.Trailer()))
	var buf bytes.Buffer
	e := NewEncoder(&buf, o)
	for i := 0; i < 3; i++ {
		ok, err := e.EncodeWithin(&u, max)
		if !ok || err != nil {
			t.Fatalf("entry %d: %v %v", i, ok, err)
		}
	}
	if ok, err := e.EncodeWithin(&u, max); ok || err != nil {
		t.Fatalf("4th entry: ok=%v err=%v, want false, nil (S-07)", ok, err)
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	if int64(buf.Len()) != max || e.Written() != max {
		t.Errorf("document %d bytes, Written %d, limit %d", buf.Len(), e.Written(), max)
	}
	// An entry that cannot fit even alone.
	e2 := NewEncoder(&bytes.Buffer{}, o)
	ok, err := e2.EncodeWithin(&u, int64(hdr+len(entry)+len(o.Trailer())-1))
	var ee *EntryError
	if ok || !errors.As(err, &ee) || ee.Rule != "S-02" {
		t.Errorf("oversized entry: ok=%v err=%v, want an S-02 EntryError", ok, err)
	}
	if e2.Written() != 0 {
		t.Errorf("Written = %d after a refused entry", e2.Written())
	}
}

type failWriter struct{ n int }

func (w *failWriter) Write(p []byte) (int, error) {
	w.n++
	return 0, errors.New("disk full")
}

func TestEncoderErrors(t *testing.T) {
	// Writer errors are sticky.
	fw := &failWriter{}
	e := NewEncoder(fw, EncoderOptions{})
	for i := 0; i < 2000; i++ {
		if err := e.Encode(&URL{Loc: "https://www.example.com/some/long/path/to/fill/the/buffer"}); err != nil {
			break
		}
	}
	if err := e.Close(); err == nil || err.Error() != "disk full" {
		t.Errorf("Close after a failed write = %v", err)
	}
	if err := e.Encode(&URL{Loc: "https://www.example.com/"}); err == nil {
		t.Error("Encode after a failed write succeeded")
	}
	if fw.n != 1 {
		t.Errorf("writer called %d times after failing", fw.n)
	}

	// Wrong entry kind, bad options, use after Close.
	var buf bytes.Buffer
	if err := NewEncoder(&buf, EncoderOptions{Index: true}).Encode(&URL{Loc: "https://www.example.com/"}); err == nil {
		t.Error("Encode on an index encoder succeeded")
	}
	if err := NewEncoder(&buf, EncoderOptions{}).EncodeIndexEntry(&IndexEntry{Loc: "https://www.example.com/s.xml"}); err == nil {
		t.Error("EncodeIndexEntry on a urlset encoder succeeded")
	}
	rel, _ := url.Parse("/sitemap.xml")
	if err := NewEncoder(&buf, EncoderOptions{Scope: rel}).Encode(&URL{Loc: "https://www.example.com/"}); err == nil || errors.As(err, new(*EntryError)) {
		t.Errorf("relative Scope: %v, want a plain error", err)
	}
	if err := NewEncoder(&buf, EncoderOptions{Scope: rel}).Encode(&URL{Loc: "bad loc"}); err == nil || errors.As(err, new(*EntryError)) {
		t.Errorf("relative Scope, bad entry: %v, want the options error first", err)
	}
	if err := NewEncoder(&buf, EncoderOptions{Stylesheet: "a\x00b"}).Close(); err == nil {
		t.Error("Stylesheet with NUL accepted by the Encoder")
	}
	if got := string(EncoderOptions{Stylesheet: "a\x00b&c"}.AppendHeader(nil)); !strings.Contains(got, `href="ab&amp;c"`) {
		t.Errorf("AppendHeader with a NUL in Stylesheet: %s", got)
	}
	buf.Reset()
	e = NewEncoder(&buf, EncoderOptions{})
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	if err := e.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if want := xmlDecl + `<urlset xmlns="` + NamespaceSitemap + `">` + "\n</urlset>\n"; buf.String() != want {
		t.Errorf("empty document = %q", buf.String())
	}
	if err := e.Encode(&URL{Loc: "https://www.example.com/"}); err == nil {
		t.Error("Encode after Close succeeded")
	}
	if err := (EncoderOptions{}).Check(nil); err == nil {
		t.Error("Check(nil) succeeded")
	}
}

// The encoder never writes a BOM and flushes in bounded chunks:
// memory does not grow with the number of URLs.
func TestEncoderStreams(t *testing.T) {
	var w countWriter
	e := NewEncoder(&w, EncoderOptions{})
	u := URL{Loc: "https://www.example.com/page", LastMod: DayOf(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))}
	for i := 0; i < 20000; i++ {
		if err := e.Encode(&u); err != nil {
			t.Fatal(err)
		}
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	if w.n != e.Written() {
		t.Errorf("writer got %d bytes, Written %d", w.n, e.Written())
	}
	if w.max > encoderBufSize+4096 {
		t.Errorf("largest write %d bytes; the buffer grew", w.max)
	}
	if cap(e.buf) > encoderBufSize+4096 {
		t.Errorf("buffer capacity grew to %d", cap(e.buf))
	}
}

type countWriter struct{ n, max int64 }

func (w *countWriter) Write(p []byte) (int, error) {
	w.n += int64(len(p))
	if int64(len(p)) > w.max {
		w.max = int64(len(p))
	}
	return len(p), nil
}

func BenchmarkAppendURL(b *testing.B) {
	o := EncoderOptions{}
	u := URL{Loc: "https://www.example.com/products/widget-123?color=blue&size=m",
		LastMod: Date{Time: time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC), Precision: PrecisionSecond}}
	dst := make([]byte, 0, 1024)
	out, _ := o.AppendURL(dst, &u)
	b.SetBytes(int64(len(out)))
	b.ReportAllocs()
	for b.Loop() {
		dst, _ = o.AppendURL(dst[:0], &u)
	}
}

func BenchmarkAppendURLExtensions(b *testing.B) {
	o := EncoderOptions{Extensions: ExtAll}
	u := goldenCases(b)[1].urls[0]
	dst := make([]byte, 0, 8192)
	out, err := o.AppendURL(dst, &u)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(out)))
	b.ReportAllocs()
	for b.Loop() {
		dst, _ = o.AppendURL(dst[:0], &u)
	}
}

// BenchmarkEncoder writes whole documents of 1,000 URLs.
func BenchmarkEncoder(b *testing.B) {
	urls := make([]URL, 1000)
	for i := range urls {
		urls[i] = URL{Loc: "https://www.example.com/products/item-" + itoa(i) + "?ref=sitemap&x=" + itoa(i*7),
			LastMod: Date{Time: time.Date(2026, 11, 2, 10, 0, i%60, 0, time.UTC), Precision: PrecisionSecond}}
	}
	var w countWriter
	e := NewEncoder(&w, EncoderOptions{})
	for i := range urls {
		e.Encode(&urls[i])
	}
	e.Close()
	b.SetBytes(w.n)
	b.ReportAllocs()
	for b.Loop() {
		e := NewEncoder(&w, EncoderOptions{})
		for i := range urls {
			if err := e.Encode(&urls[i]); err != nil {
				b.Fatal(err)
			}
		}
		if err := e.Close(); err != nil {
			b.Fatal(err)
		}
	}
}

// The codec is symmetric: the package's own Decoder reads every golden
// document back to entries that the encoder writes to the same bytes, and
// reports no errors or warnings for them (only infos, such as IM-03/V-02
// for the deprecated tags of the legacy document).
func TestGoldenDecodeReencode(t *testing.T) {
	for _, tc := range goldenCases(t) {
		t.Run(tc.name, func(t *testing.T) {
			doc := encodeAll(t, tc.o, tc.urls, tc.index)
			var diags []Diagnostic
			d := NewDecoder(bytes.NewReader(doc), DecoderOptions{OnDiagnostic: func(g Diagnostic) { diags = append(diags, g) }})
			var urls []URL
			var index []IndexEntry
			for {
				it, err := d.Next()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatalf("Decoder: %v", err)
				}
				switch it.Kind {
				case ItemURL:
					urls = append(urls, it.URL)
				case ItemIndex:
					index = append(index, it.Index)
				}
			}
			for _, g := range diags {
				if g.Severity != SeverityInfo && !(tc.o.Legacy && g.Severity == SeverityWarning) {
					t.Errorf("Decoder reports on the encoder's output: %s", g)
				}
			}
			again := encodeAll(t, tc.o, urls, index)
			if !bytes.Equal(again, doc) {
				t.Errorf("decode + encode changes the document:\n got:\n%s\nwant:\n%s", again, doc)
			}
		})
	}
}

// An entry with every extension is checked and written without
// allocating (the error path alone builds strings).
func TestAppendURLExtensionsNoAlloc(t *testing.T) {
	for _, tc := range goldenCases(t) {
		if tc.o.Index {
			continue
		}
		dst := make([]byte, 0, 64<<10)
		for i := range tc.urls {
			u := &tc.urls[i]
			if allocs := testing.AllocsPerRun(20, func() { tc.o.AppendURL(dst[:0], u) }); allocs != 0 {
				t.Errorf("%s: entry %d allocates %.1f times", tc.name, i, allocs)
			}
		}
	}
}
