package sitemap

import (
	"strings"

	"github.com/sitemapkit/sitemap/internal/check"
)

// The fast path of the URL checks. Nearly every loc a generator sees is a
// lowercase http(s) URL with a plain host name, no port, no user info and
// only printable ASCII, in the scope's exact spelling; fastURL and
// inScopeFast accept those in one pass each and say "don't know" (false)
// for everything else, which then goes through checkURL and checkScope as
// before. Errors always come from the slow path, so their texts are the
// same. The fast path only ever accepts:
//
//   - fastURL(s) returns (p, true) only when checkURL(f, s) returns
//     (p, nil) for the same p;
//   - inScopeFast(p) returns true only when checkScope(f, s, p) returns
//     nil.
//
// TestCheckFastMatchesSlow and FuzzCheckFast check both statements on
// random input, together with the claim that checkLoc and checkOtherURL
// give exactly the results of their slow forms.

// fastURL reports whether s is an absolute URL of the restricted form
//
//	http[s]://HOST[/path][?query][#fragment]
//
// with the scheme in lowercase, HOST a non-empty run of host-name bytes
// (letters, digits, '-', '.', '_', '~'; so no port, user info or IPv6
// literal), and every byte after it in the URI set, a valid %XX escape or
// a single '#'. For such an s, checkURL accepts s and returns the same
// parts (see the file comment). plain is true when s also has no '&' or
// '\”, the only bytes of such a URL that appendText escapes: then
// appendText(dst, s) is append(dst, s...). It reads s once.
func fastURL(s string) (p check.Parts, plain, ok bool) {
	var i int
	switch {
	case strings.HasPrefix(s, "https://"):
		p.Scheme, i = s[:5], 8
	case strings.HasPrefix(s, "http://"):
		p.Scheme, i = s[:4], 7
	default:
		return p, false, false
	}
	h := i
	for i+8 <= len(s) {
		w := s[i : i+8]
		if charClass[w[0]]&charClass[w[1]]&charClass[w[2]]&charClass[w[3]]&
			charClass[w[4]]&charClass[w[5]]&charClass[w[6]]&charClass[w[7]]&cHost == 0 {
			break
		}
		i += 8
	}
	for ; i < len(s); i++ {
		c := s[i]
		if charClass[c]&cHost != 0 {
			continue
		}
		if c == '/' || c == '?' || c == '#' {
			break
		}
		return p, false, false // port, user info, IPv6, or a byte a host cannot have
	}
	if i == h {
		return p, false, false
	}
	p.Host = s[h:i]
	tail := s[i:]
	// checkURL ends the path at the first '?' or '#': neither can sit in
	// a %XX escape, and '?' is in the URI set, '#' is the fragment mark.
	end := -1
	frag := false
	plain = true
	// Eight bytes at a time while they are all cPlain (the common case);
	// once the path's end and an escaped byte have been seen, any byte of
	// the URI set will do.
	fast := uint8(cPlain)
	for j := 0; j < len(tail); {
		lim := len(tail)
		if j+8 <= len(tail) {
			w := tail[j : j+8]
			m := charClass[w[0]] & charClass[w[1]] & charClass[w[2]] & charClass[w[3]] &
				charClass[w[4]] & charClass[w[5]] & charClass[w[6]] & charClass[w[7]]
			if m&fast != 0 {
				j += 8
				continue
			}
			if m&cURI != 0 {
				// All in the URI set, and a '?', '&' or '\'' among them;
				// the only bytes of the set appendText escapes are '&' and
				// '\''.
				if end < 0 {
					if k := strings.IndexByte(w, '?'); k >= 0 {
						end = j + k
					}
				}
				if (charClass[w[0]]|charClass[w[1]]|charClass[w[2]]|charClass[w[3]]|
					charClass[w[4]]|charClass[w[5]]|charClass[w[6]]|charClass[w[7]])&cText != 0 {
					plain = false
				}
				j += 8
				if end >= 0 && !plain {
					fast = cURI
				}
				continue
			}
			lim = j + 8 // these eight one by one
		}
		for j < lim {
			c := tail[j]
			switch {
			case charClass[c]&cPlain != 0:
				j++
			case c == '?':
				if end < 0 {
					end = j
				}
				j++
			case c == '&' || c == '\'':
				plain = false
				j++
			case c == '%' && j+2 < len(tail) && isHex(tail[j+1]) && isHex(tail[j+2]):
				j += 3
			case c == '#' && !frag:
				frag = true
				if end < 0 {
					end = j
				}
				j++
			default:
				return p, false, false
			}
		}
		if end >= 0 && !plain {
			fast = cURI
		}
	}
	if end < 0 {
		end = len(tail)
	}
	p.Path = tail[:end]
	return p, plain, true
}

// inScopeFast reports whether a loc with the parts p, as fastURL returns
// them, is certainly in o.Scope: the same scheme, the same host in ASCII
// letter case (so the scope's host, like p.Host, is a plain host name
// without a port, and the default ports of the equal schemes agree), and
// a path under the scope's directory, computed as checkScope computes it.
func (o EncoderOptions) inScopeFast(p check.Parts) bool {
	sc := o.Scope
	if sc == nil || sc.Opaque != "" || p.Port != "" || sc.Scheme != p.Scheme || !asciiHostFold(p.Host, sc.Host) {
		return false
	}
	dir := sc.EscapedPath()
	dir = dir[:strings.LastIndexByte(dir, '/')+1]
	if dir == "" {
		dir = "/"
	}
	path := p.Path
	if path == "" {
		path = "/"
	}
	return strings.HasPrefix(path, dir)
}

// asciiHostFold reports whether host, a non-empty run of host-name bytes
// (as fastURL returns it), equals s up to ASCII letter case.
func asciiHostFold(host, s string) bool {
	if len(host) != len(s) || host == "" {
		return false
	}
	if host == s {
		// The common case; host is made of host-name bytes (fastURL).
		return true
	}
	for i := 0; i < len(host); i++ {
		a, b := host[i], s[i]
		if charClass[a]&cHost == 0 {
			return false
		}
		if a == b {
			continue
		}
		if a|0x20 != b|0x20 || !isAlpha(a) {
			return false
		}
	}
	return true
}
