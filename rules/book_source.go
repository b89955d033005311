package rules

// The project's family about the entry records generate reads (package
// source): a URL list, CSV or JSONL; and the rows serve reads as entry
// records (package serve).

var sourceRules = []Rule{
	{ID: "SRC-01", Severity: Error, Source: srcT + ": generate's JSONL input is read line by line",
		Title: "A line of a JSONL input is one JSON object, an entry record: {\"loc\": …} with the record's fields and types.",
		Fix:   "Fix the JSON at the reported column (a missing quote or comma, a stray bracket); write one object per line, like {\"loc\":\"https://www.example.com/\"}."},
	{ID: "SRC-02", Severity: Error, Source: srcT + ": generate finds a CSV's fields by its header row",
		Title: "A CSV input starts with a header row naming the loc column (loc, URL, Address or Page, or the column a --columns mapping names), each column once.",
		Fix:   "Add or fix the header row, or say which column holds the URLs: --columns loc=NAME."},
	{ID: "SRC-03", Severity: Error, Source: srcT + ": RFC 4180, as CSV exports write it",
		Title: "A quoted CSV field is closed by its quote before the end of the file.",
		Fix:   "Add the closing '\"' to the field at the reported position (a quote inside a field is written twice: \"\")."},
	{ID: "SRC-04", Severity: Warning, Source: srcT + ": a field generate does not know is not published, so it is said once",
		Title: "Columns and fields the entry record does not define are ignored (a JSONL field named as another tool names it, such as url or lastMod, is pointed to the record's name).",
		Fix:   "Rename the field or column to the record's (loc, lastmod, changefreq, priority, images, videos, news, alternates), or drop it."},
	{ID: "SRC-05", Severity: Warning, Source: srcT + ": a column mapping names CSV header columns",
		Title: "A column mapping (generate --columns) applies to CSV inputs only: a URL list has no columns and a JSONL record names its fields by their keys, so the mapping is ignored for them.",
		Fix:   "Rename the JSONL keys to the record's (loc, lastmod, …), or give the input as CSV with a header row; leave --columns out for inputs that are not CSV."},
	{ID: "SRC-06", Severity: Warning, Source: srcT + ": serve reads each row of a table or query as an entry record, one value at a time",
		Title: "The ext column of a SQL source (serve --columns ext=COLUMN) holds NULL or one JSON object of the entry record's extension fields: {\"images\": […], \"videos\": […], \"news\": {…}, \"alternates\": […]}.",
		Fix:   "Store a JSON object (or NULL) in the column; a value that is not one is left out, and the row served without its extensions."},
	{ID: "SRC-07", Severity: Info, Source: srcT + ", from L-03 and Google's guidance to list only the canonical URLs that answer 200: a crawler export's status column says which pages answer",
		Title: "A row of a crawler export whose status column (Status Code, HTTP Status Code, …) is not 200 is left out of the sitemap and counted: a redirect, an error or a page blocked from the crawl is not a page to index.",
		Fix:   "Nothing to do when the export is right; list the page's final URL instead of a redirecting one, or pass --all-rows to publish every row."},
	{ID: "SRC-08", Severity: Info, Source: srcT + ", from Google's guidance: a sitemap lists the pages you want indexed",
		Title: "A row of a crawler export whose indexability column (Indexability, Indexable, Is indexable page, …) says the page is not indexable (noindex, canonicalised, blocked) is left out of the sitemap and counted.",
		Fix:   "Nothing to do when the page is meant to stay out of the index; otherwise remove its noindex or canonical elsewhere, or pass --all-rows to publish every row."},
	{ID: "SRC-09", Severity: Info, Source: srcT + ", from Google's guidance: a sitemap lists canonical URLs",
		Title: "A row of a crawler export whose canonical column (Canonical Link Element 1, Canonical URL, …) names another URL is left out of the sitemap and counted; the canonical page is the one to list.",
		Fix:   "List the canonical URL instead (it is usually a row of the export too), or pass --all-rows to publish every row."},
}
