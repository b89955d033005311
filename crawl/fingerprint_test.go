package crawl

import (
	"strings"
	"testing"
)

// fingerprintOf parses doc and returns its content fingerprint.
func fingerprintOf(t *testing.T, doc string) string {
	t.Helper()
	p, err := parseHTML(strings.NewReader(doc), "text/html; charset=utf-8", 1<<20, "sitemap-crawl")
	if err != nil {
		t.Fatal(err)
	}
	if p.Hash == "" {
		t.Fatal("no fingerprint")
	}
	return p.Hash
}

// mainDoc is a page with a <main> element, site chrome around it and the
// metadata the fingerprint covers. Each test case replaces one piece.
const mainDoc = `<!doctype html><html><head><title>Widget</title>
<meta name="description" content="All about widgets">
<link rel="canonical" href="/widget">
<link rel="alternate" hreflang="en" href="/en/widget"><link rel="alternate" hreflang="de" href="/de/widget">
<script type="application/ld+json">{"@type": "Product", "name": "Widget", "offers": {"price": "10.00"}}</script>
<script>var build = 1;</script><style>body{color:red}</style></head>
<body><header><a href="/">Site</a> Banner text</header>
<nav><a href="/a">A</a> <a href="/b">B</a> Menu</nav>
<div role="navigation"><a href="/crumb">Crumb</a></div>
<main><h1>Widget</h1>
<p>The widget is blue. <a href="/related">Related</a></p>
<img src="/img/widget.jpg">
</main>
<aside>Popular posts: <a href="/p1">P1</a><img src="/ad.jpg"></aside>
<div role="complementary">Sponsored</div>
<noscript>Enable JavaScript</noscript>
<footer>© 2026 <a href="/imprint">Imprint</a> <img src="/logo.png"></footer>
</body></html>`

// bodyDoc has no <main>, <article> or role=main: the fingerprint is the
// body without the chrome.
const bodyDoc = `<!doctype html><html><head><title>Widget</title></head>
<body><header>Banner text</header>
<nav><a href="/a">A</a> Menu</nav>
<div role="banner">Sale!</div>
<div class="content"><h1>Widget</h1><p>The widget is blue.</p><img src="/img/widget.jpg"></div>
<aside>Popular posts</aside>
<div role="contentinfo">Contact</div>
<noscript>Enable JavaScript</noscript><script>var build = 1;</script>
<footer>© 2026 <a href="/imprint">Imprint</a></footer>
</body></html>`

// TestFingerprintMainContent: the fingerprint that decides whether
// lastmod moves reflects the last significant change: main content,
// structured data, links of the content, not a sidebar or footer tweak
// (M-05).
func TestFingerprintMainContent(t *testing.T) {
	tests := []struct {
		name    string
		doc     string
		old     string // replaced by new in doc
		new     string
		changed bool
	}{
		// Site chrome: no change (M-05).
		{"nav text", mainDoc, "Menu</nav>", "Main menu</nav>", false},
		{"nav link", mainDoc, `<a href="/b">B</a>`, `<a href="/b">B</a> <a href="/c">C</a>`, false},
		{"header", mainDoc, "Banner text", "New banner", false},
		{"role navigation", mainDoc, "Crumb</a>", "Crumbs</a>", false},
		{"aside text and image", mainDoc, `Popular posts: <a href="/p1">P1</a><img src="/ad.jpg">`, `Popular: <a href="/p2">P2</a><img src="/ad2.jpg">`, false},
		{"role complementary", mainDoc, "Sponsored", "Sponsored by us", false},
		{"footer text, link and image", mainDoc, `© 2026 <a href="/imprint">Imprint</a> <img src="/logo.png">`, `© 2027 <a href="/legal">Legal</a> <img src="/logo2.png">`, false},
		{"noscript", mainDoc, "Enable JavaScript", "Please enable JavaScript", false},
		{"script", mainDoc, "var build = 1;", "var build = 2;", false},
		{"style", mainDoc, "color:red", "color:blue", false},
		{"main re-indented", mainDoc, "<p>The widget is blue.", "\n   <p>The   widget\n is blue.", false},
		{"comment in main", mainDoc, "<h1>Widget</h1>", "<h1>Widget</h1><!-- build 7 -->", false},
		{"markup in main", mainDoc, "<p>The widget", `<p class="lead">The widget`, false},
		{"hreflang order", mainDoc, `<link rel="alternate" hreflang="en" href="/en/widget"><link rel="alternate" hreflang="de" href="/de/widget">`, `<link rel="alternate" hreflang="de" href="/de/widget"><link rel="alternate" hreflang="en" href="/en/widget">`, false},
		// Significant changes (M-05).
		{"main text", mainDoc, "The widget is blue.", "The widget is green.", true},
		{"main heading", mainDoc, "<h1>Widget</h1>", "<h1>Widget 2</h1>", true},
		{"link in main", mainDoc, `href="/related"`, `href="/related-2"`, true},
		{"image in main", mainDoc, "/img/widget.jpg", "/img/widget-2.jpg", true},
		{"title", mainDoc, "<title>Widget</title>", "<title>Blue widget</title>", true},
		{"meta description", mainDoc, "All about widgets", "Everything about widgets", true},
		{"canonical", mainDoc, `<link rel="canonical" href="/widget">`, `<link rel="canonical" href="/widget-blue">`, true},
		{"hreflang added", mainDoc, `<link rel="alternate" hreflang="de" href="/de/widget">`, `<link rel="alternate" hreflang="de" href="/de/widget"><link rel="alternate" hreflang="fr" href="/fr/widget">`, true},
		{"structured data", mainDoc, `"price": "10.00"`, `"price": "12.00"`, true},

		// No main element: the body without nav, header, footer, aside,
		// script, style, noscript and chrome roles.
		{"body: nav", bodyDoc, "Menu</nav>", "Main menu</nav>", false},
		{"body: header", bodyDoc, "Banner text", "New banner", false},
		{"body: role banner", bodyDoc, "Sale!", "Sale ends!", false},
		{"body: aside", bodyDoc, "Popular posts", "Popular", false},
		{"body: role contentinfo", bodyDoc, "Contact", "Contact us", false},
		{"body: footer", bodyDoc, "© 2026", "© 2027", false},
		{"body: noscript", bodyDoc, "Enable JavaScript", "Please enable JavaScript", false},
		{"body: script", bodyDoc, "var build = 1;", "var build = 2;", false},
		{"body: text", bodyDoc, "The widget is blue.", "The widget is green.", true},
		{"body: image", bodyDoc, "/img/widget.jpg", "/img/widget-2.jpg", true},
		{"body: title", bodyDoc, "<title>Widget</title>", "<title>Blue widget</title>", true},

		// <article> and role="main" mark the main content too.
		{"article: outside", `<body><div>Teaser 1</div><article><p>Story</p></article></body>`, "Teaser 1", "Teaser 2", false},
		{"article: inside", `<body><div>Teaser 1</div><article><p>Story</p></article></body>`, "Story", "Story, updated", true},
		{"articles: second one", `<body><article>One</article><div>x</div><article>Two</article></body>`, "Two", "Three", true},
		{"role main: outside", `<body><div role="main"><div><p>Story</p></div></div><div>Teaser 1</div></body>`, "Teaser 1", "Teaser 2", false},
		{"role main: inside", `<body><div role="main"><div><p>Story</p></div></div><div>Teaser 1</div></body>`, "Story", "Story, updated", true},
		{"main: nested nav", `<body><main><nav>Contents</nav><p>Story</p></main></body>`, "Contents", "Table of contents", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !strings.Contains(tt.doc, tt.old) {
				t.Fatalf("test case: %q not in the document", tt.old)
			}
			a := fingerprintOf(t, tt.doc)
			b := fingerprintOf(t, strings.Replace(tt.doc, tt.old, tt.new, 1))
			if (a != b) != tt.changed {
				t.Errorf("M-05: fingerprint changed = %v after %q -> %q; want %v", a != b, tt.old, tt.new, tt.changed)
			}
		})
	}
}

// TestFingerprintModes: a page that gains a <main> is fingerprinted by it
// alone; text outside it no longer counts.
func TestFingerprintModes(t *testing.T) {
	withMain := `<body><div>Chrome</div><main>Story</main></body>`
	if fingerprintOf(t, withMain) == fingerprintOf(t, strings.Replace(withMain, "Story", "Story 2", 1)) {
		t.Error("main text change not seen")
	}
	if fingerprintOf(t, withMain) != fingerprintOf(t, strings.Replace(withMain, "Chrome", "Chrome 2", 1)) {
		t.Error("text outside <main> counted (M-05)")
	}
	// An empty page still has a fingerprint, and two empty pages with
	// different titles differ.
	if fingerprintOf(t, `<title>a</title>`) == fingerprintOf(t, `<title>b</title>`) {
		t.Error("title not in the fingerprint of an empty page")
	}
}
