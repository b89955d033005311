package sitemap

import (
	"testing"
)

// TestDecodeDeprecatedAreWarnings: deprecated extension tags and
// attributes are warnings (IM-03, V-02), and still read.
func TestDecodeDeprecatedAreWarnings(t *testing.T) {
	in := `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:video="http://www.google.com/schemas/sitemap-video/1.1" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"><url><loc>https://e.com/</loc>` +
		`<image:image><image:loc>https://e.com/i.jpg</image:loc><image:caption>c</image:caption><image:geo_location>g</image:geo_location><image:title>t</image:title><image:license>https://e.com/l</image:license></image:image>` +
		`<video:video><video:thumbnail_loc>https://e.com/t.jpg</video:thumbnail_loc><video:title>T</video:title><video:description>D</video:description><video:player_loc allow_embed="yes" autoplay="ap=1">https://e.com/p</video:player_loc>` +
		`<video:category>c</video:category><video:gallery_loc>https://e.com/g</video:gallery_loc><video:price currency="EUR">1</video:price><video:tvshow><video:show_title>S</video:show_title></video:tvshow></video:video></url></urlset>`
	r := decodeAll(t, []byte(in), DecoderOptions{})
	if r.count("IM-03") != 4 || r.count("V-02") != 6 {
		t.Errorf("IM-03 %d (want 4), V-02 %d (want 6)\n%s", r.count("IM-03"), r.count("V-02"), r.dump())
	}
	for _, d := range r.diags {
		if (d.Rule == "IM-03" || d.Rule == "V-02") && d.Severity != SeverityWarning {
			t.Errorf("%s is %v, want warning", d, d.Severity)
		}
	}
	if len(r.items) != 1 || r.items[0].URL.Images[0].Caption != "c" || r.items[0].URL.Videos[0].Category != "c" {
		t.Errorf("deprecated values not read: %+v", r.items)
	}
}
