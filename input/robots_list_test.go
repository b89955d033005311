package input_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/sitemapkit/sitemap/input"
)

// ListRobots refuses a format or timeout it has no meaning for, says a
// file it cannot read, and answers a 404 in json with the same document
// shape as any other answer.
func TestListRobots(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	defer srv.Close()
	for _, c := range []struct {
		name, target string
		o            input.RobotsListOptions
		problems     bool
		err, out     string
	}{
		{"format", "-", input.RobotsListOptions{Format: "xml", Timeout: time.Second}, false, `--format "xml": want text, json or jsonl`, ""},
		{"timeout", "-", input.RobotsListOptions{Format: "text"}, false, "--timeout 0s: use a positive duration, such as 30s", ""},
		{"missing", "no-such-robots.txt", input.RobotsListOptions{Format: "text", Timeout: time.Second}, false, "no-such-robots.txt: no such file", ""},
		{"404 json", srv.URL + "/robots.txt", input.RobotsListOptions{Format: "json", Timeout: 10 * time.Second}, true, "", `"sitemaps": []`},
		{"clean", "-", input.RobotsListOptions{Format: "text", Timeout: time.Second, Stdin: strings.NewReader("Sitemap: https://e.com/s.xml\n")}, false, "", "https://e.com/s.xml\n"},
	} {
		var out, diag strings.Builder
		problems, err := input.ListRobots(context.Background(), c.target, c.o, &out, &diag)
		if problems != c.problems || (err == nil) != (c.err == "") || (err != nil && err.Error() != c.err) || !strings.Contains(out.String(), c.out) {
			t.Errorf("%s: problems %v, err %v, out %q", c.name, problems, err, out.String())
		}
	}
}
