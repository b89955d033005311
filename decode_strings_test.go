package sitemap

import (
	"fmt"
	"strings"
	"testing"
)

// TestDecodeStringsStayValid: the locs and extension values of every
// entry (cut from shared chunks, textArena) keep their text after many more
// entries are read, short and long ones alike.
func TestDecodeStringsStayValid(t *testing.T) {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">` + "\n")
	want := make([]string, 3000)
	for i := range want {
		want[i] = fmt.Sprintf("https://www.example.com/%d/%s", i, strings.Repeat("p", i%1500))
		fmt.Fprintf(&b, "<url><loc>%s</loc><image:image><image:loc>%s.jpg</image:loc></image:image></url>\n", want[i], want[i])
	}
	b.WriteString("</urlset>\n")
	r := decodeAll(t, []byte(b.String()), DecoderOptions{})
	if r.err != nil || len(r.items) != len(want) {
		t.Fatalf("read %d entries, err %v", len(r.items), r.err)
	}
	for i, it := range r.items {
		if it.URL.Loc != want[i] || len(it.URL.Images) != 1 || it.URL.Images[0].Loc != want[i]+".jpg" {
			t.Fatalf("entry %d: loc %.60q image %v, want %.60q", i, it.URL.Loc, it.URL.Images, want[i])
		}
	}
}
