package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
)

// A robots.txt URL answering 404 gives, with --format json, the same
// document shape as any other answer: the robots.txt URL, no sitemaps, and
// one RB-02 warning saying there is no robots.txt (exit status 1).
func TestRobotsList404JSONShape(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	defer srv.Close()
	code, out, _ := runCLI(t, "", "robots", "list", "--format", "json", srv.URL+"/")
	var doc struct {
		Robots   string   `json:"robots"`
		Sitemaps []string `json:"sitemaps"`
		Warnings []struct {
			Rule string `json:"rule"`
			URL  string `json:"url"`
		} `json:"warnings"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("json: %v\n%s", err, out)
	}
	if code != exitProblems || doc.Robots != srv.URL+"/robots.txt" || doc.Sitemaps == nil || len(doc.Sitemaps) != 0 ||
		len(doc.Warnings) != 1 || doc.Warnings[0].Rule != "RB-02" || doc.Warnings[0].URL != srv.URL+"/robots.txt" {
		t.Fatalf("code %d, doc %+v\n%s", code, doc, out)
	}
}
