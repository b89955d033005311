package crawl

// Outcome is one line of the crawl report: a URL seen and what became of
// it.
type Outcome struct {
	URL string `json:"url"`
	// Status is the HTTP status of the last response; 0 when the URL was
	// not fetched.
	Status   int  `json:"status,omitempty"`
	Included bool `json:"included"`
	// Reason says why the URL is not in the sitemap (see the package
	// documentation); empty when it is.
	Reason string `json:"reason,omitempty"`
	Depth  int    `json:"depth"`
	// From is the page that linked to the URL (the sitemap that listed it,
	// for a seed); empty for the start URL.
	From string `json:"from,omitempty"`
	// Title is the page's <title>, when it was fetched and had one.
	Title string `json:"title,omitempty"`
	// Inlinks counts the other pages of the crawl that link or redirect
	// to the URL (see [state.CrawlOutcome]); 0 for the start URL and for
	// a page found only through a sitemap and linked from nowhere (an
	// orphan).
	Inlinks int `json:"inlinks,omitempty"`
	// Clicks is the click depth from the start URL: the fewest links to
	// follow to reach the URL; -1 when no chain of links reaches it (see
	// [state.CrawlOutcome]). Depth is the crawl's depth, at which a URL
	// listed in a seed sitemap is 0.
	Clicks int `json:"clicks"`
	// Render is what rendering the page revealed (Options.Render); nil
	// when it was not rendered.
	Render *RenderFacts `json:"render,omitempty"`
}

// pageSize is how many rows Entries and Outcomes read from the crawl log
// per call.
const pageSize = 512
