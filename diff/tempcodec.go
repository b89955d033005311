package diff

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"unicode/utf8"

	sitemap "github.com/sitemapkit/sitemap"
)

// The temporary record of an entry (record.data) is private to one Diff
// run, so it is a compact binary form rather than JSON. It must give back
// exactly what a JSON round trip (encoding/json Marshal then Unmarshal)
// of the entry gave, which is what Diff compared and emitted before:
//
//   - strings are stored as encoding/json leaves them after a round trip:
//     each byte of invalid UTF-8 becomes U+FFFD;
//   - lastmod is stored as its text (Date.AppendFormat, what MarshalText
//     writes) and read back through Date.UnmarshalText, so its precision,
//     offset and fraction digits come back as JSON gave them (M-08), and an
//     unreadable one fails as it did;
//   - priority keeps its float64 bits (JSON's shortest form round-trips
//     exactly, -0 included); NaN and ±Inf fail as json.Marshal failed;
//   - images, videos, news and alternates, rare and rich, are one JSON
//     blob with the tags of sitemap.URL.
//
// With strings stored as their round-tripped values, two records are
// byte-equal exactly when their JSON forms are, so the fast "unchanged"
// test in Diff decides as before. Loc and Source are not in data: they are
// record.loc and record.src.
//
// Layout: one flag byte, then for each flag set, in this order: lastmod
// (uvarint length + text), changefreq (uvarint length + text), priority
// (8 bytes, little-endian IEEE 754 bits), content_hash (uvarint length +
// text), extensions (uvarint length + JSON).
const (
	hasLastMod byte = 1 << iota
	hasChangeFreq
	hasPriority
	hasContentHash
	hasExt
)

// ext holds the fields written as JSON, with the tags of sitemap.URL.
type ext struct {
	Images     []sitemap.Image     `json:"images,omitempty"`
	Videos     []sitemap.Video     `json:"videos,omitempty"`
	News       *sitemap.News       `json:"news,omitempty"`
	Alternates []sitemap.Alternate `json:"alternates,omitempty"`
}

// appendEntry appends the temporary record of u (Loc and Source left out)
// to b. It fails where json.Marshal of u failed, with its error.
func appendEntry(b []byte, u *sitemap.URL) ([]byte, error) {
	flagAt := len(b)
	b = append(b, 0)
	var flags byte
	if !u.LastMod.IsZero() {
		flags |= hasLastMod
		// Reserve one length byte; W3C Datetime text is under 128 bytes
		// (fixed up below when it is not).
		at := len(b)
		b = append(b, 0)
		b = u.LastMod.AppendFormat(b)
		n := len(b) - at - 1
		if n < 0x80 && utf8.Valid(b[at+1:]) {
			b[at] = byte(n)
		} else {
			text := string(b[at+1:])
			b = appendString(b[:at], text)
		}
	}
	if u.ChangeFreq != "" {
		flags |= hasChangeFreq
		b = appendString(b, string(u.ChangeFreq))
	}
	if u.Priority != nil {
		p := *u.Priority
		if math.IsNaN(p) || math.IsInf(p, 0) {
			_, err := json.Marshal(p) // the error json.Marshal(u) gave
			return b, err
		}
		flags |= hasPriority
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(p))
	}
	if u.ContentHash != "" {
		flags |= hasContentHash
		b = appendString(b, u.ContentHash)
	}
	if len(u.Images) > 0 || len(u.Videos) > 0 || u.News != nil || len(u.Alternates) > 0 {
		js, err := json.Marshal(&ext{Images: u.Images, Videos: u.Videos, News: u.News, Alternates: u.Alternates})
		if err != nil {
			return b, err
		}
		flags |= hasExt
		b = binary.AppendUvarint(b, uint64(len(js)))
		b = append(b, js...)
	}
	b[flagAt] = flags
	return b, nil
}

// appendString appends a uvarint length and s, with each byte of invalid
// UTF-8 replaced by U+FFFD as an encoding/json round trip does.
func appendString(b []byte, s string) []byte {
	if utf8.ValidString(s) {
		b = binary.AppendUvarint(b, uint64(len(s)))
		return append(b, s...)
	}
	v := validString(s)
	b = binary.AppendUvarint(b, uint64(len(v)))
	return append(b, v...)
}

// validString returns s as encoding/json gives it back: every byte that
// does not start a valid UTF-8 sequence becomes U+FFFD.
func validString(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	out := make([]byte, 0, len(s)+8)
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			out = utf8.AppendRune(out, utf8.RuneError)
		} else {
			out = append(out, s[i:i+n]...)
		}
		i += n
	}
	return string(out)
}

// decodeEntry reads back the entry of a record: what a JSON round trip of
// it gave, with Source set to r.src as it was read.
func decodeEntry(r record) (*sitemap.URL, error) {
	u := &sitemap.URL{Loc: validString(r.loc)}
	if err := decodeData(u, r.data); err != nil {
		return nil, fmt.Errorf("diff: reading back %s: %w", r.loc, err)
	}
	u.Source = r.src
	return u, nil
}

func decodeData(u *sitemap.URL, d []byte) error {
	if len(d) == 0 {
		return errCorruptRun
	}
	flags := d[0]
	d = d[1:]
	if flags&^(hasLastMod|hasChangeFreq|hasPriority|hasContentHash|hasExt) != 0 {
		return errCorruptRun
	}
	str := func() ([]byte, error) {
		n, k := binary.Uvarint(d)
		if k <= 0 || n > uint64(len(d)-k) {
			return nil, errCorruptRun
		}
		s := d[k : k+int(n)]
		d = d[k+int(n):]
		return s, nil
	}
	if flags&hasLastMod != 0 {
		s, err := str()
		if err != nil {
			return err
		}
		// Exactly what json.Unmarshal did with the "lastmod" string.
		if err := u.LastMod.UnmarshalText(s); err != nil {
			return err
		}
	}
	if flags&hasChangeFreq != 0 {
		s, err := str()
		if err != nil {
			return err
		}
		u.ChangeFreq = sitemap.ChangeFreq(s)
	}
	if flags&hasPriority != 0 {
		if len(d) < 8 {
			return errCorruptRun
		}
		p := math.Float64frombits(binary.LittleEndian.Uint64(d))
		u.Priority = &p
		d = d[8:]
	}
	if flags&hasContentHash != 0 {
		s, err := str()
		if err != nil {
			return err
		}
		u.ContentHash = string(s)
	}
	if flags&hasExt != 0 {
		s, err := str()
		if err != nil {
			return err
		}
		var x ext
		if err := json.Unmarshal(s, &x); err != nil {
			return err
		}
		u.Images, u.Videos, u.News, u.Alternates = x.Images, x.Videos, x.News, x.Alternates
	}
	if len(d) != 0 {
		return errCorruptRun
	}
	return nil
}
