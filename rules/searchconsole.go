package rules

// SearchConsoleMessage is one error or warning type of Google Search
// Console's sitemap report (and of its page indexing report where it is
// about sitemaps), with the rules that judge the same thing offline from
// the files and the site: `sitemap validate` of the file, or of the site
// for what needs its robots.txt.
type SearchConsoleMessage struct {
	// Message is Search Console's wording, as its report shows it.
	Message string
	// Severity is how Search Console reports it: Error or Warning.
	Severity Severity
	// IDs are the rules that say the same, the closest first.
	IDs []ID
}

// SearchConsole returns Search Console's sitemap report messages, each
// with the rule IDs that judge it offline. A new slice on each call.
func SearchConsole() []SearchConsoleMessage {
	return []SearchConsoleMessage{
		{"Couldn't fetch / Sitemap could not be read / HTTP error", Error, []ID{FetchHTTP, FetchBlocked, VAL01}},
		{"Temporary error", Error, []ID{FetchHTTP, FetchRead}},
		{"Unsupported file format / Sitemap is HTML / Parsing error", Error, []ID{F04, XML01, FetchType}},
		{"Compression error", Error, []ID{GZ01, GZ02}},
		{"Empty sitemap", Warning, []ID{X07, T01, X08}},
		{"Leading whitespace", Error, []ID{X09}},
		{"Incorrect namespace", Error, []ID{X03, EX04, LG03}},
		{"Missing XML tag", Error, []ID{X04, I02, N01, V01}},
		{"Invalid XML: too many tags", Error, []ID{X11}},
		{"Invalid XML tag / Invalid tag value", Error, []ID{X06, C01, P01, X12}},
		{"Missing XML attribute / Invalid attribute value", Error, []ID{H05, H06}},
		{"Invalid date", Error, []ID{M01, M04, D01, D02, I04, N04}},
		{"Invalid URL", Error, []ID{L01, L02, L07, L16, T02}},
		{"URL not allowed", Error, []ID{L09, L15, I05, I06}},
		{"Path mismatch (www and non-www, http and https)", Error, []ID{L08, L09, L12}},
		{"Too many URLs", Error, []ID{S01, S04, T03}},
		{"Exceeded maximum sitemap size / Sitemap file size error", Error, []ID{S02, S04}},
		{"Too many sitemaps in index", Error, []ID{S03}},
		{"Nested indexing / Nested sitemap index", Error, []ID{I07}},
		{"Encoding error / Unsupported encoding", Error, []ID{X01, E03, T04}},
		{"Sitemap contains URLs which are blocked by robots.txt / Submitted URL blocked by robots.txt", Warning, []ID{L20}},
		{"Duplicate URL", Warning, []ID{L17}},
		{"Invalid or missing publication name or language (news)", Error, []ID{N01, N02, N03}},
		{"Article too old / Old news (news)", Warning, []ID{N06, N11}},
		{"Too many news URLs (news)", Error, []ID{N10}},
		{"Missing video thumbnail / title / description, Invalid thumbnail URL (video)", Error, []ID{V01}},
		{"Video location is the same as the page URL (video)", Error, []ID{V06}},
		{"Thumbnail or video file blocked by robots.txt (video)", Warning, []ID{V05}},
		{"Too many images (image)", Error, []ID{IM02, S08}},
		{"hreflang: no return tags / missing self-reference", Error, []ID{H04, H03, H08}},
	}
}
