package crawl

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"hash"
	"io"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/charset"
)

// page is what the crawler reads from one HTML document. URLs are as
// written (unresolved); the caller resolves them against Base (or the
// page URL when Base is empty).
type page struct {
	// Title is the text of the first <title>, whitespace collapsed, at
	// most maxTitleBytes (cut at a character boundary).
	Title      string
	Base       string
	Links      []link
	Canonical  string
	Alternates []alternate
	// Lang is the lang attribute of <html>, as written.
	Lang   string
	Images []string
	// Robots directives of <meta name="robots"> and of the <meta> naming
	// the crawler's product token.
	Noindex, Nofollow bool
	// Hash is the content fingerprint (see fingerprint): the main
	// content and the metadata, not the navigation, header, footer or
	// sidebars (M-05).
	Hash string
	// Truncated is true when the body went over the size cap, or held one
	// token (a tag or text run) over the tokenizer's 1 MiB: what follows
	// was not read.
	Truncated bool
	// What tells an application shell from a page and an error page from
	// content (render.go): the <script> elements, whether an element
	// names itself an application's mount point, the bytes of visible
	// text (white space collapsed) and its first 256 bytes.
	Scripts int
	Mount   bool
	TextLen int
	Lead    string
}

type link struct {
	Href     string
	Nofollow bool
}

type alternate struct {
	Hreflang, Href string
}

// maxImagesPerPage bounds the image list of one page (IM-02 allows 1,000
// per <url>).
const maxImagesPerPage = 1000

// maxLinksPerPage bounds the links kept from one page.
const maxLinksPerPage = 100000

// parseHTML tokenizes an HTML body with golang.org/x/net/html's Tokenizer
// (no DOM is built). contentType is the Content-Type header: the charset
// comes from it, else from a <meta> in the first 1,024 bytes, else UTF-8
// (golang.org/x/net/html/charset). At most maxBytes bytes are read.
// agent is the lowercased product token whose <meta name> also counts.
// The content fingerprint (page.Hash) is computed in the same pass; see
// fingerprint.
func parseHTML(body io.Reader, contentType string, maxBytes int64, agent string) (page, error) {
	var p page
	lr := &io.LimitedReader{R: body, N: maxBytes + 1}
	r, err := charset.NewReader(lr, contentType)
	if err != nil {
		// Unknown charset label: read the bytes as they are.
		r = lr
	}
	fp := newFingerprint()
	z := html.NewTokenizer(r)
	z.SetMaxBuf(1 << 20) // one token (a long text run or tag) may not exceed 1 MiB
	hp := &htmlParser{z: z, p: &p, fp: fp, seenImg: make(map[string]bool), agent: agent}
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			if lr.N <= 0 || z.Err() == html.ErrBufferExceeded {
				p.Truncated = true
			}
			if err := z.Err(); err != io.EOF && !p.Truncated && err != html.ErrBufferExceeded {
				return p, err
			}
			p.Hash = fp.sum(p.Alternates)
			p.Title = cleanTitle(p.Title)
			return p, nil
		case html.TextToken:
			hp.text()
		case html.EndTagToken:
			hp.endTag()
		case html.StartTagToken, html.SelfClosingTagToken:
			hp.startTag(tt)
		}
	}
}

// htmlParser is the state of one parseHTML pass: the tokenizer, the page
// and fingerprint being filled, and what the pass has seen so far.
type htmlParser struct {
	z       *html.Tokenizer
	p       *page
	fp      *fingerprint
	skip    int             // inside <script>, <style>, <noscript> or <template>
	seenImg map[string]bool // the image sources listed already
	agent   string          // the lowercased product token whose <meta name> also counts
}

// text takes a text token: JSON-LD and the title go to the fingerprint's
// metadata (the title also to the page's, while that is shorter than
// maxTitleBytes), visible
// text to its text and the page's; the text of <script>, <style>,
// <noscript> and <template> is left out.
func (hp *htmlParser) text() {
	z, p, fp := hp.z, hp.p, hp.fp
	switch {
	case fp.inLD:
		writeText(fp.meta, z.Text())
	case fp.inTitle:
		t := z.Text()
		writeText(fp.meta, t)
		if len(p.Title) < maxTitleBytes {
			p.Title += string(t)
		}
	case hp.skip == 0:
		t := z.Text()
		fp.text(t)
		p.visible(t)
	}
}

// endTag takes an end tag: it leaves a <script>, <style>, <noscript> or
// <template> (a stray end tag changes nothing) or the title, and closes
// the element in the fingerprint.
func (hp *htmlParser) endTag() {
	name, _ := hp.z.TagName()
	n := string(name)
	switch n {
	case "script", "style", "noscript", "template":
		if hp.skip > 0 {
			hp.skip--
		}
		hp.fp.inLD = false
	case "title":
		hp.fp.inTitle = false
	}
	hp.fp.end(n)
}

// startTag takes a start tag (tt html.StartTagToken) or a self-closing
// one: it records what the element gives the page (links, canonical,
// alternates, images, robots directives, title, lang, base, script
// count, app mount) and opens it in the fingerprint unless it is
// self-closing or void. Its attributes are read once, here.
func (hp *htmlParser) startTag(tt html.TokenType) {
	z, p, fp := hp.z, hp.p, hp.fp
	name, hasAttr := z.TagName()
	n := string(name)
	role := ""
	switch n {
	case "script", "style", "noscript", "template":
		if tt == html.StartTagToken {
			hp.startRaw(n, hasAttr)
		}
	case "title":
		if tt == html.StartTagToken && !fp.titleSeen {
			fp.titleSeen, fp.inTitle = true, true
			io.WriteString(fp.meta, "\x00t:")
		}
	case "html":
		if p.Lang == "" {
			p.Lang = strings.TrimSpace(attrs(z, hasAttr)["lang"])
		}
	case "a", "area":
		a := attrs(z, hasAttr)
		role = a["role"]
		href, ok := a["href"]
		if ok && len(p.Links) < maxLinksPerPage {
			p.Links = append(p.Links, link{Href: href, Nofollow: hasToken(a["rel"], "nofollow")})
			fp.target("a", href)
		}
	case "link":
		hp.linkTag(attrs(z, hasAttr))
	case "img":
		hp.img(attrs(z, hasAttr))
	case "meta":
		hp.meta(attrs(z, hasAttr))
	case "base":
		a := attrs(z, hasAttr)
		if p.Base == "" {
			p.Base = a["href"]
		}
	default:
		if hasAttr {
			var mount bool
			role, mount = roleAndMount(z)
			p.Mount = p.Mount || mount
		}
	}
	if tt == html.StartTagToken && !voidElements[n] {
		fp.start(n, role)
	}
}

// startRaw enters a <script>, <style>, <noscript> or <template> (n),
// whose text is not visible: it counts a script, and a script of type
// application/ld+json (parameters ignored) sends its text to the
// fingerprint's metadata. Attributes are read only when hasAttr.
func (hp *htmlParser) startRaw(n string, hasAttr bool) {
	hp.skip++
	if n == "script" {
		hp.p.Scripts++
	}
	if n == "script" && hasAttr {
		typ, _, _ := strings.Cut(attrs(hp.z, hasAttr)["type"], ";")
		hp.fp.inLD = strings.EqualFold(strings.TrimSpace(typ), "application/ld+json")
		if hp.fp.inLD {
			io.WriteString(hp.fp.meta, "\x00ld:")
		}
	}
}

// linkTag takes a <link> with attributes a: the first rel=canonical is
// the page's canonical (and in the fingerprint), and a rel=alternate with
// an hreflang and an href is an alternate; any other is ignored.
func (hp *htmlParser) linkTag(a map[string]string) {
	p, fp := hp.p, hp.fp
	rel := a["rel"]
	href := a["href"]
	switch {
	case hasToken(rel, "canonical") && p.Canonical == "":
		p.Canonical = href
		io.WriteString(fp.meta, "\x00c:"+href)
	case hasToken(rel, "alternate") && a["hreflang"] != "" && href != "":
		p.Alternates = append(p.Alternates, alternate{Hreflang: a["hreflang"], Href: href})
	}
}

// img takes an <img> with attributes a: a src neither empty nor a data:
// URL is listed once, up to maxImagesPerPage, and goes into the
// fingerprint every time.
func (hp *htmlParser) img(a map[string]string) {
	p := hp.p
	if src := a["src"]; src != "" && !strings.HasPrefix(src, "data:") {
		if !hp.seenImg[src] && len(p.Images) < maxImagesPerPage {
			hp.seenImg[src] = true
			p.Images = append(p.Images, src)
		}
		hp.fp.target("i", src)
	}
}

// meta takes a <meta> with attributes a: robots directives of name
// "robots" (or the agent's token) add up, and the first description goes
// into the fingerprint. Any other name is ignored.
func (hp *htmlParser) meta(a map[string]string) {
	p, fp := hp.p, hp.fp
	n := strings.ToLower(strings.TrimSpace(a["name"]))
	if n == "robots" || hp.agent != "" && n == hp.agent {
		noindex, nofollow := robotsDirectives(a["content"])
		p.Noindex = p.Noindex || noindex
		p.Nofollow = p.Nofollow || nofollow
	}
	if n == "description" && !fp.descSeen {
		fp.descSeen = true
		io.WriteString(fp.meta, "\x00d:")
		writeText(fp.meta, []byte(a["content"]))
	}
}

// voidElements have no end tag: they open no region.
var voidElements = map[string]bool{
	"area": true, "base": true, "br": true, "col": true, "embed": true, "hr": true, "img": true,
	"input": true, "link": true, "meta": true, "source": true, "track": true, "wbr": true,
}

// region follows one element through the token stream: the tag that
// opened it and how many elements of that tag are open inside it, so that
// the matching end tag is found without a DOM.
type region struct {
	tag   string
	depth int
}

func (r *region) in() bool { return r.depth > 0 }

func (r *region) enter(tag string) { r.tag, r.depth = tag, 1 }

func (r *region) start(tag string) {
	if r.depth > 0 && tag == r.tag {
		r.depth++
	}
}

func (r *region) end(tag string) {
	if r.depth > 0 && tag == r.tag {
		r.depth--
	}
}

// fingerprint is the content fingerprint of a page: what decides whether
// its lastmod moves when the server sends no Last-Modified (M-05: the last
// significant change, "main content, structured data or links, not a
// sidebar or footer tweak").
//
// It hashes the page's metadata — the first <title>, the first <meta
// name="description">, the canonical, the hreflang set (order does not
// count) and the JSON-LD structured data (<script
// type="application/ld+json">) — and its main content:
//
//   - when the page has <main>, <article> or an element with role="main",
//     the text of those elements with the targets of their links and
//     images, leaving out <nav> and <aside> (and roles navigation and
//     complementary) inside them;
//   - otherwise the text, link targets and images of the whole page
//     outside <nav>, <header>, <footer>, <aside> and the elements with
//     role navigation, banner, contentinfo or complementary.
//
// <script>, <style>, <noscript> and <template> never count. Text is
// whitespace-collapsed; markup, attributes other than those named and
// comments do not count.
type fingerprint struct {
	meta hash.Hash // title, description, canonical, JSON-LD
	main hash.Hash // the main regions' content
	body hash.Hash // the body outside the chrome

	hasMain    bool
	mainRegion region // inside <main>, <article> or role=main
	mainChrome region // inside <nav>/<aside> within the main region
	chrome     region // inside the page chrome (body mode)

	titleSeen, inTitle bool
	descSeen           bool
	inLD               bool
}

func newFingerprint() *fingerprint {
	return &fingerprint{meta: sha256.New(), main: sha256.New(), body: sha256.New()}
}

// start sees a start tag (not a void element) and its role attribute.
func (f *fingerprint) start(tag, role string) {
	f.mainRegion.start(tag)
	f.mainChrome.start(tag)
	f.chrome.start(tag)
	if !f.mainRegion.in() {
		if tag == "main" || tag == "article" || hasToken(role, "main") {
			f.mainRegion.enter(tag)
			f.hasMain = true
		}
	} else if !f.mainChrome.in() && (tag == "nav" || tag == "aside" || hasToken(role, "navigation") || hasToken(role, "complementary")) {
		f.mainChrome.enter(tag)
	}
	if !f.chrome.in() && isChrome(tag, role) {
		f.chrome.enter(tag)
	}
}

// isChrome reports whether an element is site chrome rather than content.
func isChrome(tag, role string) bool {
	switch tag {
	case "nav", "header", "footer", "aside":
		return true
	}
	for _, r := range []string{"navigation", "banner", "contentinfo", "complementary"} {
		if hasToken(role, r) {
			return true
		}
	}
	return false
}

func (f *fingerprint) end(tag string) {
	// The innermost regions first: a </nav> closes the nav inside main.
	f.mainChrome.end(tag)
	f.chrome.end(tag)
	f.mainRegion.end(tag)
	if !f.mainRegion.in() {
		f.mainChrome.depth = 0
	}
}

// text adds a text run of the document.
func (f *fingerprint) text(t []byte) {
	if f.mainRegion.in() && !f.mainChrome.in() {
		writeText(f.main, t)
	}
	if !f.chrome.in() {
		writeText(f.body, t)
	}
}

// target adds the target of a link ("a") or image ("i").
func (f *fingerprint) target(kind, u string) {
	s := "\x00" + kind + ":" + u
	if f.mainRegion.in() && !f.mainChrome.in() {
		io.WriteString(f.main, s)
	}
	if !f.chrome.in() {
		io.WriteString(f.body, s)
	}
}

// sum returns the fingerprint: "html:" and 32 hex digits.
func (f *fingerprint) sum(alts []alternate) string {
	h := sha256.New()
	h.Write(f.meta.Sum(nil))
	set := make([]string, 0, len(alts))
	for _, a := range alts {
		set = append(set, strings.ToLower(strings.TrimSpace(a.Hreflang))+"="+a.Href)
	}
	sort.Strings(set)
	for _, a := range set {
		io.WriteString(h, "\x00h:"+a)
	}
	if f.hasMain {
		io.WriteString(h, "\x00main:")
		h.Write(f.main.Sum(nil))
	} else {
		io.WriteString(h, "\x00body:")
		h.Write(f.body.Sum(nil))
	}
	return "html:" + hex.EncodeToString(h.Sum(nil)[:16])
}

// roleAndMount reads the current tag's attributes: its role, and whether
// it is an application's mount point (id root, app, __next, __nuxt or
// ___gatsby; ng-app; data-reactroot).
func roleAndMount(z *html.Tokenizer) (role string, mount bool) {
	for more := true; more; {
		var k, v []byte
		k, v, more = z.TagAttr()
		switch string(k) {
		case "role":
			if role == "" {
				role = strings.TrimSpace(string(v))
			}
		case "id":
			switch string(bytes.TrimSpace(v)) {
			case "root", "app", "__next", "__nuxt", "___gatsby":
				mount = true
			}
		case "ng-app", "data-reactroot", "data-v-app":
			mount = true
		}
	}
	return role, mount
}

// visible counts a run of visible text and keeps the first 256 bytes.
func (p *page) visible(t []byte) {
	for _, w := range bytes.Fields(t) {
		p.TextLen += len(w) + 1
		if len(p.Lead) < 256 {
			p.Lead += string(w) + " "
		}
	}
}

// writeText adds text to the fingerprint with runs of white space
// collapsed, so that re-indented markup does not count as a change.
func writeText(h hash.Hash, t []byte) {
	f := bytes.Fields(t)
	for _, w := range f {
		h.Write(w)
		h.Write([]byte{' '})
	}
}

// attrs returns the attributes of the current tag (lowercased keys; the
// first of repeated attributes wins, as in browsers).
func attrs(z *html.Tokenizer, more bool) map[string]string {
	m := make(map[string]string, 4)
	for more {
		var k, v []byte
		k, v, more = z.TagAttr()
		if _, dup := m[string(k)]; !dup {
			m[string(k)] = strings.TrimSpace(string(v))
		}
	}
	return m
}

// hasToken reports whether the space-separated list s holds tok
// (ASCII case-insensitive), as rel="nofollow noopener" does.
func hasToken(s, tok string) bool {
	for _, f := range strings.Fields(s) {
		if strings.EqualFold(f, tok) {
			return true
		}
	}
	return false
}

// robotsDirectives reads the directives of a meta robots content or of an
// X-Robots-Tag value without a user-agent prefix: "noindex", "nofollow",
// and "none" (both).
func robotsDirectives(s string) (noindex, nofollow bool) {
	for _, d := range strings.Split(s, ",") {
		switch strings.ToLower(strings.TrimSpace(d)) {
		case "noindex":
			noindex = true
		case "nofollow":
			nofollow = true
		case "none":
			noindex, nofollow = true, true
		}
	}
	return
}

// xRobotsTag applies the X-Robots-Tag header values: a value is either a
// list of directives for every crawler, or "agent: directives" for one
// (agent compared case-insensitively with the product token).
func xRobotsTag(values []string, agent string) (noindex, nofollow bool) {
	for _, v := range values {
		if i := strings.IndexByte(v, ':'); i >= 0 {
			name := strings.TrimSpace(v[:i])
			// "unavailable_after: date" is a directive, not an agent.
			if !strings.EqualFold(name, "unavailable_after") && !strings.ContainsAny(name, ", ") {
				if !strings.EqualFold(name, agent) {
					continue
				}
				v = v[i+1:]
			}
		}
		ni, nf := robotsDirectives(v)
		noindex = noindex || ni
		nofollow = nofollow || nf
	}
	return
}

// maxTitleBytes caps a page's recorded title: a title is a line a person
// reads, not a document.
const maxTitleBytes = 512

// cleanTitle collapses runs of white space in t (U+2028 and U+2029
// included) to one space, trims it,
// drops control characters and cuts it to maxTitleBytes at a character
// boundary (invalid UTF-8 becomes U+FFFD).
func cleanTitle(t string) string {
	var b strings.Builder
	space := false
	for _, r := range t {
		switch {
		case unicode.IsSpace(r):
			space = b.Len() > 0
			continue
		case unicode.IsControl(r):
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		if b.Len()+utf8.RuneLen(r) > maxTitleBytes {
			break
		}
		b.WriteRune(r)
	}
	return b.String()
}
