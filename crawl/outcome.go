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
}

// pageSize is how many rows Entries and Outcomes read from the crawl log
// per call.
const pageSize = 512
