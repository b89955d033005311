package audit

import (
	"encoding/json"

	"github.com/sitemapkit/sitemap/crawl"
	"github.com/sitemapkit/sitemap/internal/plural"
	"github.com/sitemapkit/sitemap/rules"
)

// renderFindings adds what rendering the page revealed (AUD-19 to AUD-26).
func renderFindings(rec *Record, f *crawl.RenderFacts) {
	if f == nil {
		return
	}
	if f.Error != "" {
		rec.add(rules.AUD26, "could not be rendered (%s); its HTML was read instead", f.Error)
		return
	}
	if f.Soft404 {
		rec.add(rules.AUD23, "answers 200 but renders an error page (a soft 404); answer 404, or remove it from the sitemap")
	}
	if f.Empty {
		rec.add(rules.AUD23, "answers 200 but renders nothing (no text, no link)")
	}
	switch f.Noindex {
	case "added":
		rec.add(rules.AUD20, "script adds noindex: the HTML says index, the rendered page noindex")
	case "removed":
		rec.add(rules.AUD20, "script removes noindex: the HTML says noindex, so the page may never be rendered")
	}
	if f.CanonicalChanged {
		rec.add(rules.AUD21, "script changes the canonical from %s to %s", orNone(f.RawCanonical), orNone(f.Canonical))
	}
	if f.JSLinks > 0 {
		rec.add(rules.AUD19, "%s only after rendering (the first: %s)", plural.Of(f.JSLinks, "link appears", "links appear"), f.JSLink)
	}
	if f.ConsoleErrors > 0 {
		rec.add(rules.AUD24, "%s (the first: %s)", plural.Of(f.ConsoleErrors, "console error", "console errors"), f.ConsoleError)
	}
	if f.FailedRequests > 0 {
		rec.add(rules.AUD25, "%s (the first: %s)", plural.Of(f.FailedRequests, "failed request", "failed requests"), f.FailedRequest)
	}
	if f.TimedOut {
		rec.add(rules.AUD26, "did not settle within the render wait; read as it was")
	}
	if f.TitleChanged {
		rec.add(rules.AUD22, "script changes the title from %q", f.RawTitle)
	}
}

// crawlRenderFindings adds the findings of the crawl's rendering of a
// page (state.CrawlOutcome.Render).
func crawlRenderFindings(rec *Record, facts string) {
	if facts == "" {
		return
	}
	var f crawl.RenderFacts
	if json.Unmarshal([]byte(facts), &f) == nil {
		renderFindings(rec, &f)
	}
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}
