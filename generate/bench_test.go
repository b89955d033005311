package generate

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"github.com/sitemapkit/sitemap/build"
	"github.com/sitemapkit/sitemap/source"
	"github.com/sitemapkit/sitemap/store"
)

// BenchmarkRun is `sitemap generate --gzip` on 200,000 URLs of text in
// memory, with and without duplicate skipping: reading, dedup, checks,
// encoding and gzip, publishing into a memory store.
func BenchmarkRun(b *testing.B) {
	const n = 200000
	var in bytes.Buffer
	for i := range n {
		fmt.Fprintf(&in, "https://www.example.com/products/category-%d/item-%d.html\n", i%97, i)
	}
	for _, keep := range []bool{false, true} {
		b.Run(fmt.Sprintf("keepDuplicates=%v", keep), func(b *testing.B) {
			b.SetBytes(int64(in.Len()))
			for b.Loop() {
				src := Read(bytes.NewReader(in.Bytes()), source.Options{Name: "urls.txt", Format: source.FormatText})
				sum, err := Run(context.Background(), src, Options{
					Out:            store.Memory(),
					Build:          build.Options{BaseURL: "https://www.example.com/", Gzip: true},
					KeepDuplicates: keep,
				})
				if err != nil || sum.URLs != n {
					b.Fatal(err, sum.URLs)
				}
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "URLs/s")
		})
	}
}
