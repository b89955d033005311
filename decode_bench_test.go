package sitemap

import (
	"bytes"
	"compress/gzip"
	"encoding/xml"
	"fmt"
	"io"
	"runtime"
	"sync"
	"testing"
)

// benchSitemap50k is a 50,000-URL urlset in the usual indented layout,
// with every core element (about 9 MB).
var benchSitemap50k = sync.OnceValue(func() []byte {
	var b bytes.Buffer
	b.WriteString(urlsetHead)
	for i := 0; i < MaxURLs; i++ {
		fmt.Fprintf(&b, "  <url>\n    <loc>https://www.example.com/products/category-%d/item-%d.html?ref=sitemap&amp;lang=en</loc>\n    <lastmod>2024-%02d-%02dT%02d:%02d:%02d+00:00</lastmod>\n    <changefreq>weekly</changefreq>\n    <priority>0.%d</priority>\n  </url>\n",
			i%97, i, i%12+1, i%28+1, i%24, i%60, (i*7)%60, i%10)
	}
	b.WriteString(urlsetTail)
	return b.Bytes()
})

var benchSitemap50kGzip = sync.OnceValue(func() []byte {
	var b bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
	zw.Write(benchSitemap50k())
	zw.Close()
	return b.Bytes()
})

// benchMeter reports, besides the usual figures, allocations per URL
// and CPU time (user+system of the process) per URL and as MB/s of XML:
// on a machine shared with other work, CPU time is the steadier measure.
// Run with -cpu 1 so that the CPU time is the decoder's (and its GC's).
type benchMeter struct {
	mallocs uint64
	cpu     int64
	cpuOK   bool
}

func benchStart() benchMeter {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	m := benchMeter{mallocs: ms.Mallocs}
	m.cpu, m.cpuOK = cpuTime()
	return m
}

func (m benchMeter) report(b *testing.B, urls, plain int) {
	cpu, ok := cpuTime()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	total := float64(b.N) * float64(urls)
	b.ReportMetric(float64(ms.Mallocs-m.mallocs)/total, "allocs/URL")
	if ok && m.cpuOK && cpu > m.cpu {
		perOp := float64(cpu-m.cpu) / float64(b.N)
		b.ReportMetric(perOp/float64(urls), "cpu-ns/URL")
		b.ReportMetric(float64(plain)/perOp*1e3, "cpu-MB/s")
	}
}

func benchDecode(b *testing.B, data []byte, plain int) {
	b.SetBytes(int64(plain))
	b.ReportAllocs()
	var n int
	m := benchStart()
	for b.Loop() {
		dec := NewDecoder(bytes.NewReader(data), DecoderOptions{})
		n = 0
		for {
			_, err := dec.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			n++
		}
		if n != MaxURLs {
			b.Fatalf("read %d entries", n)
		}
	}
	m.report(b, n, plain)
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/URL")
}

// BenchmarkDecodeURLSet: the decoder on an uncompressed 50,000-URL sitemap
// (its <url> elements take the fast path of decode_fast.go).
//
//	go test -run '^$' -bench DecodeURLSet -cpu 1 -benchtime 20x .
func BenchmarkDecodeURLSet(b *testing.B) {
	data := benchSitemap50k()
	benchDecode(b, data, len(data))
}

// BenchmarkDecodeURLSetGzip: the same file gzip-compressed; MB/s counts
// the uncompressed XML.
func BenchmarkDecodeURLSetGzip(b *testing.B) {
	benchDecode(b, benchSitemap50kGzip(), len(benchSitemap50k()))
}

// BenchmarkDecodeEncodingXML is the comparison: a straightforward
// encoding/xml decoder (Token until <url>, then DecodeElement into a
// struct) on the same file, doing less work (no dates parsed, no checks).
func BenchmarkDecodeEncodingXML(b *testing.B) {
	data := benchSitemap50k()
	type xurl struct {
		Loc        string  `xml:"loc"`
		LastMod    string  `xml:"lastmod"`
		ChangeFreq string  `xml:"changefreq"`
		Priority   float64 `xml:"priority"`
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	var n int
	m := benchStart()
	for b.Loop() {
		dec := xml.NewDecoder(bytes.NewReader(data))
		n = 0
		for {
			tok, err := dec.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "url" {
				var u xurl
				if err := dec.DecodeElement(&u, &se); err != nil {
					b.Fatal(err)
				}
				n++
			}
		}
		if n != MaxURLs {
			b.Fatalf("read %d entries", n)
		}
	}
	m.report(b, n, len(data))
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/URL")
}
