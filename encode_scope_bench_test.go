package sitemap

import (
	"net/url"
	"testing"
	"time"
)

// BenchmarkAppendURLScope is BenchmarkAppendURL with a Scope, as the
// builder runs it: the L-09/L-15 scope check on every entry.
func BenchmarkAppendURLScope(b *testing.B) {
	sc, _ := url.Parse("https://www.example.com/")
	o := EncoderOptions{Scope: sc, Extensions: ExtAll}
	u := URL{Loc: "https://www.example.com/products/widget-123?color=blue&size=m",
		LastMod: Date{Time: time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC), Precision: PrecisionSecond}}
	dst := make([]byte, 0, 1024)
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

// BenchmarkCheckScope is the write-time check alone (no appending).
func BenchmarkCheckScope(b *testing.B) {
	sc, _ := url.Parse("https://www.example.com/")
	o := EncoderOptions{Scope: sc, Extensions: ExtAll}
	u := URL{Loc: "https://www.example.com/products/widget-123?color=blue&size=m",
		LastMod: Date{Time: time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC), Precision: PrecisionSecond}}
	b.ReportAllocs()
	for b.Loop() {
		if err := o.Check(&u); err != nil {
			b.Fatal(err)
		}
	}
}
