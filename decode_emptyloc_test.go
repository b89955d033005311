package sitemap

import (
	"strings"
	"testing"
)

// TestDecodeEmptyLocOneX04: a <loc> left empty (blank, or by a dropped
// entity) is one X-04 that skips the entry, after the XML-03 that dropped
// the entity; not "empty <loc>" and "<url> without <loc>" both.
func TestDecodeEmptyLocOneX04(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string
		msg      string // substring of the X-04 message
		items    int
	}{
		{"entity", urlsetDoc(`<url><loc>&x;</loc></url>`), []string{"error XML-03", "error X-04"}, "&x;", 0},
		{"bad char ref", urlsetDoc(`<url><loc>&#1;</loc></url><url><loc>https://e.com/b</loc></url>`), []string{"error E-03", "error X-04"}, "&#1;", 1},
		{"blank", urlsetDoc(`<url><loc>  </loc></url>`), []string{"warning X-12", "error X-04"}, "empty <loc>", 0},
		{"index", `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>&x;</loc></sitemap></sitemapindex>`, []string{"error XML-03", "error X-04"}, "&x;", 0},
		{"entity elsewhere does not explain an empty loc", urlsetDoc(`<url><lastmod>&x;</lastmod><loc></loc></url>`), []string{"error XML-03", "error M-01", "error X-06", "error X-04"}, "empty <loc>;", 0},
		{"empty loc then a loc", urlsetDoc(`<url><loc></loc><loc>https://e.com/a</loc></url>`), []string{"error X-04"}, "the next <loc> is read", 1},
		{"empty loc and bare text", urlsetDoc(`<url><loc></loc>https://e.com/a</url>`), []string{"error X-04"}, "has an empty <loc>; its bare text", 1},
		{"no loc at all", urlsetDoc(`<url><lastmod>2024-01-01</lastmod></url>`), []string{"error X-04"}, "without <loc>", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := decodeAll(t, []byte(tt.in), DecoderOptions{})
			if got, want := strings.Join(r.rules(), ","), strings.Join(tt.want, ","); got != want {
				t.Errorf("diagnostics [%s], want [%s]\n%s", got, want, r.dump())
			}
			if len(r.items) != tt.items {
				t.Errorf("items %d, want %d", len(r.items), tt.items)
			}
			for _, d := range r.diags {
				if d.Rule == "X-04" && (!strings.Contains(d.Message, tt.msg) || tt.items == 0 && !strings.Contains(d.Message, "skipped")) {
					t.Errorf("X-04 %q does not say %q (and that the entry is skipped)", d.Message, tt.msg)
				}
			}
		})
	}
	r := decodeFile(t, "testdata/hostile/xxe.xml")
	if got := strings.Join(r.rules(), ","); got != "warning XML-02,error XML-03,error X-04" || len(r.items) != 1 {
		t.Errorf("xxe.xml: [%s], %d items\n%s", got, len(r.items), r.dump())
	}
}

// TestDecodeSkippedEntryNotYielded: an entry skipped for want of a loc
// is never returned, so nothing downstream counts it, and it does
// not use up MaxEntries (LIM-02). (xxe.xml holds two <url>: the one whose
// loc is an XXE entity is skipped, the other is read; "1 URL" is right.)
func TestDecodeSkippedEntryNotYielded(t *testing.T) {
	in := urlsetDoc(`<url><loc>&x;</loc></url><url><lastmod>2024-01-01</lastmod></url><url><loc>https://e.com/ok</loc></url>`)
	r := decodeAll(t, []byte(in), DecoderOptions{MaxEntries: 1})
	if r.err != nil || len(r.items) != 1 || r.items[0].URL.Loc != "https://e.com/ok" || r.has(RuleMaxCount) {
		t.Fatalf("err %v items %+v\n%s", r.err, r.items, r.dump())
	}
	if r.count("X-04") != 2 {
		t.Errorf("X-04 %d, want 2\n%s", r.count("X-04"), r.dump())
	}
	r = decodeAll(t, []byte(urlsetDoc(`<url><loc>&x;</loc></url>`)), DecoderOptions{})
	if r.err != nil || len(r.items) != 0 || r.has("X-07") {
		t.Errorf("a lone skipped <url>: err %v items %d (the urlset is not empty: no X-07)\n%s", r.err, len(r.items), r.dump())
	}
}
