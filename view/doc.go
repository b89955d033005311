// Package view writes the pages people read about sitemaps: the HTML view
// of one sitemap or sitemap index ([URLSet], [Index]), what `sitemap html`
// and the serve handler show a browser now that browsers are dropping XSLT,
// and the site map pages for a site's visitors ([Pages]).
//
// Every page is self-contained and static: one HTML file with its
// stylesheet inline, no script, no request to anywhere. It is accessible by
// construction: a lang attribute, header/main/nav/footer landmarks, one h1
// and headings in order, tables with captions and column headers, links
// whose text names them. Values are escaped; a loc that is not an http(s)
// URL is shown as text, never as a link.
//
// Writers stream: an entry is written when it is read, so memory does not
// grow with the number of entries, and a write error or a done context
// stops the writing with that error (the page is then cut short).
package view
