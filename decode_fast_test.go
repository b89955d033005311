package sitemap

import (
	"bytes"
	"fmt"
	"io"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/sitemapkit/sitemap/internal/xmlscan"
)

// bothWays is what one decoding produced: entries, diagnostics (as
// text, with positions) and the final error.
type bothWays struct {
	items []Item
	diags []Diagnostic
	err   string
}

func runDecoder(data []byte, o DecoderOptions, noFast bool, wrap func(io.Reader) io.Reader) bothWays {
	var r bothWays
	o.OnDiagnostic = func(d Diagnostic) { r.diags = append(r.diags, d) }
	var src io.Reader = bytes.NewReader(data)
	if wrap != nil {
		src = wrap(src)
	}
	dec := NewDecoder(src, o)
	dec.noFast = noFast
	for i := 0; i < len(data)+3; i++ {
		it, err := dec.Next()
		if err != nil {
			r.err = err.Error()
			break
		}
		r.items = append(r.items, it)
	}
	return r
}

// compareWays decodes data with and without the fast paths and fails
// on any difference in entries, diagnostics or the final error.
func compareWays(t *testing.T, name string, data []byte, o DecoderOptions, wrap func(io.Reader) io.Reader) {
	t.Helper()
	slow := runDecoder(data, o, true, wrap)
	fast := runDecoder(data, o, false, wrap)
	if slow.err != fast.err {
		t.Fatalf("%s: error differs:\ngeneral: %s\nfast:    %s", name, slow.err, fast.err)
	}
	if !sameDiags(slow.diags, fast.diags) {
		t.Fatalf("%s: diagnostics differ:\ngeneral: %v\nfast:    %v", name, slow.diags, fast.diags)
	}
	if len(slow.items) != len(fast.items) {
		t.Fatalf("%s: %d entries in general, %d fast", name, len(slow.items), len(fast.items))
	}
	for i := range slow.items {
		a, b := slow.items[i], fast.items[i]
		if !sameItem(a, b) {
			t.Fatalf("%s: entry %d differs:\ngeneral: %+v\nfast:    %+v", name, i, a, b)
		}
	}
}

// sameDiags compares diagnostics. Where the general path gives column
// 0 (the element's start had already left its buffer, so it knows no
// position) the fast path, which holds the whole element, may know it.
func sameDiags(a, b []Diagnostic) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if x.Col == 0 && y.Col != 0 {
			x.Line, x.Col, y.Line, y.Col = 0, 0, 0, 0
		}
		if x != y {
			return false
		}
	}
	return true
}

// sameItem compares entries field by field; times must be the same
// instant in the same zone (offset and name) with the same precision.
func sameItem(a, b Item) bool {
	if !sameDate(a.URL.LastMod, b.URL.LastMod) || !sameDate(a.Index.LastMod, b.Index.LastMod) {
		return false
	}
	if (a.URL.Priority == nil) != (b.URL.Priority == nil) ||
		a.URL.Priority != nil && *a.URL.Priority != *b.URL.Priority {
		return false
	}
	a.URL.LastMod, b.URL.LastMod = Date{}, Date{}
	a.Index.LastMod, b.Index.LastMod = Date{}, Date{}
	a.URL.Priority, b.URL.Priority = nil, nil
	return reflect.DeepEqual(a, b)
}

func sameDate(a, b Date) bool {
	an, ao := a.Time.Zone()
	bn, bo := b.Time.Zone()
	return a.Precision == b.Precision && a.FracDigits == b.FracDigits && a.Time.Equal(b.Time) &&
		an == bn && ao == bo && a.Time.Location().String() == b.Time.Location().String() &&
		a.Time.IsZero() == b.Time.IsZero()
}

// plainVariants are <url> elements in the shapes the fast path takes and
// in the near misses it must leave to the general path.
var plainVariants = []string{
	"<url><loc>https://a.example/1</loc></url>",
	"<url>\n <loc>https://a.example/2?a=1&amp;b=2</loc>\n <lastmod>2024-02-29</lastmod>\n</url>",
	"<url><loc>https://a.example/3</loc><lastmod>2023-02-29</lastmod></url>",                      // M-01: no such day
	"<url><loc>https://a.example/4</loc><lastmod>2024-01-02T03:04:05+05:30</lastmod></url>",       // offset
	"<url><loc>https://a.example/5</loc><lastmod>2024-01-02T03:04:05-00:00</lastmod></url>",       // -00:00
	"<url><loc>https://a.example/6</loc><lastmod>2024-01-02T03:04:05.123Z</lastmod></url>",        // fraction
	"<url><loc>https://a.example/7</loc><lastmod>2024-01-02T03:04:05.1234567891Z</lastmod></url>", // 10 digits
	"<url><loc>https://a.example/8</loc><lastmod>2024-01-02T03:04:05+14:30</lastmod></url>",       // D-03
	"<url><loc>https://a.example/9</loc><lastmod>2024-01-02T03:04</lastmod></url>",                // M-04, no zone
	"<url><loc>https://a.example/10</loc><lastmod>2024-01-02T24:00:00Z</lastmod></url>",           // hour 24
	"<url><loc>https://a.example/11</loc><lastmod> 2024-01-02</lastmod></url>",
	"<url><loc>https://a.example/12</loc><lastmod>0000-02-29T00:00:00Z</lastmod></url>",           // year 0
	"<url><loc>https://a.example/13</loc><lastmod>9999-12-31T23:59:59-14:00</lastmod></url>",      // far end
	"<url><loc>https://a.example/14</loc><lastmod>2024-1-02</lastmod></url>",                      // M-01
	"<url><loc>https://a.example/15</loc><changefreq>Weekly</changefreq></url>",                   // C-04
	"<url><loc>https://a.example/16</loc><changefreq>often</changefreq></url>",                    // C-01
	"<url><loc>https://a.example/17</loc><priority>1.0</priority></url>",                          //
	"<url><loc>https://a.example/18</loc><priority>1.01</priority></url>",                         // P-01
	"<url><loc>https://a.example/19</loc><priority>.5</priority></url>",                           //
	"<url><loc>https://a.example/20</loc><priority>-0.0</priority></url>",                         // sign
	"<url><loc>https://a.example/21</loc><priority>0.1234567890123456789</priority></url>",        // long
	"<url><loc>https://a.example/22</loc><priority>1e-1</priority></url>",                         // P-01
	"<url><loc>https://a.example/23</loc><priority>5.</priority></url>",                           // P-01 range
	"<url><loc>https://a.example/24</loc><priority></priority></url>",                             // empty
	"<url><loc> https://a.example/25 </loc></url>",
	"<url><loc></loc></url>",
	"<url><loc>https://a.example/26&bogus;x</loc></url>",                         // XML-03
	"<url><loc>https://a.example/27&x</loc></url>",                               // E-01
	"<url><loc>https://a.example/28&#x41;&#0;</loc></url>",                       // E-03
	"<url><loc>https://a.example/29\x01</loc></url>",                             // E-03 control
	"<url><loc>https://a.example/30/\xff</loc></url>",
	"<url><loc>https://a.example/31/é\uFFFE</loc></url>",                         // E-03 U+FFFE
	"<url><loc>https://a.example/32/é\t</loc></url>",                             // UTF-8, tab
	"<url><lastmod>2024-01-01</lastmod><loc>https://a.example/33</loc></url>",    // X-06 order
	"<url><loc>https://a.example/34</loc><loc>https://a.example/dup</loc></url>",
	"<url><loc>https://a.example/35</loc><extra>x</extra></url>",                 // X-06 unknown
	"<url><loc><![CDATA[https://a.example/36]]></loc></url>",                     // CDATA
	"<url><loc>https://a.example/37<!-- c --></loc></url>",                       // comment
	"<url><loc>https://a.example/38</loc >\n</url >",                             // spaces in tags
	"<url id=\"1\"><loc>https://a.example/39</loc></url>",                        // attribute
	"<url><loc>https://a.example/40</lastmod></url>",                             // mismatch
	"<url>https://a.example/41</url>",                                            // bare loc
	"<url><loc>https://a.example/42</loc>stray</url>",                            // XML-04
	"<url><loc>https://a.example/43</loc><image:image><image:loc>https://a.example/i.jpg</image:loc></image:image></url>",
	"<url><loc>https://a.example/44</loc><lastmod>2024-01-02T03:04:05Z</lastmod><changefreq>daily</changefreq><priority>0.3</priority></url>",
	"<url><loc>https://a.example/45</loc><lastmod>2024-13-02</lastmod></url>",
	"<url><loc>https://a.example/46</loc><lastmod>2024-01-02T03:04:05+05:60</lastmod></url>",
	"<url><loc>https://a.example/47</loc><lastmod>2024-01-02T03:04:05.Z</lastmod></url>",
	"<url><loc>https://a.example/48</loc><lastmod>2024-01-02Z</lastmod></url>",
	"<url><loc>https://a.example/49</loc></url><!-- between -->",
	"text between entries",
	"<url><loc>https://a.example/50</loc><priority>0</priority></url>",
	"<url/>",
	"<url><loc>https://a.example/51</loc><lastmod>2024-01-02T03:04:05+0530</lastmod></url>",
	"<url><loc>https://a.example/52</loc><video:video></video:video></url>",
	"<url><loc>https://a.example/53?q=&lt;&gt;&quot;&apos;&amp;</loc><changefreq>&#x77;eekly</changefreq></url>",
	"<url><loc>https://a.example/54&amp</loc><priority>0.5&amp;</priority></url>",
	"<url><loc>https://a.example/55&amp;&AMP;</loc></url>",
}

// plainDoc builds a urlset from the variants, in the order given.
func plainDoc(head string, parts []string, sep string) []byte {
	var b bytes.Buffer
	b.WriteString(head)
	for _, p := range parts {
		b.WriteString(sep)
		b.WriteString(p)
	}
	b.WriteString(sep + "</urlset>\n")
	return b.Bytes()
}

const plainHead = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">`

// TestDecodeFastSameAsGeneral: the fast path of a clean <url> gives the
// same entries, diagnostics (E-01, E-03, X-01, X-04, X-06, X-11, X-12,
// M-01, M-04, D-03, C-01, C-04, P-01, XML-03, XML-04 …) with the same
// positions, and the same errors as the general path, whatever the reader
// and buffer sizes.
func TestDecodeFastSameAsGeneral(t *testing.T) {
	heads := map[string]string{
		"sitemap-ns": plainHead,
		"no-ns":      `<urlset>`,
		"other-ns":   `<urlset xmlns="http://example.com/not-sitemaps">`,
		"legacy-ns":  `<urlset xmlns="http://www.google.com/schemas/sitemap/0.84">`,
		"prefixed":   `<s:urlset xmlns:s="http://www.sitemaps.org/schemas/sitemap/0.9">`,
		"index":      `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`,
	}
	wraps := map[string]func(io.Reader) io.Reader{
		"whole": nil,
		"byte":  iotest.OneByteReader,
		"half":  iotest.HalfReader,
	}
	opts := map[string]DecoderOptions{
		"default":    {Name: "t.xml"},
		"small-tok":  {Name: "t.xml", MaxLineBytes: 40},
		"mid-tok":    {Name: "t.xml", MaxLineBytes: 300},
		"depth-2":    {Name: "t.xml", MaxDepth: 2},
		"few":        {Name: "t.xml", MaxEntries: 7},
		"cap-bytes":  {Name: "t.xml", MaxBytes: 900},
		"http-named": {Name: "https://a.example/sitemap.xml"},
	}
	for hn, head := range heads {
		for _, sep := range []string{"", "\n  ", " \t\r\n"} {
			doc := plainDoc(head, plainVariants, sep)
			for on, o := range opts {
				compareWays(t, fmt.Sprintf("%s/%q/%s", hn, sep, on), doc, o, nil)
			}
			// Other read sizes move every buffer boundary.
			for wn, w := range wraps {
				if w != nil {
					compareWays(t, fmt.Sprintf("%s/%q/%s", hn, sep, wn), doc, opts["mid-tok"], w)
				}
			}
		}
		// Truncated at many lengths of the first kilobyte.
		doc := plainDoc(head, plainVariants, "\n  ")
		for n := 0; n < len(doc) && n < 1200; n += 11 {
			compareWays(t, fmt.Sprintf("%s/cut%d", hn, n), doc[:n], DecoderOptions{}, nil)
		}
	}
	// Shuffled variants, so each follows every other.
	rng := rand.New(rand.NewSource(1))
	for i := 0; i < 20; i++ {
		parts := append([]string(nil), plainVariants...)
		rng.Shuffle(len(parts), func(a, b int) { parts[a], parts[b] = parts[b], parts[a] })
		compareWays(t, fmt.Sprintf("shuffle%d", i), plainDoc(plainHead, parts, "\n"), DecoderOptions{}, iotest.HalfReader)
	}
}

// TestDecodeFastSameOnFiles runs the comparison over the sample, corpus and
// hostile files and the benchmark sitemap.
func TestDecodeFastSameOnFiles(t *testing.T) {
	var files []string
	for _, g := range []string{"testdata/samples/*", "testdata/corpus/crawler-commons/*.xml",
		"testdata/corpus/crawler-commons/extension/*.xml", "testdata/hostile/*", "testdata/golden/*.xml"} {
		m, _ := filepath.Glob(g)
		files = append(files, m...)
	}
	if len(files) < 10 {
		t.Fatalf("only %d test files found", len(files))
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		compareWays(t, f, data, DecoderOptions{Name: f}, nil)
		compareWays(t, f+"/half", data, DecoderOptions{Name: f, MaxLineBytes: 256}, iotest.HalfReader)
	}
	big := benchSitemap50k()[:200000]
	compareWays(t, "bench-prefix", big, DecoderOptions{}, nil)
	compareWays(t, "bench-prefix/half", big, DecoderOptions{MaxLineBytes: 4096}, iotest.HalfReader)
}

// FuzzDecodeFastPath: for any input, the fast paths change nothing.
func FuzzDecodeFastPath(f *testing.F) {
	f.Add(plainDoc(plainHead, plainVariants, "\n"))
	for _, v := range plainVariants {
		f.Add(plainDoc(plainHead, []string{v}, "\n "))
	}
	f.Add(benchSitemap50k()[:4000])
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 64<<10 {
			return
		}
		compareWays(t, "fuzz", data, DecoderOptions{MaxLineBytes: 512}, nil)
		compareWays(t, "fuzz/half", data, DecoderOptions{}, iotest.HalfReader)
	})
}

// TestDecFastDate: parseCommonDate accepts only what ParseDateLenient reads
// without any issue (M-01, M-04 and D-03 silent), and gives the same Date.
func TestDecFastDate(t *testing.T) {
	var zones zoneCache
	check := func(s string) {
		t.Helper()
		got, ok := parseCommonDate([]byte(s), &zones)
		want, issues, err := ParseDateLenient(s)
		quiet := err == nil && issues == 0 && (want.Precision == PrecisionDay || want.Precision == PrecisionSecond)
		if ok && !quiet {
			t.Fatalf("%q: fast path took a value the general one reports (issues %v, err %v)", s, issues, err)
		}
		if ok && !sameDate(got, want) {
			t.Fatalf("%q: fast %v (%v), general %v (%v)", s, got.Time, got.Precision, want.Time, want.Precision)
		}
	}
	fixed := []string{"2024-02-29", "2023-02-29", "2100-02-29", "2000-02-29", "0000-01-01", "0000-03-01", "9999-12-31",
		"2024-04-31", "2024-00-10", "2024-12-00", "2024-01-02T03:04:05Z", "2024-01-02T03:04:05+00:00",
		"2024-01-02T03:04:05-00:00", "2024-01-02T03:04:05+14:00", "2024-01-02T03:04:05+14:01", "2024-01-02T03:04:05-13:59",
		"2024-01-02T23:59:59.999999999Z", "2024-01-02T23:59:59.1234567891Z", "2024-01-02T24:00:00Z", "2024-01-02T03:04:60Z",
		"2024-01-02T03:60:00Z", "2024-01-02T03:04Z", "2024-01-02T03:04:05", "2024-01-02 03:04:05Z", "2024-01-02Z",
		"2024-01-02T03:04:05.Z", "2024-01-02T03:04:05+5:30", "2024-01-02T03:04:05+05:3a", "1969-12-31T23:59:59Z",
		"2024-01-02T03:04:05.5+05:30", "２０２４-01-02", "2024-01-02T03:04:05z"}
	for _, s := range fixed {
		check(s)
	}
	rng := rand.New(rand.NewSource(2))
	for i := 0; i < 20000; i++ {
		y, m, d := rng.Intn(10000), rng.Intn(14), rng.Intn(33)
		s := fmt.Sprintf("%04d-%02d-%02d", y, m, d)
		switch rng.Intn(4) {
		case 1:
			s += fmt.Sprintf("T%02d:%02d:%02dZ", rng.Intn(25), rng.Intn(61), rng.Intn(61))
		case 2:
			sign := "+-"[rng.Intn(2)]
			s += fmt.Sprintf("T%02d:%02d:%02d%c%02d:%02d", rng.Intn(25), rng.Intn(61), rng.Intn(61), sign, rng.Intn(16), rng.Intn(61))
		case 3:
			s += fmt.Sprintf("T%02d:%02d:%02d.%sZ", rng.Intn(24), rng.Intn(60), rng.Intn(60), fmt.Sprintf("%09d", rng.Intn(1e9))[:1+rng.Intn(9)])
		}
		check(s)
	}
}

// TestDecFastDecimal: parseSimpleDecimal agrees with strconv.ParseFloat (P-01
// values) on every form it accepts.
func TestDecFastDecimal(t *testing.T) {
	in := []string{"0", "1", "0.0", "1.0", "0.5", ".5", "5.", "0.1", "0.3", "0.7", "0.123456789012345", "0.1234567890123456",
		"000000000000001", "1.00000000000000", ".", "", "+0.5", "-0.5", "1e1", "0x1", "1..0", "0.9999999999999999"}
	rng := rand.New(rand.NewSource(3))
	for i := 0; i < 20000; i++ {
		n := rng.Intn(16)
		s := strconv.FormatInt(rng.Int63n(1_000_000_000_000_000), 10)
		if len(s) > 15 {
			s = s[:15]
		}
		if n < len(s) {
			s = s[:n] + "." + s[n:]
		}
		in = append(in, s)
	}
	for _, s := range in {
		got, ok := parseSimpleDecimal([]byte(s))
		if !ok {
			continue
		}
		want, err := strconv.ParseFloat(s, 64)
		if err != nil || !isDecimal([]byte(s)) || got != want {
			t.Fatalf("%q: fast %v, ParseFloat %v (%v)", s, got, want, err)
		}
	}
}

// TestDecASCIIClean: the word-at-a-time test agrees with a byte loop.
func TestDecASCIIClean(t *testing.T) {
	naive := func(b []byte) bool {
		for _, c := range b {
			if c < 0x20 || c >= 0x7f {
				return false
			}
		}
		return true
	}
	rng := rand.New(rand.NewSource(4))
	for i := 0; i < 50000; i++ {
		b := []byte(strings.Repeat("https://www.example.com/", 2))[:rng.Intn(40)]
		for k := rng.Intn(3); k > 0 && len(b) > 0; k-- {
			b[rng.Intn(len(b))] = byte(rng.Intn(256))
		}
		if got, want := printableASCII(b), naive(b); got != want {
			t.Fatalf("%q: got %v want %v", b, got, want)
		}
	}
}

// TestDecodePriorityNotShared: entries read from one slab still own their
// priority; changing one changes no other (P-01 values).
func TestDecodePriorityNotShared(t *testing.T) {
	doc := plainDoc(plainHead, []string{
		"<url><loc>https://a.example/1</loc><priority>0.5</priority></url>",
		"<url><loc>https://a.example/2</loc><priority>0.5</priority></url>",
	}, "\n")
	r := runDecoder(doc, DecoderOptions{}, false, nil)
	if len(r.items) != 2 || r.items[0].URL.Priority == nil || r.items[1].URL.Priority == nil {
		t.Fatalf("got %+v", r)
	}
	*r.items[0].URL.Priority = 0.9
	if *r.items[1].URL.Priority != 0.5 {
		t.Fatalf("second priority changed with the first: %v", *r.items[1].URL.Priority)
	}
}

// TestDecZoneCache: one Location per offset, the same as time.FixedZone's.
func TestDecZoneCache(t *testing.T) {
	var c zoneCache
	for _, off := range []int{19800, 0, -3600, 19800, 20700, 34200, 45900, 19800} {
		l := c.get(off)
		name, got := time.Date(2024, 1, 1, 0, 0, 0, 0, l).Zone()
		if got != off || name != "" {
			t.Fatalf("offset %d: got %q %d", off, name, got)
		}
	}
}

// TestDecSkipSpace: the word-at-a-time skip agrees with a byte loop on
// every mix of the four XML white-space characters and others.
func TestDecSkipSpace(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	alphabet := []byte(" \n\t\r<a\x00\x80\xff\x0b")
	for i := 0; i < 50000; i++ {
		b := make([]byte, rng.Intn(30))
		for k := range b {
			if rng.Intn(4) == 0 {
				b[k] = alphabet[rng.Intn(len(alphabet))]
			} else {
				b[k] = " \n"[rng.Intn(2)]
			}
		}
		q := 0
		if len(b) > 0 {
			q = rng.Intn(len(b) + 1)
		}
		want := q
		for want < len(b) && xmlscan.IsSpace(b[want]) {
			want++
		}
		if got := skipXMLSpace(b, q); got != want {
			t.Fatalf("%q from %d: got %d want %d", b, q, got, want)
		}
	}
}
