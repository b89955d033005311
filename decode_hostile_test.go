package sitemap

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// The hostile files in testdata/hostile/ are produced by hostileFiles.
// Regenerate them with:
//
//	SITEMAP_REGEN_HOSTILE=1 go test -run TestDecodeHostileFilesUpToDate .
//
// TestDecodeHostileFilesUpToDate fails when a committed file differs from
// what the generator makes, so the files and this code never drift.
func hostileFiles() map[string][]byte {
	files := map[string][]byte{}
	gz := func(parts ...[]byte) []byte {
		var b bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
		for _, p := range parts {
			zw.Write(p)
		}
		zw.Close()
		return b.Bytes()
	}
	// A gzip bomb: a few KB that expand past the default cap (LIM-01,
	// 4 × 52,428,800 bytes) to 208 MiB of white space inside a urlset. It
	// is gzip twice (GZ-02): the inner stream is one 1 MiB member repeated,
	// which the outer gzip squeezes to almost nothing.
	files["gzip-bomb.xml.gz"] = gz(gzipBomb(nil, DefaultDecodeMaxBytes>>20+8))

	// Billion laughs: nested entity definitions; never expanded.
	var bl strings.Builder
	bl.WriteString("<?xml version=\"1.0\"?>\n<!DOCTYPE urlset [\n <!ENTITY lol \"lol\">\n")
	for i := 1; i <= 9; i++ {
		prev := "lol"
		if i > 1 {
			prev = "lol" + strconv.Itoa(i-1)
		}
		fmt.Fprintf(&bl, " <!ENTITY lol%d \"%s\">\n", i, strings.Repeat("&"+prev+";", 10))
	}
	bl.WriteString("]>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n<url><loc>https://www.example.com/&lol9;</loc></url>\n</urlset>\n")
	files["billion-laughs.xml"] = []byte(bl.String())

	// XXE: an external entity naming a local file; never fetched.
	files["xxe.xml"] = []byte(`<?xml version="1.0"?>
<!DOCTYPE urlset [ <!ENTITY xxe SYSTEM "file:///etc/passwd"> <!ENTITY % remote SYSTEM "http://127.0.0.1:1/evil.dtd"> %remote; ]>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>&xxe;</loc></url>
<url><loc>https://www.example.com/ok</loc></url>
</urlset>
`)

	// A truncated gzip: 200 URLs, cut in the middle of the compressed data.
	var u strings.Builder
	u.WriteString(urlsetHead)
	for i := 0; i < 200; i++ {
		fmt.Fprintf(&u, "<url><loc>https://www.example.com/page/%d</loc><lastmod>2024-01-%02dT10:00:00Z</lastmod></url>\n", i, i%28+1)
	}
	u.WriteString(urlsetTail)
	whole := gz([]byte(u.String()))
	files["truncated.xml.gz"] = whole[:len(whole)/2]

	// An HTML error page served where a sitemap was expected.
	files["error-page.html"] = []byte("<!DOCTYPE html>\n<html lang=\"en\">\n<head><meta charset=\"utf-8\"><title>404 Not Found</title></head>\n<body><h1>Not Found</h1><p>The requested URL was not found on this server.<br></p></body>\n</html>\n")

	// Binary garbage (deterministic).
	rng := rand.New(rand.NewPCG(1, 2))
	bin := make([]byte, 2048)
	for i := range bin {
		bin[i] = byte(rng.UintN(256))
	}
	files["garbage.bin"] = bin
	return files
}

func TestDecodeHostileFilesUpToDate(t *testing.T) {
	files := hostileFiles()
	if os.Getenv("SITEMAP_REGEN_HOSTILE") == "1" {
		os.MkdirAll("testdata/hostile", 0o755)
		for name, data := range files {
			if err := os.WriteFile(filepath.Join("testdata/hostile", name), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	for name, data := range files {
		got, err := os.ReadFile(filepath.Join("testdata/hostile", name))
		if err != nil {
			t.Fatalf("%v (regenerate with SITEMAP_REGEN_HOSTILE=1)", err)
		}
		if !bytes.Equal(got, data) {
			t.Errorf("testdata/hostile/%s differs from its generator (regenerate with SITEMAP_REGEN_HOSTILE=1)", name)
		}
		if len(got) > 64<<10 {
			t.Errorf("%s is %d bytes; hostile files stay small", name, len(got))
		}
	}
}

// TestDecodeHostile: each hostile input has a bounded, reported outcome.
func TestDecodeHostile(t *testing.T) {
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join("testdata/hostile", name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	t.Run("gzip bomb hits MaxBytes", func(t *testing.T) {
		r := decodeAll(t, read("gzip-bomb.xml.gz"), DecoderOptions{MaxBytes: 1 << 20})
		if !errors.Is(r.err, ErrLimit) || !r.has(RuleMaxBytes) {
			t.Fatalf("err %v\n%s", r.err, r.dump())
		}
		var de *DecodeError
		if !errors.As(r.err, &de) || de.Diagnostic.Rule != RuleMaxBytes {
			t.Errorf("error is not a LIM-01 *DecodeError: %#v", r.err)
		}
	})
	t.Run("gzip bomb is gzip twice and a few KB", func(t *testing.T) {
		b := read("gzip-bomb.xml.gz")
		if len(b) > 16<<10 {
			t.Errorf("the bomb is %d bytes, want a few KB", len(b))
		}
		r := decodeAll(t, b, DecoderOptions{MaxBytes: 1 << 20})
		if !r.has(RuleGzipNested) {
			t.Errorf("no %s:\n%s", RuleGzipNested, r.dump())
		}
	})
	t.Run("billion laughs", func(t *testing.T) {
		// The entity is never expanded; the loc it was in is not the URL
		// written, so its entry is skipped.
		r := decodeAll(t, read("billion-laughs.xml"), DecoderOptions{})
		if r.err != nil || len(r.items) != 0 || !strings.Contains(r.dump(), "entry skipped") {
			t.Fatalf("err %v items %+v\n%s", r.err, r.items, r.dump())
		}
		if !r.has(RuleDoctype) || !r.has(RuleEntity) {
			t.Errorf("diagnostics:\n%s", r.dump())
		}
	})
	t.Run("XXE", func(t *testing.T) {
		r := decodeAll(t, read("xxe.xml"), DecoderOptions{})
		if r.err != nil || len(r.items) != 1 || r.items[0].URL.Loc != "https://www.example.com/ok" {
			t.Fatalf("err %v items %+v\n%s", r.err, r.items, r.dump())
		}
		if !r.has(RuleEntity) || !r.has("X-04") {
			t.Errorf("diagnostics:\n%s", r.dump())
		}
		if strings.Contains(r.dump(), "root:") {
			t.Error("file contents leaked")
		}
	})
	t.Run("truncated gzip", func(t *testing.T) {
		r := decodeAll(t, read("truncated.xml.gz"), DecoderOptions{})
		if !errors.Is(r.err, ErrGzip) || !r.has(RuleGzip) {
			t.Fatalf("err %v\n%s", r.err, r.dump())
		}
		if len(r.items) < 50 || len(r.items) >= 200 {
			t.Fatalf("items before the cut: %d", len(r.items))
		}
		for i, it := range r.items {
			if want := fmt.Sprintf("https://www.example.com/page/%d", i); it.URL.Loc != want {
				t.Fatalf("item %d = %q", i, it.URL.Loc)
			}
		}
	})
	t.Run("HTML error page", func(t *testing.T) {
		r := decodeAll(t, read("error-page.html"), DecoderOptions{})
		if !errors.Is(r.err, ErrNotSitemap) || r.format != FormatHTML || !strings.Contains(r.dump(), "HTML page") {
			t.Fatalf("err %v format %v\n%s", r.err, r.format, r.dump())
		}
	})
	t.Run("binary garbage", func(t *testing.T) {
		r := decodeAll(t, read("garbage.bin"), DecoderOptions{})
		if !errors.Is(r.err, ErrNotSitemap) || len(r.items) != 0 {
			t.Fatalf("err %v\n%s", r.err, r.dump())
		}
	})
	t.Run("10 MB line without newline", func(t *testing.T) {
		line := append([]byte("https://www.example.com/"), bytes.Repeat([]byte("a"), 10<<20)...)
		r := decodeAll(t, line, DecoderOptions{})
		if !errors.Is(r.err, ErrLimit) || !r.has(RuleMaxToken) {
			t.Fatalf("err %v\n%s", r.err, r.dump())
		}
		// The same as one huge XML attribute.
		x := []byte(urlsetHead + `<url><loc>https://e.com/</loc></url><url x="` + string(bytes.Repeat([]byte("a"), 10<<20)) + `"></url>` + urlsetTail)
		r = decodeAll(t, x, DecoderOptions{})
		if !errors.Is(r.err, ErrLimit) || !r.has(RuleMaxToken) || len(r.items) != 1 {
			t.Fatalf("xml: err %v items %d\n%s", r.err, len(r.items), r.dump())
		}
	})
	t.Run("100000 nested elements", func(t *testing.T) {
		x := urlsetHead + strings.Repeat("<a>", 100000) + strings.Repeat("</a>", 100000) + urlsetTail
		r := decodeAll(t, []byte(x), DecoderOptions{})
		if !errors.Is(r.err, ErrLimit) || !r.has(RuleMaxDepth) {
			t.Fatalf("err %v\n%s", r.err, r.dump())
		}
	})
	t.Run("entry cap", func(t *testing.T) {
		x := urlsetHead + strings.Repeat("<url><loc>https://e.com/</loc></url>", 20) + urlsetTail
		r := decodeAll(t, []byte(x), DecoderOptions{MaxEntries: 10})
		if !errors.Is(r.err, ErrLimit) || !r.has(RuleMaxCount) || len(r.items) != 10 {
			t.Fatalf("err %v items %d\n%s", r.err, len(r.items), r.dump())
		}
	})
	t.Run("huge value", func(t *testing.T) {
		x := urlsetHead + "<url><loc>https://e.com/" + strings.Repeat("a", 3<<20) + "</loc></url>" + urlsetTail
		r := decodeAll(t, []byte(x), DecoderOptions{})
		if !errors.Is(r.err, ErrLimit) || !r.has(RuleMaxToken) {
			t.Fatalf("err %v\n%s", r.err, r.dump())
		}
	})
}

// gzipBomb returns a multi-member gzip stream expanding to about n MiB of
// white space inside a urlset, built without compressing n MiB.
func gzipBomb(_ testing.TB, mib int) []byte {
	gz := func(b []byte) []byte {
		var w bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&w, gzip.BestCompression)
		zw.Write(b)
		zw.Close()
		return w.Bytes()
	}
	member := gz(bytes.Repeat([]byte(" "), 1<<20))
	out := gz([]byte(urlsetHead))
	for i := 0; i < mib; i++ {
		out = append(out, member...)
	}
	return append(out, gz([]byte(urlsetTail))...)
}

// TestDecodeBombMemory: decompressing past the default 200 MiB cap stops
// there with LIM-01 and ErrLimit, and keeps the heap small (the decoder
// streams; nothing grows with the input): the committed bomb, gzip twice
// (a few KB), and a one-level multi-member bomb (~210 KB).
func TestDecodeBombMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 200 MiB")
	}
	committed, err := os.ReadFile(filepath.Join("testdata", "hostile", "gzip-bomb.xml.gz"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		bomb []byte
	}{
		{"testdata/hostile/gzip-bomb.xml.gz (gzip twice)", committed},
		{"multi-member gzip", gzipBomb(t, 4*MaxBytes/(1<<20)+8)}, // 208 MiB of data
	} {
		t.Run(tc.name, func(t *testing.T) {
			runtime.GC()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			var diags []Diagnostic
			dec := NewDecoder(bytes.NewReader(tc.bomb), DecoderOptions{OnDiagnostic: func(d Diagnostic) { diags = append(diags, d) }})
			var err error
			for {
				if _, err = dec.Next(); err != nil {
					break
				}
			}
			runtime.ReadMemStats(&after)
			if !errors.Is(err, ErrLimit) || len(diags) == 0 || diags[len(diags)-1].Rule != RuleMaxBytes {
				t.Fatalf("err %v diags %v", err, diags)
			}
			var de *DecodeError
			if !errors.As(err, &de) || de.Diagnostic.Rule != RuleMaxBytes {
				t.Errorf("error is not a LIM-01 *DecodeError: %#v", err)
			}
			if dec.Bytes() != DefaultDecodeMaxBytes {
				t.Errorf("read %d uncompressed bytes, want exactly the cap %d", dec.Bytes(), DefaultDecodeMaxBytes)
			}
			allocated := after.TotalAlloc - before.TotalAlloc
			t.Logf("%d bytes compressed; decompressed %d MiB; allocated %d KiB in total; heap in use %d KiB", len(tc.bomb), dec.Bytes()>>20, allocated>>10, after.HeapAlloc>>10)
			const bound = 64 << 20
			if allocated > bound {
				t.Errorf("allocated %d bytes while reading the bomb, want < %d", allocated, bound)
			}
			if after.HeapAlloc > before.HeapAlloc+bound {
				t.Errorf("heap in use grew from %d to %d", before.HeapAlloc, after.HeapAlloc)
			}
		})
	}
}
