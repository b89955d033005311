package main

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/internal/check"
	"github.com/sitemapkit/sitemap/source"
	"github.com/sitemapkit/sitemap/validate"
)

// verdictBase is the site every row of the verdict table is generated for
// and validated against.
const verdictBase = "https://www.example.com/"

// verdictRow is one tricky value: an entry record (JSONL) holding it, and
// the verdict every path must give it.
type verdictRow struct {
	name string
	rec  string // the entry record, one JSON object
	// rule is the rule the value breaks ("" when it is clean everywhere).
	rule string
	// refuse: the encoder refuses the entry (generate leaves it out).
	// Otherwise a rule is one the encoder repairs losslessly (a minute
	// time written with ":00" seconds) and the validator warns about.
	refuse bool
	// sev is validate's severity for rule.
	sev sitemap.Severity
	// repaired: the decoder reads the value in a repaired form (lowercase
	// changefreq) or drops it (a priority out of range), reporting rule
	// itself, so sitemap parse | sitemap generate publishes the entry.
	repaired bool
	// skipped: the decoder skips the entry, reporting rule itself (an
	// entry's URL that is not an absolute http(s) URL: decode_loc.go), so
	// sitemap parse prints nothing for it and sitemap parse | sitemap
	// generate has nothing to publish.
	skipped bool
	// advice, when set, must be part of every path's message (besides the
	// encoder's own message, which every path must repeat).
	advice string
	// also are rules validate may report besides rule: the ones a value
	// breaks after the first (the encoder stops at the first), and
	// warnings about deprecated tags the encoder writes only with
	// --legacy.
	also []string
	// raw sets the value again after the entry record is read, for a value
	// the input reader repairs (changefreq in another case, C-04: the
	// parser reads it case-insensitively), so that (a) and (b) see it as
	// written; generate, reading the record, publishes the entry.
	raw func(*sitemap.URL)
}

func page(fields string) string {
	if fields == "" {
		return `{"loc":"https://www.example.com/page"}`
	}
	return `{"loc":"https://www.example.com/page",` + fields + `}`
}

func locRec(loc string) string { return `{"loc":` + strconv.Quote(loc) + `}` }

func verdictRows(now time.Time) []verdictRow {
	news := func(lang string) string {
		return `"news":{"publication":{"name":"The Daily","language":` + strconv.Quote(lang) + `},"publication_date":"` +
			now.Add(-time.Hour).Format(time.RFC3339) + `","title":"Headline"}`
	}
	video := func(extra string) string {
		v := `"thumbnail_loc":"https://www.example.com/t.jpg","title":"Grilling","description":"How to grill","content_loc":"https://www.example.com/v.mp4"`
		if extra != "" {
			v += "," + extra
		}
		return `"videos":[{` + v + `}]`
	}
	long := verdictBase + strings.Repeat("a", 2100-len(verdictBase))
	at2048 := verdictBase + strings.Repeat("a", 2048-len(verdictBase))
	E, W := sitemap.SeverityError, sitemap.SeverityWarning
	return []verdictRow{
		// URLs.
		{name: "plain", rec: page("")},
		{name: "query and one fragment", rec: locRec("https://www.example.com/a?x=1&y=2#top")},
		{name: "percent-escapes kept", rec: locRec("https://www.example.com/%C3%BCmlat.php")},
		{name: "default port", rec: locRec("https://www.example.com:443/a")},
		{name: "upper-case scheme and host", rec: locRec("HTTPS://WWW.EXAMPLE.COM/a")},
		{name: "user info", rec: locRec("https://user@www.example.com/"), rule: "L-07", refuse: true, sev: E, advice: "without it"},
		{name: "user info, other host", rec: locRec("https://user@host/"), rule: "L-07", refuse: true, sev: E},
		{name: "user and password", rec: locRec("https://u:pw@www.example.com/a"), rule: "L-07", refuse: true, sev: E},
		{name: "two fragments", rec: locRec("https://www.example.com/u#a#b"), rule: "L-07", refuse: true, sev: E, advice: "%23"},
		{name: "trailing-dot host", rec: locRec("https://www.example.com./k"), rule: "L-09", refuse: true, sev: E},
		{name: "port 0", rec: locRec("https://www.example.com:0/k"), rule: "L-07", refuse: true, sev: E, advice: "1–65535"},
		{name: "port 65536", rec: locRec("https://www.example.com:65536/k"), rule: "L-07", refuse: true, sev: E},
		{name: "other port", rec: locRec("https://www.example.com:8443/k"), rule: "L-09", refuse: true, sev: E},
		{name: "empty port", rec: locRec("https://www.example.com:/k"), rule: "L-07", refuse: true, sev: E},
		{name: "IDNA host", rec: locRec("https://bücher.example/"), rule: "L-07", refuse: true, sev: E, advice: "punycode: \"https://xn--bcher-kva.example/\""},
		{name: "IDNA host on the site's domain", rec: locRec("https://www.exämple.com/a"), rule: "L-07", refuse: true, sev: E, advice: "punycode"},
		{name: "punycode host elsewhere", rec: locRec("https://xn--bcher-kva.example/"), rule: "L-09", refuse: true, sev: E},
		{name: "other host", rec: locRec("https://example.com/a"), rule: "L-09", refuse: true, sev: E},
		{name: "other scheme", rec: locRec("http://www.example.com/a"), rule: "L-09", refuse: true, sev: E},
		{name: "space", rec: locRec("https://www.example.com/a b"), rule: "L-07", refuse: true, sev: E, advice: "%20"},
		{name: "less-than", rec: locRec("https://www.example.com/a<b"), rule: "L-07", refuse: true, sev: E, advice: "%3C"},
		{name: "quote", rec: locRec(`https://www.example.com/a"b`), rule: "L-07", refuse: true, sev: E, advice: "%22"},
		{name: "non-ASCII path", rec: locRec("https://www.example.com/ümlat.php"), rule: "L-07", refuse: true, sev: E, advice: "%C3%BC"},
		{name: "bad escape", rec: locRec("https://www.example.com/100%"), rule: "L-07", refuse: true, sev: E, advice: "%25"},
		{name: "bad hex", rec: locRec("https://www.example.com/%zz"), rule: "L-07", refuse: true, sev: E},
		{name: "ftp", rec: locRec("ftp://www.example.com/a"), rule: "L-16", refuse: true, sev: E, skipped: true},
		{name: "mailto", rec: locRec("mailto:someone@example.com"), rule: "L-16", refuse: true, sev: E, skipped: true},
		{name: "no scheme", rec: locRec("www.example.com/page.html"), rule: "L-01", refuse: true, sev: E, skipped: true},
		{name: "IPv6 without bracket", rec: locRec("https://[2001:db8::1/a"), rule: "L-07", refuse: true, sev: E},
		{name: "over-long", rec: locRec(long), rule: "L-06", refuse: true, sev: E, advice: "2,048"},
		{name: "exactly 2,048", rec: locRec(at2048), rule: "L-06", refuse: true, sev: W},
		{name: "white space around", rec: locRec(" https://www.example.com/x\t"), rule: "X-12", refuse: true, sev: W, repaired: true, advice: "trim it"},
		{name: "too short", rec: locRec("http://a.b/"), rule: "L-06", refuse: true, sev: E, also: []string{"L-09"}},
		// Dates.
		{name: "day", rec: page(`"lastmod":"2026-11-02"`)},
		{name: "seconds and offset", rec: page(`"lastmod":"2026-11-02T10:00:00+01:00"`)},
		{name: "year only", rec: page(`"lastmod":"2005"`), rule: "M-04", refuse: true, sev: W},
		{name: "year and month", rec: page(`"lastmod":"2005-01"`), rule: "M-04", refuse: true, sev: W},
		{name: "year 0000", rec: page(`"lastmod":"0000-01-01"`), rule: "M-01", refuse: true, sev: E, also: []string{"M-07"}},
		{name: "minutes only", rec: page(`"lastmod":"2005-01-01T10:00Z"`), rule: "M-04", sev: W},
		{name: "video expiration year and month", rec: page(video(`"expiration_date":"2027-01"`)), rule: "M-04", refuse: true, sev: W},
		{name: "news date without seconds", rec: page(`"news":{"publication":{"name":"The Daily","language":"en"},"publication_date":"` +
			now.Add(-time.Hour).Format("2006-01-02T15:04Z07:00") + `","title":"Headline"}`), rule: "M-04", sev: W},
		// changefreq and priority.
		{name: "changefreq", rec: page(`"changefreq":"daily"`)},
		{name: "changefreq case", rec: page(`"changefreq":"Daily"`), rule: "C-04", refuse: true, sev: E, repaired: true, advice: `write "daily"`,
			raw: func(u *sitemap.URL) { u.ChangeFreq = "Daily" }},
		{name: "priority 1", rec: page(`"priority":1`)},
		{name: "priority 1.5", rec: page(`"priority":1.5`), rule: "P-01", refuse: true, sev: E, repaired: true},
		// hreflang.
		{name: "hreflang en-GB", rec: page(`"alternates":[{"hreflang":"en-GB","href":"https://www.example.com/page"}]`)},
		{name: "hreflang zh-Hant-TW", rec: page(`"alternates":[{"hreflang":"zh-Hant-TW","href":"https://www.example.com/page"}]`)},
		{name: "hreflang es-419", rec: page(`"alternates":[{"hreflang":"es-419","href":"https://www.example.com/page"}]`)},
		{name: "hreflang x-default", rec: page(`"alternates":[{"hreflang":"x-default","href":"https://www.example.com/page"}]`)},
		{name: "hreflang region alone", rec: page(`"alternates":[{"hreflang":"GB","href":"https://www.example.com/page"}]`), rule: "H-06", refuse: true, sev: E},
		{name: "hreflang underscore", rec: page(`"alternates":[{"hreflang":"en_GB","href":"https://www.example.com/page"}]`), rule: "H-06", refuse: true, sev: E},
		{name: "hreflang unknown language", rec: page(`"alternates":[{"hreflang":"xx","href":"https://www.example.com/page"}]`), rule: "H-06", refuse: true, sev: E},
		{name: "hreflang relative href", rec: page(`"alternates":[{"hreflang":"en","href":"https://www.example.com/page"},{"hreflang":"de","href":"www.example.com/de/page"}]`), rule: "H-05", refuse: true, sev: E},
		{name: "hreflang twice", rec: page(`"alternates":[{"hreflang":"en","href":"https://www.example.com/page"},{"hreflang":"EN","href":"https://www.example.com/page"}]`), rule: "H-08", refuse: true, sev: E, advice: "one alternate"},
		{name: "x-default twice", rec: page(`"alternates":[{"hreflang":"x-default","href":"https://www.example.com/page"},{"hreflang":"X-Default","href":"https://www.example.com/page"}]`), rule: "H-08", refuse: true, sev: E, advice: "at most one x-default"},
		// News language.
		{name: "news en", rec: page(news("en"))},
		{name: "news zh-cn", rec: page(news("zh-cn"))},
		{name: "news pt-br", rec: page(news("pt-br")), rule: "N-03", refuse: true, sev: E, advice: `"pt"`},
		{name: "news EN", rec: page(news("EN")), rule: "N-03", refuse: true, sev: E},
		{name: "news english", rec: page(news("english")), rule: "N-03", refuse: true, sev: E},
		// Images.
		{name: "image", rec: page(`"images":[{"loc":"https://cdn.example.net/a.jpg"}]`)},
		{name: "image relative", rec: page(`"images":[{"loc":"cdn.example.net/a.jpg"}]`), rule: "IM-01", refuse: true, sev: E},
		{name: "image space", rec: page(`"images":[{"loc":"https://cdn.example.net/a b.jpg"}]`), rule: "L-07", refuse: true, sev: E, advice: "%20"},
		{name: "image licence", rec: page(`"images":[{"loc":"https://cdn.example.net/a.jpg","license":"https://www.example.com/licence"}]`), also: []string{"IM-03"}},
		{name: "image licence not a URL", rec: page(`"images":[{"loc":"https://cdn.example.net/a.jpg","license":"CC BY 4.0"}]`), rule: "IM-01", refuse: true, sev: E, also: []string{"IM-03"}},
		{name: "image licence IDNA host", rec: page(`"images":[{"loc":"https://cdn.example.net/a.jpg","license":"https://bücher.example/l"}]`), rule: "L-07", refuse: true, sev: E, advice: "punycode", also: []string{"IM-03"}},
		// Videos.
		{name: "video", rec: page(video(""))},
		{name: "video countries", rec: page(video(`"restriction":{"relationship":"allow","countries":"IE GB"}`))},
		{name: "video countries lowercase", rec: page(video(`"restriction":{"relationship":"allow","countries":"ie gb"}`)), rule: "V-01", refuse: true, sev: E},
		{name: "video platforms", rec: page(video(`"platform":{"relationship":"deny","platforms":"web tv"}`))},
		{name: "video platforms double space", rec: page(video(`"platform":{"relationship":"deny","platforms":"web  tv"}`)), rule: "V-01", refuse: true, sev: E},
		{name: "video platform unknown", rec: page(video(`"platform":{"relationship":"deny","platforms":"web phone"}`)), rule: "V-01", refuse: true, sev: E},
		{name: "video duration 0", rec: page(video(`"duration":0`)), rule: "V-01", refuse: true, sev: E},
		{name: "video rating 5.1", rec: page(video(`"rating":5.1`)), rule: "V-01", refuse: true, sev: E},
		{name: "video view count negative", rec: page(video(`"view_count":-1`)), rule: "V-01", refuse: true, sev: E},
		{name: "video title 101 characters", rec: page(`"videos":[{"thumbnail_loc":"https://www.example.com/t.jpg","title":"` + strings.Repeat("ü", 101) + `","description":"D","content_loc":"https://www.example.com/v.mp4"}]`), rule: "V-01", refuse: true, sev: E, advice: "101 characters"},
		{name: "video 33 tags", rec: page(video(`"tags":["t"` + strings.Repeat(`,"t"`, 32) + `]`)), rule: "V-06", refuse: true, sev: E},
		{name: "video uploader name 256", rec: page(video(`"uploader":{"name":"` + strings.Repeat("x", 256) + `"}`)), rule: "V-01", refuse: true, sev: E},
		{name: "video content_loc is loc", rec: page(`"videos":[{"thumbnail_loc":"https://www.example.com/t.jpg","title":"T","description":"D","content_loc":"https://www.example.com/page"}]`), rule: "V-06", refuse: true, sev: E},
		{name: "video uploader elsewhere", rec: page(video(`"uploader":{"name":"Me","info":"https://example.net/me"}`)), rule: "V-06", refuse: true, sev: E},
		{name: "video uploader on a sibling host", rec: page(video(`"uploader":{"name":"Me","info":"https://users.example.com/me"}`))},
	}
}

// TestVerdictTable runs every row of the table through (a) the encoder's
// checks (EncoderOptions.Check), (b) validate.Document on a sitemap
// holding the value, (c) sitemap generate, (d) sitemap parse | sitemap
// generate, and (e) sitemap validate: each gives the same verdict, names
// the same rule and repeats the encoder's message and advice.
func TestVerdictTable(t *testing.T) {
	now := time.Now().UTC().Truncate(time.Second)
	scope, _ := url.Parse(verdictBase)
	enc := sitemap.EncoderOptions{Extensions: sitemap.ExtAll, Legacy: true, Scope: scope}
	for _, row := range verdictRows(now) {
		t.Run(row.name, func(t *testing.T) {
			dir := t.TempDir()
			u := verdictURL(t, row.rec)
			if row.raw != nil {
				row.raw(&u)
			}

			// (a) the encoder's checks.
			err := enc.Check(&u)
			var ee *sitemap.EntryError
			want := row.advice // what every path must say
			switch {
			case row.refuse:
				if !errors.As(err, &ee) || string(ee.Rule) != row.rule {
					t.Fatalf("(a) Check = %v, want an EntryError %s", err, row.rule)
				}
				want = ee.Message
				if row.advice != "" && !strings.Contains(ee.Message, row.advice) {
					t.Errorf("(a) Check = %v, want advice %q", err, row.advice)
				}
				if strings.Contains(ee.Message, "punycode") && strings.Contains(ee.Message, "percent-encode") {
					t.Errorf("(a) host advice mixes punycode and percent-encoding: %v", err)
				}
			case err != nil:
				t.Fatalf("(a) Check = %v, want nil", err)
			case row.rule == "M-04":
				want = check.DatePrecision(check.FormMinute).Text() // written with ":00" seconds
			}

			// (b) validate.Document on a sitemap holding the value.
			doc := verdictXML(&u)
			var ds []sitemap.Diagnostic
			if _, err := validate.Document(context.Background(), strings.NewReader(doc),
				validate.Options{Name: "s.xml", URL: verdictBase, Now: now}, func(d sitemap.Diagnostic) { ds = append(ds, d) }); err != nil {
				t.Fatal(err)
			}
			assertVerdict(t, "(b) validate.Document", ds, row, want)

			// (e) sitemap validate on the same document.
			xmlFile := filepath.Join(dir, "s.xml")
			if err := os.WriteFile(xmlFile, []byte(doc), 0o644); err != nil {
				t.Fatal(err)
			}
			code, stdout, stderr := runCLI(t, "", "validate", "--base", verdictBase, "--now", now.Format(time.RFC3339), xmlFile)
			stderr = stdout + stderr
			wantCode := exitOK
			if row.rule != "" && row.sev == sitemap.SeverityError {
				wantCode = exitProblems
			}
			if code != wantCode {
				t.Errorf("(e) sitemap validate exit %d, want %d:\n%s", code, wantCode, stderr)
			}
			if row.rule != "" && !strings.Contains(stderr, " "+row.rule+": ") || !strings.Contains(stderr, want) {
				t.Errorf("(e) sitemap validate does not say %s %q:\n%s", row.rule, want, stderr)
			}

			// (c) sitemap generate on the entry record.
			in := filepath.Join(dir, "in.jsonl")
			if err := os.WriteFile(in, []byte(row.rec+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			code, _, stderr = runCLI(t, "", "generate", "--no-normalize", "--base-url", verdictBase, "--legacy", "--out", filepath.Join(dir, "c"), in)
			assertGenerate(t, "(c) sitemap generate", code, stderr, row.refuse && row.raw == nil, row, want)

			// (d) sitemap parse | sitemap generate.
			code, parsed, parseErr := runCLI(t, "", "parse", "--format", "jsonl", xmlFile)
			if row.skipped {
				if code != exitProblems || parsed != "" || !strings.Contains(parseErr, " "+row.rule+": ") || !strings.Contains(parseErr, want) || !strings.Contains(parseErr, "entry skipped") {
					t.Errorf("(d) sitemap parse: exit %d, want %d, nothing printed, and %s %q (entry skipped):\n%s%s", code, exitProblems, row.rule, want, parsed, parseErr)
				}
				return
			}
			code, _, stderr = runCLI(t, parsed, "generate", "--no-normalize", "--base-url", verdictBase, "--legacy", "--input-format", "jsonl", "--out", filepath.Join(dir, "d"), "-")
			assertGenerate(t, "(d) sitemap parse | sitemap generate", code, parseErr+stderr, row.refuse && !row.repaired, row, want)
		})
	}
}

// assertVerdict checks the diagnostics of validate: rule reported with
// its severity and the message want; no other error.
func assertVerdict(t *testing.T, what string, ds []sitemap.Diagnostic, row verdictRow, want string) {
	t.Helper()
	found := false
	for _, d := range ds {
		if string(d.Rule) == row.rule && row.rule != "" {
			found = true
			if d.Severity != row.sev || !strings.Contains(d.Message, want) {
				t.Errorf("%s: %v\nwant %v %s with %q", what, d, row.sev, row.rule, want)
			}
			continue
		}
		if slices.Contains(row.also, string(d.Rule)) {
			continue
		}
		if d.Severity == sitemap.SeverityError || d.Severity == sitemap.SeverityWarning && row.rule == "" {
			t.Errorf("%s: unexpected %v (row's rule %q)", what, d, row.rule)
		}
	}
	if row.rule != "" && !found {
		t.Errorf("%s: no %s in %v", what, row.rule, ds)
	}
}

// assertGenerate checks a generate run (--no-normalize: URLs as written):
// refused means the value is left out, the entry or (for a field or an
// extension block) that field or block, with exit 1 and the rule and
// message on standard error; otherwise it is published (exit 0).
func assertGenerate(t *testing.T, what string, code int, stderr string, refused bool, row verdictRow, want string) {
	t.Helper()
	if refused {
		if code != exitProblems || !strings.Contains(stderr, "("+row.rule+")") || !strings.Contains(stderr, want) {
			t.Errorf("%s: exit %d, want %d with %s %q:\n%s", what, code, exitProblems, row.rule, want, stderr)
		}
		return
	}
	if code != exitOK {
		t.Errorf("%s: exit %d, want %d:\n%s", what, code, exitOK, stderr)
	}
	if row.rule != "" && row.repaired && row.raw == nil && !strings.Contains(stderr, row.rule) {
		t.Errorf("%s: the parse step does not report %s:\n%s", what, row.rule, stderr)
	}
}

// verdictURL reads an entry record as sitemap generate does.
func verdictURL(t *testing.T, rec string) sitemap.URL {
	t.Helper()
	r := source.NewJSONL(strings.NewReader(rec+"\n"), source.Options{Name: "row.jsonl"})
	got, err := r.Next()
	if err != nil {
		t.Fatalf("reading %s: %v", rec, err)
	}
	return got.URL
}

// verdictXML writes u as a one-URL sitemap without any check, so the
// document holds the value exactly as the entry does.
func verdictXML(u *sitemap.URL) string {
	var b bytes.Buffer
	esc := func(s string) string {
		var e bytes.Buffer
		xml.EscapeText(&e, []byte(s))
		return e.String()
	}
	leaf := func(name, v string) {
		if v != "" {
			b.WriteString("<" + name + ">" + esc(v) + "</" + name + ">")
		}
	}
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"`)
	if len(u.Images) > 0 {
		b.WriteString(` xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"`)
	}
	if len(u.Videos) > 0 {
		b.WriteString(` xmlns:video="http://www.google.com/schemas/sitemap-video/1.1"`)
	}
	if u.News != nil {
		b.WriteString(` xmlns:news="http://www.google.com/schemas/sitemap-news/0.9"`)
	}
	if len(u.Alternates) > 0 {
		b.WriteString(` xmlns:xhtml="http://www.w3.org/1999/xhtml"`)
	}
	b.WriteString(">\n<url>")
	leaf("loc", u.Loc)
	if !u.LastMod.IsZero() {
		leaf("lastmod", u.LastMod.String())
	}
	leaf("changefreq", string(u.ChangeFreq))
	if u.Priority != nil {
		leaf("priority", strconv.FormatFloat(*u.Priority, 'f', -1, 64))
	}
	for _, im := range u.Images {
		b.WriteString("<image:image>")
		leaf("image:loc", im.Loc)
		leaf("image:license", im.License)
		b.WriteString("</image:image>")
	}
	for _, v := range u.Videos {
		b.WriteString("<video:video>")
		leaf("video:thumbnail_loc", v.ThumbnailLoc)
		leaf("video:title", v.Title)
		leaf("video:description", v.Description)
		leaf("video:content_loc", v.ContentLoc)
		leaf("video:player_loc", v.PlayerLoc)
		if v.Duration != nil {
			leaf("video:duration", strconv.Itoa(*v.Duration))
		}
		if !v.ExpirationDate.IsZero() {
			leaf("video:expiration_date", v.ExpirationDate.String())
		}
		if v.Rating != nil {
			leaf("video:rating", strconv.FormatFloat(*v.Rating, 'f', -1, 64))
		}
		if v.ViewCount != nil {
			leaf("video:view_count", strconv.FormatInt(*v.ViewCount, 10))
		}
		for _, tag := range v.Tags {
			leaf("video:tag", tag)
		}
		if r := v.Restriction; r != nil {
			b.WriteString(`<video:restriction relationship="` + esc(string(r.Relationship)) + `">` + esc(r.Countries) + "</video:restriction>")
		}
		if up := v.Uploader; up != nil {
			b.WriteString("<video:uploader")
			if up.Info != "" {
				b.WriteString(` info="` + esc(up.Info) + `"`)
			}
			b.WriteString(">" + esc(up.Name) + "</video:uploader>")
		}
		if p := v.Platform; p != nil {
			b.WriteString(`<video:platform relationship="` + esc(string(p.Relationship)) + `">` + esc(p.Platforms) + "</video:platform>")
		}
		b.WriteString("</video:video>")
	}
	if n := u.News; n != nil {
		b.WriteString("<news:news><news:publication>")
		leaf("news:name", n.Publication.Name)
		leaf("news:language", n.Publication.Language)
		b.WriteString("</news:publication>")
		leaf("news:publication_date", n.PublicationDate.String())
		leaf("news:title", n.Title)
		b.WriteString("</news:news>")
	}
	for _, a := range u.Alternates {
		b.WriteString(`<xhtml:link rel="alternate" hreflang="` + esc(a.Hreflang) + `" href="` + esc(a.Href) + `"/>`)
	}
	b.WriteString("</url>\n</urlset>\n")
	return b.String()
}
