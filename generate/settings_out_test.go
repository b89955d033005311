package generate_test

import (
	"testing"

	"github.com/sitemapkit/sitemap/build"
	"github.com/sitemapkit/sitemap/generate"
)

// TestSettingsOutStdout: Out "-" alone is standard output (ToWriter) for
// every check that depends on it; the settings had a ToWriter field of
// their own, set apart from Out, and a caller that set Out "-" only had
// a shard taken for standard output.
func TestSettingsOutStdout(t *testing.T) {
	for _, c := range []struct {
		out, shard string
		toWriter   bool
		refused    bool
	}{
		{"-", "", true, false},
		{"-", "1/2", true, true},
		{"public", "1/2", false, false},
		{"s3://bucket/site", "1/2", false, false},
		{"", "", false, false},
	} {
		s := generate.Settings{Output: build.DefaultSettings(), BaseURL: "https://www.example.com/", Out: c.out, Shard: c.shard}
		_, err := s.Options()
		if s.ToWriter() != c.toWriter || (err != nil) != c.refused {
			t.Errorf("Out %q, Shard %q: ToWriter %v, Options error %v; want %v, refused %v", c.out, c.shard, s.ToWriter(), err, c.toWriter, c.refused)
		}
	}
}
