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
}
