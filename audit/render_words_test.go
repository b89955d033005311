package audit

import (
	"strings"
	"testing"

	"github.com/sitemapkit/sitemap/crawl"
)

// TestRenderFindingWords: the counts of the render findings are worded
// for one and for many ("1 link appears", "2 links appear").
func TestRenderFindingWords(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want []string
	}{
		{1, []string{"1 link appears only", "1 console error (", "1 failed request ("}},
		{2, []string{"2 links appear only", "2 console errors (", "2 failed requests ("}},
	} {
		var rec Record
		renderFindings(&rec, &crawl.RenderFacts{JSLinks: tc.n, JSLink: "u", ConsoleErrors: tc.n, ConsoleError: "e", FailedRequests: tc.n, FailedRequest: "r"})
		var all []string
		for _, f := range rec.Findings {
			all = append(all, f.Message)
		}
		got := strings.Join(all, "\n")
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("n=%d: findings\n%s\nsay nothing like %q", tc.n, got, w)
			}
		}
	}
}
