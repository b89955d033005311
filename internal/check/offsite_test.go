package check

import (
	"strings"
	"testing"
)

func TestOffSite(t *testing.T) {
	msg := OffSite("https://cdn.example.net/s.xml", "https://WWW.example.com:443/i.xml", OffSiteHint("https://cdn.example.net/s.xml", false, "", false))
	if want := "child sitemap https://cdn.example.net/s.xml is on another site than the index (https://www.example.com); "; !strings.HasPrefix(msg, want) {
		t.Errorf("OffSite = %q, want it to start %q", msg, want)
	}
	if !strings.HasSuffix(msg, "not followed (--allow-off-site follows it)") {
		t.Errorf("OffSite = %q, want the hint at its end", msg)
	}
	if h := OffSiteHint("https://CDN.example.net/s.xml", true, "another site", false); !strings.Contains(h, "--allow-host cdn.example.net lets it through") {
		t.Errorf("OffSiteHint = %q", h)
	}
}
