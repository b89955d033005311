package site

import "testing"

func TestDisplay(t *testing.T) {
	for raw, want := range map[string]string{
		"https://www.example.com/sitemap.xml": "https://www.example.com",
		"https://WWW.Example.com:443/s.xml":   "https://www.example.com",
		"http://www.example.com:80/s.xml":     "http://www.example.com",
		"http://127.0.0.1:8080/s.xml":         "http://127.0.0.1:8080",
		"https://www.example.com:80/s.xml":    "https://www.example.com:80",
		"http://www.example.com:443/s.xml":    "http://www.example.com:443",
		"https://www.example.com./s.xml":      "https://www.example.com.",
	} {
		if got := Display(raw); got != want {
			t.Errorf("Display(%q) = %q, want %q", raw, got, want)
		}
	}
	msg := OffSite("https://cdn.example.net/s.xml", "https://www.example.com/i.xml", OffSiteHint("https://cdn.example.net/s.xml", false, "", false))
	if want := "child sitemap https://cdn.example.net/s.xml is on another site than the index (https://www.example.com); "; msg[:len(want)] != want {
		t.Errorf("OffSite = %q, want it to start %q", msg, want)
	}
}
