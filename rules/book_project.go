package rules

// The project's own families: problems the protocol has no number for.

var xmlRules = []Rule{
	{ID: "XML-01", Severity: Error, Level: Must, Source: srcXML, URL: urlXML,
		Title: "The document is well-formed XML: tags match, one root, prefixes declared, '<' and '&' escaped.",
		Fix:   "Fix the markup at the reported position; generate sitemaps with an XML writer rather than string templates."},
	{ID: "XML-02", Severity: Warning, Source: srcXML + "; a DOCTYPE can declare entities that expand without bound", URL: urlXML,
		Title: "A sitemap has no DOCTYPE; one is ignored and its entities are never expanded.",
		Fix:   "Remove the <!DOCTYPE …> declaration."},
	{ID: "XML-03", Severity: Error, Level: Must, Source: srcXML + "; only the five predefined entities and character references are read", URL: urlXML,
		Title: "Entity references other than &amp; &lt; &gt; &apos; &quot; and &#…; are not expanded.",
		Fix:   "Replace named HTML entities (&nbsp;, &eacute;) by the character itself or a numeric reference."},
	{ID: "XML-04", Severity: Error, Source: srcXML + "; the XSDs give these elements element-only content, so the schema rejects the text (a reader ignores it with a warning)",
		Title: "No text sits directly inside elements that hold only elements (<urlset>, <url>, <sitemap>, …).",
		Fix:   "Remove the stray text; put values inside their element."},
}

var limitRules = []Rule{
	{ID: "LIM-01", Severity: Error, Source: srcLimit,
		Title: "The reader stops after DecoderOptions.MaxBytes uncompressed bytes (a guard against gzip bombs).",
		Fix:   "No flag raises this limit: split the sitemap (S-02); a Go program that trusts the input raises DecoderOptions.MaxBytes."},
	{ID: "LIM-02", Severity: Error, Source: srcLimit,
		Title: "The reader stops after DecoderOptions.MaxEntries entries.",
		Fix:   "No flag raises this limit: split the sitemap (S-01); a Go program that trusts the input raises DecoderOptions.MaxEntries."},
	{ID: "LIM-03", Severity: Error, Source: srcLimit,
		Title: "The reader stops at elements nested deeper than DecoderOptions.MaxDepth.",
		Fix:   "A sitemap needs five levels; flatten the document, or (a Go program) raise DecoderOptions.MaxDepth."},
	{ID: "LIM-04", Severity: Error, Source: srcLimit,
		Title: "The reader stops at a value or text line longer than DecoderOptions.MaxLineBytes.",
		Fix:   "Check for a missing line break or closing tag; a Go program reading such values raises DecoderOptions.MaxLineBytes."},
	{ID: "LIM-05", Severity: Error, Source: srcLimit,
		Title: "The reader abandons a document after DecoderOptions.MaxErrors errors (--max-errors; default 100,000, two per URL a sitemap may hold): a file of junk is not reported line by line.",
		Fix:   "Check that the input is a sitemap and fix the first errors; raise the limit (--max-errors) to see every one."},
}

var gzipRules = []Rule{
	{ID: "GZ-01", Severity: Error, Source: srcT + ": a corrupt gzip stream cannot be read to its end", URL: urlGzip,
		Title: "A gzip-compressed sitemap is a complete, valid gzip stream.",
		Fix:   "Recompress the file and check that the upload or the server did not truncate it."},
	{ID: "GZ-02", Severity: Warning, Source: srcT + ": search engines decompress a .gz sitemap once", URL: urlGzip,
		Title: "A sitemap is compressed once, not twice (a gzip inside a gzip).",
		Fix:   "Compress the XML once; check that the server does not add Content-Encoding: gzip to a .gz file."},
}

var readRules = []Rule{
	{ID: "READ-01", Severity: Error, Source: srcT + ": an I/O error is not a finding about the document",
		Title: "The input could not be read (file system or network error); nothing is said about the document.",
		Fix:   "Check that the file exists and is readable, or that the URL answers; then run again."},
}

var valRules = []Rule{
	{ID: "VAL-01", Severity: Error, Source: srcT + ": an index is valid only if its children can be read",
		Title: "Every child sitemap an index lists could be read (and, for validate, checked).",
		Fix:   "Publish the missing child or remove it from the index; for local files, keep the children beside the index."},
	{ID: "VAL-02", Severity: Warning, Source: srcT + ": a bound on the work one run does",
		Title: "An index lists more children than --max-children; the rest were not read.",
		Fix:   "Raise --max-children to check them all."},
	{ID: "VAL-03", Severity: Warning, Source: srcT + ": readers that start at the index never see a file it does not list",
		Title: "Every sitemap of a directory named as a child of an index there (NAME-… beside NAME.xml) is listed by it.",
		Fix:   "Add the file to the index or remove it. sitemap generate keeps the children of the index it replaced until its next run, for readers that fetched that index, and removes them then; a killed run's files go the same way."},
}

var fetchRules = []Rule{
	{ID: "FETCH-NONE", Severity: Error, Source: srcT + ": discovery found nothing to read",
		Title: "No sitemap was found: robots.txt names none and no well-known path answered with one.",
		Fix:   "Add a Sitemap: line to robots.txt, or pass the sitemap's URL itself."},
	{ID: "FETCH-CAP", Severity: Warning, Source: srcT + ": the walk's bounds (files, URLs, time)",
		Title: "The walk stopped at one of its caps; the output is incomplete.",
		Fix:   "Raise the cap the message names (see `sitemap fetch --help`)."},
	{ID: "FETCH-HTTP", Severity: Error, Source: srcT + ": transport problems, kept apart from the document's own",
		Title: "A sitemap could not be fetched (HTTP error status, timeout, connection closed); retries and redirects are noted too.",
		Fix:   "Check the URL and the server; a 4xx means the URL is wrong or gone, a 5xx or timeout that the server is failing."},
	{ID: "FETCH-BLOCKED", Severity: Error, Source: srcT + ": what the server refuses cannot be read",
		Title: "The server refused the request (401, 403, or a bot block).",
		Fix:   "Allow the fetcher's User-Agent on the server, or fetch from an allowed network."},
	{ID: "FETCH-SCOPE", Severity: Error, Source: srcT + ": a program that fetches URLs it did not choose must not be steered into its own network (SSRF)",
		Title: "A URL, a redirect's target or the address it resolves to is outside the client's scope (same site, allow-list, no private addresses); it was not requested.",
		Fix:   "Widen the scope if the URL is wanted (--scope any, --allow-host HOST, without --no-private; fetch.Scope in Go), or remove the URL that points outside it."},
	{ID: "FETCH-TYPE", Severity: Info, Source: srcT + ": crawlers read by content, but a wrong type can confuse them",
		Title: "A sitemap was served with an HTML Content-Type.",
		Fix:   "Serve sitemaps as application/xml, text/xml, text/plain or application/gzip."},
	{ID: "FETCH-READ", Severity: Error, Source: srcT + ": a body that stops early loses the entries after it",
		Title: "A sitemap's body could not be read to its end; the entries before the problem were kept.",
		Fix:   "Run again; if it persists, check the server for truncated responses."},
	{ID: "FETCH-LOOP", Severity: Warning, Source: srcT + ": a loop would never end",
		Title: "An index lists itself or one of its ancestors; it is read once.",
		Fix:   "Remove the entry that points back up the tree."},
	{ID: "FETCH-DUP", Severity: Info, Source: srcT + ": every sitemap is read once",
		Title: "A sitemap is listed more than once (by two indexes, or robots.txt and an index); it is read once.",
		Fix:   "Nothing to do, or list each sitemap in one place."},
	{ID: "FETCH-ROBOTS", Severity: Warning, Source: srcT + ": discovery starts at robots.txt", URL: urlRFC9309,
		Title: "robots.txt could not be fetched or read to its end; discovery goes on without it.",
		Fix:   "Serve /robots.txt (a 404 is fine when there is none); check the server if it times out or fails."},
}

var diffRules = []Rule{
	{ID: "DIFF-01", Severity: Warning, Source: srcT + ": a directory is compared by its own files",
		Title: "An index in a compared directory lists a sitemap that is not in that directory; its URLs are not compared.",
		Fix:   "Copy the missing child into the directory, or compare the published URLs instead."},
	{ID: "DIFF-02", Severity: Error, Source: srcT + ": a change list is read record by record",
		Title: "A line of a change list (`sitemap diff --format jsonl`) that is not a change record with a known change and an http(s) loc is skipped; the other lines are read.",
		Fix:   "Feed the output of `sitemap diff --format jsonl` unchanged, one record a line."},
}
