package serve

import (
	"net/http/httptest"
	"strings"
	"testing"
)

// FuzzRequest feeds the parsers of a request (the file name, Accept,
// Accept-Encoding, If-None-Match, If-Modified-Since) and of the column
// mapping and lastmod values: none may panic, and a page name the handler
// accepts is one it would write.
func FuzzRequest(f *testing.F) {
	f.Add("sitemap-12.xml.gz", "text/html;q=0.9, */*;q=0.1", "gzip;q=0.5, br", `W/"x", "y"`, "Mon, 02 Jan 2006 15:04:05 GMT", "loc=url,lastmod=t")
	f.Add("sitemap.xml", "", "*;q=0", "*", "", "ext=j")
	f.Add("sitemap-0999999999.xml", ";;q=", ",,", "", "x", "=")
	h, err := NewHandler(Entries(nil, nil), Options{})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, name, accept, enc, inm, ims, cols string) {
		if id, gz, ok := h.name(name); ok && id > 0 && h.pageName(id, gz) != name {
			t.Fatalf("name %q parsed as page %d (gz %v), written %q", name, id, gz, h.pageName(id, gz))
		}
		r := httptest.NewRequest("GET", "http://www.example.com/sitemap.xml", nil)
		r.Header.Set("Accept", accept)
		r.Header.Set("Accept-Encoding", enc)
		r.Header.Set("Sec-Fetch-Dest", "document")
		r.Header.Set("If-None-Match", inm)
		r.Header.Set("If-Modified-Since", ims)
		wantsHTML(r)
		acceptsGzip(r)
		if q := qValue(accept, "text/html"); q > 1 || q < -1 {
			t.Fatalf("q %v", q)
		}
		notModified(r, `"e"`, dateOf(ims))
		if c, err := ParseColumns(cols); err == nil && strings.Contains(c.Loc+c.LastMod+c.ChangeFreq+c.Priority+c.Ext, ",") {
			t.Fatalf("column name with a comma: %+v", c)
		}
		dateOf([]byte(ims))
	})
}
