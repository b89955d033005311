package robots

import (
	"os"
	"testing"
)

func benchFile(b *testing.B, name string) []byte {
	data, err := os.ReadFile("testdata/crawler-commons/" + name)
	if err != nil {
		b.Fatal(err)
	}
	return data
}

// BenchmarkAllowed checks URLs against Amazon's robots.txt (wildcards.txt:
// ~150 rules with '*' patterns) for a named crawler and for "*".
func BenchmarkAllowed(b *testing.B) {
	f := ParseBytes(benchFile(b, "wildcards.txt"))
	urls := []string{
		"https://www.amazon.com/gp/product/B000123/ref=x?ie=UTF8",
		"https://www.amazon.com/wishlist/universal/abc",
		"https://www.amazon.com/rss/people/bob/reviews",
		"/dp/B0069IY63Y/some/long/path/that/does/not/match/anything/at/all",
	}
	for _, ua := range []string{"Googlebot", "otherbot"} {
		b.Run(ua, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				f.Allowed(ua, urls[i%len(urls)])
			}
		})
	}
	b.Run("Group", func(b *testing.B) {
		g := f.Group("Googlebot")
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			g.Allowed(urls[i%len(urls)])
		}
	})
}

// BenchmarkParse parses a 13 KB file with 380 user-agent lines.
func BenchmarkParse(b *testing.B) {
	data := benchFile(b, "many-user-agents.txt")
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		ParseBytes(data)
	}
}
