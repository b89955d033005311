package generate

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/build"
	"github.com/sitemapkit/sitemap/rules"
	"github.com/sitemapkit/sitemap/store"
	"github.com/sitemapkit/sitemap/validate"
)

// validateClean validates the one sitemap st holds and fails on any
// hreflang finding.
func validateClean(t *testing.T, st *store.MemStore) {
	t.Helper()
	var bad []string
	_, err := validate.Document(context.Background(), bytes.NewReader(st.Bytes("sitemap.xml")), validate.Options{Name: "sitemap.xml"}, func(d sitemap.Diagnostic) {
		if strings.HasPrefix(string(d.Rule), "H-") && d.Severity != sitemap.SeverityInfo {
			bad = append(bad, d.String())
		}
	})
	if err != nil || len(bad) > 0 {
		t.Errorf("validate: %v; %d hreflang findings, first: %v", err, len(bad), bad[:min(3, len(bad))])
	}
}

func alts(pairs ...string) string {
	var b []string
	for i := 0; i+1 < len(pairs); i += 2 {
		b = append(b, fmt.Sprintf(`{"hreflang":%q,"href":%q}`, pairs[i], base+pairs[i+1]))
	}
	return `"alternates":[` + strings.Join(b, ",") + `]`
}

// The cluster: / lists en, fr and x-default, /fr/ only en and
// fr. validate rejected the output (H-08); now /fr/ gets the x-default,
// the output validates clean, and Strict refuses the repair instead.
func TestRunHreflangClusterCompleted(t *testing.T) {
	in := []string{
		`{"loc":"` + base + `",` + alts("en", "", "fr", "fr/", "x-default", "") + `}`,
		`{"loc":"` + base + `fr/",` + alts("en", "", "fr", "fr/") + `}`,
		`{"loc":"` + base + `about"}`,
	}
	st := store.Memory()
	var probs []Problem
	sum, err := Run(context.Background(), jsonl(in...), opts(st, &probs))
	if err != nil {
		t.Fatal(err)
	}
	xml := string(st.Bytes("sitemap.xml"))
	if sum.URLs != 3 || strings.Count(xml, `hreflang="x-default"`) != 2 || strings.Index(xml, "/about<") < strings.Index(xml, "/fr/<") {
		t.Fatalf("%+v\n%s\n%v", sum, xml, probs)
	}
	if r := repairsOf(sum); r["added H-04 alternates"] != 1 || len(probs) != 1 || probs[0].URL != base+"fr/" {
		t.Errorf("repairs %v, problems %v", r, probs)
	}
	validateClean(t, st)

	o := opts(store.Memory(), nil)
	o.Strict = true
	if _, err := Run(context.Background(), jsonl(in...), o); !errors.Is(err, ErrStrict) || !strings.Contains(err.Error(), "H-04") {
		t.Errorf("strict: %v", err)
	}
}

// What has no one right repair is dropped with a warning: two pages
// claiming "de" for different URLs, an alternate naming a page written
// before the first entry with alternates, a page nobody names that does
// not name itself. The output validates clean.
func TestRunHreflangDropped(t *testing.T) {
	in := []string{
		`{"loc":"` + base + `plain"}`,
		`{"loc":"` + base + `a",` + alts("en", "a", "de", "a-de", "fr", "plain") + `}`,
		`{"loc":"` + base + `a-de",` + alts("en", "a", "de", "a-de2") + `}`,
		`{"loc":"` + base + `lone",` + alts("es", "elsewhere") + `}`,
	}
	st := store.Memory()
	var probs []Problem
	sum, err := Run(context.Background(), jsonl(in...), opts(st, &probs))
	if err != nil {
		t.Fatal(err)
	}
	xml := string(st.Bytes("sitemap.xml"))
	if sum.URLs != 4 || strings.Contains(xml, `hreflang="de"`) || strings.Contains(xml, `hreflang="fr"`) || strings.Contains(xml, `hreflang="es"`) {
		t.Errorf("%s\n%v", xml, probs)
	}
	warned := 0
	for _, p := range probs {
		if p.Severity == sitemap.SeverityWarning && p.Rule == rules.H08 {
			warned++
		}
	}
	if warned != 5 { // a: de, fr; a-de: de; lone: es
		t.Errorf("%d warnings: %v", warned, probs)
	}
	validateClean(t, st)
}

// 100,000 alternates across 50,000 pages (25,000 en/fr pairs), 10 of
// whose fr pages do not link back: the 10 return links are added, the
// rest untouched, and the output validates clean.
func TestRunHreflangLargeCluster(t *testing.T) {
	const pairs = 25000
	planted := map[int]bool{}
	for i := range 10 {
		planted[i*2477+13] = true
	}
	var b bytes.Buffer
	for i := range pairs {
		en, fr := fmt.Sprintf("p/%d", i), fmt.Sprintf("fr/p/%d", i)
		fmt.Fprintf(&b, `{"loc":"%s%s",%s}`+"\n", base, en, alts("en", en, "fr", fr))
		if planted[i] {
			fmt.Fprintf(&b, `{"loc":"%s%s",%s}`+"\n", base, fr, alts("fr", fr, "de", fmt.Sprintf("de/p/%d", i)))
		} else {
			fmt.Fprintf(&b, `{"loc":"%s%s",%s}`+"\n", base, fr, alts("en", en, "fr", fr))
		}
	}
	st := store.Memory()
	var probs []Problem
	o := opts(st, &probs)
	o.Build = build.Options{BaseURL: base}
	sum, err := Run(context.Background(), jsonl(strings.Split(strings.TrimSpace(b.String()), "\n")...), o)
	if err != nil {
		t.Fatal(err)
	}
	if sum.URLs != 2*pairs {
		t.Fatalf("%d URLs", sum.URLs)
	}
	r := repairsOf(sum)
	// Each planted fr page gets its en link back, and the en page the
	// fr page's de alternate (the cluster's set).
	if r["added H-04 alternates"] != 20 || len(r) != 1 {
		t.Errorf("repairs %v; first problems %v", r, probs[:min(4, len(probs))])
	}
	validateClean(t, st)
}

// A page that names itself with a code keeps it against another page's
// claim of that code for a different URL: /en/a lists itself as en, /de/a
// names /en/b as en. /en/a used to lose all its alternates with a warning
// that it did not name itself; now /de/a's en is /en/a, and the output
// validates clean.
func TestRunHreflangSelfClaimWins(t *testing.T) {
	in := []string{
		`{"loc":"` + base + `en/a",` + alts("en", "en/a", "de", "de/a", "fr", "fr/a") + `}`,
		`{"loc":"` + base + `de/a",` + alts("de", "de/a", "en", "en/b") + `}`,
	}
	st := store.Memory()
	var probs []Problem
	if _, err := Run(context.Background(), jsonl(in...), opts(st, &probs)); err != nil {
		t.Fatal(err)
	}
	xml := string(st.Bytes("sitemap.xml"))
	if strings.Count(xml, `hreflang="en" href="`+base+`en/a"`) != 2 || strings.Count(xml, `hreflang="fr"`) != 2 || strings.Contains(xml, base+"en/b") {
		t.Errorf("%s\n%v", xml, probs)
	}
	for _, p := range probs {
		if p.Severity == sitemap.SeverityWarning && (p.URL != base+"de/a" || !strings.Contains(p.Message, "en/a names itself")) {
			t.Errorf("warning: %v", p)
		}
	}
	validateClean(t, st)
}
