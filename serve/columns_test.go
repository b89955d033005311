package serve

import (
	"strings"
	"testing"
)

// TestParseColumnsFieldTwice: a field mapped twice ("loc=url,loc=updated_at",
// a slip for lastmod=) is refused; the last mapping won, and the dates
// were served as relative locs.
func TestParseColumnsFieldTwice(t *testing.T) {
	for _, s := range []string{"loc=url,loc=updated_at", "lastmod=a,loc=u,lastmod=b", "ext=a,json=b"} {
		if _, err := ParseColumns(s); err == nil || !strings.Contains(err.Error(), "twice") {
			t.Errorf("ParseColumns(%q) = %v; want an error saying a field is mapped twice", s, err)
		}
	}
	if c, err := ParseColumns("loc=url, lastmod=updated_at"); err != nil || c.Loc != "url" || c.LastMod != "updated_at" {
		t.Errorf("ParseColumns: %+v, %v", c, err)
	}
}
