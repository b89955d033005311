package source

import (
	"bytes"
	"fmt"
	"io"
	"testing"
)

func benchInput(n int, line func(i int) string) []byte {
	var b bytes.Buffer
	for i := 0; i < n; i++ {
		b.WriteString(line(i))
		b.WriteByte('\n')
	}
	return b.Bytes()
}

func benchRead(b *testing.B, in []byte, n int, newR func(io.Reader, Options) Reader) {
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		r := newR(bytes.NewReader(in), Options{})
		got := 0
		for {
			_, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			got++
		}
		if got != n {
			b.Fatalf("read %d records, want %d", got, n)
		}
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "lines/s")
}

const benchN = 100000

func BenchmarkText(b *testing.B) {
	in := benchInput(benchN, func(i int) string { return fmt.Sprintf("https://www.example.com/products/item-%d?ref=sitemap", i) })
	benchRead(b, in, benchN, NewText)
}

func BenchmarkCSV(b *testing.B) {
	in := append([]byte("loc,lastmod,changefreq,priority\n"), benchInput(benchN, func(i int) string {
		return fmt.Sprintf("https://www.example.com/products/item-%d,2026-11-02T10:00:00Z,weekly,0.8", i)
	})...)
	benchRead(b, in, benchN, NewCSV)
}

func BenchmarkJSONL(b *testing.B) {
	in := benchInput(benchN, func(i int) string {
		return fmt.Sprintf(`{"loc":"https://www.example.com/products/item-%d","lastmod":"2026-11-02T10:00:00Z","images":[{"loc":"https://cdn.example.com/%d.jpg"}]}`, i, i)
	})
	benchRead(b, in, benchN, NewJSONL)
}
