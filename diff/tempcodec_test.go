package diff

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"testing"
	"time"

	sitemap "github.com/sitemapkit/sitemap"
)

// jsonRoundTrip is what Diff did with an entry before the binary temporary
// record: json.Marshal without Source, json.Unmarshal, Source put back.
// It returns the JSON too (nil when Marshal failed) and the two errors as
// Diff reported them.
func jsonRoundTrip(u *sitemap.URL) (got *sitemap.URL, js []byte, encErr, decErr error) {
	c := *u
	c.Source = ""
	js, err := json.Marshal(&c)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", u.Loc, err), nil
	}
	got = new(sitemap.URL)
	if err := json.Unmarshal(js, got); err != nil {
		return nil, js, nil, fmt.Errorf("diff: reading back %s: %w", u.Loc, err)
	}
	got.Source = u.Source
	return got, js, nil, nil
}

// binRoundTrip is the same through appendEntry and decodeEntry.
func binRoundTrip(u *sitemap.URL) (got *sitemap.URL, data []byte, encErr, decErr error) {
	data, err := appendEntry(nil, u)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", u.Loc, err), nil
	}
	got, err = decodeEntry(record{loc: u.Loc, data: data, src: u.Source})
	return got, data, nil, err
}

// checkSameAsJSON fails unless the temporary record gives back exactly
// what the JSON round trip gave: same value (every field, lastmod
// precision, offset and fraction digits included), same errors.
func checkSameAsJSON(t *testing.T, u *sitemap.URL) {
	t.Helper()
	want, _, wantEnc, wantDec := jsonRoundTrip(u)
	got, _, gotEnc, gotDec := binRoundTrip(u)
	if fmt.Sprint(gotEnc) != fmt.Sprint(wantEnc) || fmt.Sprint(gotDec) != fmt.Sprint(wantDec) {
		t.Fatalf("errors: encode %v, decode %v; JSON gave %v, %v", gotEnc, gotDec, wantEnc, wantDec)
	}
	if want == nil {
		return
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("round trip\n got %#v\nwant %#v", got, want)
	}
	if got.LastMod.String() != want.LastMod.String() || got.LastMod.Time.Location().String() != want.LastMod.Time.Location().String() {
		t.Fatalf("lastmod %q (%s), want %q (%s)", got.LastMod, got.LastMod.Time.Location(), want.LastMod, want.LastMod.Time.Location())
	}
	if want.Priority != nil && math.Signbit(*got.Priority) != math.Signbit(*want.Priority) {
		t.Fatalf("priority %v, want %v", *got.Priority, *want.Priority)
	}
	gj, _ := json.Marshal(got)
	wj, _ := json.Marshal(want)
	if !bytes.Equal(gj, wj) {
		t.Fatalf("JSON of the read-back entry\n got %s\nwant %s", gj, wj)
	}
}

func ptr[T any](v T) *T { return &v }

func mustDate(t *testing.T, s string) sitemap.Date {
	t.Helper()
	d, err := sitemap.ParseDate(s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestTempRecordRoundTrip(t *testing.T) {
	full := sitemap.URL{
		Loc:         "https://www.example.com/a?x=1&y=%C3%A9",
		LastMod:     mustDate(t, "2025-03-04T05:06:07.120+05:30"), // M-08: precision, offset, fraction digits kept
		ChangeFreq:  sitemap.Daily,
		Priority:    ptr(0.8),
		ContentHash: "sha256:abc",
		Source:      "sitemap-1.xml",
		Images:      []sitemap.Image{{Loc: "https://www.example.com/i.jpg", Caption: "c", GeoLocation: "g", Title: "t", License: "l"}},
		Videos: []sitemap.Video{{
			ThumbnailLoc: "https://www.example.com/t.jpg", Title: "v", Description: "d",
			ContentLoc: "https://www.example.com/v.mp4", Duration: ptr(600),
			ExpirationDate: mustDate(t, "2030-01-01T00:00:00Z"), Rating: ptr(4.5), ViewCount: ptr(int64(12)),
			PublicationDate: mustDate(t, "2025-01-01"), Tags: []string{"a", "b"}, FamilyFriendly: ptr(true),
			Restriction: &sitemap.Restriction{Relationship: sitemap.Allow, Countries: "FR DE"},
			Uploader:    &sitemap.Uploader{Name: "u", Info: "https://www.example.com/u"},
			Platform:    &sitemap.Platform{Relationship: sitemap.Deny, Platforms: "tv"}, Live: ptr(false),
			Prices: []sitemap.VideoPrice{{Value: "1.99", Currency: "EUR"}},
		}},
		News: &sitemap.News{
			Publication:     sitemap.Publication{Name: "P", Language: "fr"},
			PublicationDate: mustDate(t, "2025-02-03T04:05Z"), Title: "N", Keywords: "k",
		},
		Alternates: []sitemap.Alternate{{Hreflang: "x-default", Href: "https://www.example.com/"}, {Hreflang: "fr", Href: "https://www.example.com/fr/"}},
	}
	tests := []struct {
		name string
		u    sitemap.URL
	}{
		{"every field", full},
		{"loc only", sitemap.URL{Loc: "https://www.example.com/"}},
		{"M-08 year precision", sitemap.URL{Loc: "a", LastMod: mustDate(t, "2025")}},
		{"M-08 month precision", sitemap.URL{Loc: "a", LastMod: mustDate(t, "2025-07")}},
		{"M-08 minute precision, Z", sitemap.URL{Loc: "a", LastMod: mustDate(t, "2025-07-01T10:00Z")}},
		{"M-08 +00:00 kept apart from Z", sitemap.URL{Loc: "a", LastMod: mustDate(t, "2025-07-01T10:00:00+00:00")}},
		{"M-08 nine fraction digits", sitemap.URL{Loc: "a", LastMod: mustDate(t, "2025-07-01T10:00:00.000000001-11:00")}},
		{"M-08 trailing zero fraction digits", sitemap.URL{Loc: "a", LastMod: mustDate(t, "2025-07-01T10:00:00.100-03:30")}},
		{"date in a seconds offset (written as minutes)", sitemap.URL{Loc: "a", LastMod: sitemap.DateOf(time.Date(2025, 1, 1, 0, 0, 0, 0, time.FixedZone("", 3600+17)))}},
		{"year outside 0000-9999", sitemap.URL{Loc: "a", LastMod: sitemap.DateOf(time.Date(12345, 1, 1, 0, 0, 0, 0, time.UTC))}},
		{"precision out of range", sitemap.URL{Loc: "a", LastMod: sitemap.Date{Time: time.Unix(0, 0).UTC(), Precision: 9}}},
		{"fraction digits out of range", sitemap.URL{Loc: "a", LastMod: sitemap.Date{Time: time.Unix(1, 5).UTC(), Precision: sitemap.PrecisionSecond, FracDigits: 12}}},
		{"P-01 priority 0", sitemap.URL{Loc: "a", Priority: ptr(0.0)}},
		{"priority -0", sitemap.URL{Loc: "a", Priority: ptr(math.Copysign(0, -1))}},
		{"priority tiny", sitemap.URL{Loc: "a", Priority: ptr(1e-300)}},
		{"priority NaN fails as JSON did", sitemap.URL{Loc: "a", Priority: ptr(math.NaN())}},
		{"priority +Inf fails as JSON did", sitemap.URL{Loc: "a", Priority: ptr(math.Inf(1))}},
		{"video rating NaN fails as JSON did", sitemap.URL{Loc: "a", Videos: []sitemap.Video{{Rating: ptr(math.NaN())}}}},
		{"invalid UTF-8 becomes U+FFFD", sitemap.URL{Loc: "a\xffb\xc3", ChangeFreq: "d\xfe", ContentHash: "\xe2\x82", Source: "s\xff"}},
		{"empty extension slices", sitemap.URL{Loc: "a", Images: []sitemap.Image{}, Alternates: []sitemap.Alternate{}}},
		{"empty news", sitemap.URL{Loc: "a", News: &sitemap.News{}}},
		{"long strings", sitemap.URL{Loc: string(bytes.Repeat([]byte("x"), 70000)), ContentHash: string(bytes.Repeat([]byte("h"), 300))}},
		{"U+2028 and quotes", sitemap.URL{Loc: "a\u2028\"\\<>&", ChangeFreq: "\u2029"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkSameAsJSON(t, &tt.u) })
	}
}

func TestTempRecordCorrupt(t *testing.T) {
	good, err := appendEntry(nil, &sitemap.URL{Loc: "a", LastMod: sitemap.DayOf(time.Now()), ChangeFreq: "daily", Priority: ptr(0.5), ContentHash: "h", Alternates: []sitemap.Alternate{{Hreflang: "fr", Href: "b"}}})
	if err != nil {
		t.Fatal(err)
	}
	for n := range len(good) {
		if _, err := decodeEntry(record{loc: "a", data: good[:n]}); err == nil {
			t.Errorf("truncated to %d bytes: no error", n)
		}
	}
	if _, err := decodeEntry(record{loc: "a", data: append(append([]byte(nil), good...), 0)}); !errors.Is(err, errCorruptRun) {
		t.Errorf("trailing byte: %v, want errCorruptRun", err)
	}
	if _, err := decodeEntry(record{loc: "a", data: []byte{0x80}}); !errors.Is(err, errCorruptRun) {
		t.Errorf("unknown flag: %v, want errCorruptRun", err)
	}
}

// FuzzTempRecord checks that every field of an entry survives the
// temporary record exactly as it survived the JSON round trip, and that
// two records are byte-equal exactly when their JSON forms are (Diff's
// "unchanged" shortcut).
func FuzzTempRecord(f *testing.F) {
	f.Add("https://www.example.com/", "2025-01-02T03:04:05.60+01:00", "daily", 0.5, true, "h", "img", "fr", "news", "s.xml",
		"2025-01-02T03:04:05.6+01:00", "daily", "h", int64(0), int32(0), uint8(0), uint8(0))
	f.Add("a\xff", "bad", "\xfe", math.Copysign(0, -1), true, "", "", "", "", "",
		"", "\xfd", "", int64(-62135596800), int32(3601), uint8(5), uint8(10))
	f.Add("a", "", "", 1e21, true, "", "", "", "", "", "2025", "", "", int64(253402300800), int32(-60), uint8(1), uint8(0))
	f.Fuzz(func(t *testing.T, loc, lastmod, cf string, prio float64, hasPrio bool, hash, img, hreflang, news, src,
		lastmod2, cf2, hash2 string, sec int64, off int32, prec, frac uint8) {
		date := func(s string) sitemap.Date {
			if d, _, err := sitemap.ParseDateLenient(s); err == nil {
				return d
			}
			// Not a date: build one from the raw numbers, odd ones
			// (precision or fraction digits out of range) included.
			return sitemap.Date{Time: time.Unix(sec, int64(frac)*12345).In(time.FixedZone("", int(off))), Precision: sitemap.Precision(prec % 8), FracDigits: frac % 12}
		}
		u := sitemap.URL{Loc: loc, LastMod: date(lastmod), ChangeFreq: sitemap.ChangeFreq(cf), ContentHash: hash, Source: src}
		if hasPrio {
			u.Priority = &prio
		}
		if img != "" {
			u.Images = []sitemap.Image{{Loc: img, Caption: hreflang}}
		}
		if hreflang != "" {
			u.Alternates = []sitemap.Alternate{{Hreflang: hreflang, Href: img}}
		}
		if news != "" {
			u.News = &sitemap.News{Title: news, PublicationDate: date(lastmod2)}
		}
		checkSameAsJSON(t, &u)

		v := u
		v.LastMod, v.ChangeFreq, v.ContentHash = date(lastmod2), sitemap.ChangeFreq(cf2), hash2
		_, ju, _, _ := jsonRoundTrip(&u)
		_, jv, _, _ := jsonRoundTrip(&v)
		_, bu, _, _ := binRoundTrip(&u)
		_, bv, _, _ := binRoundTrip(&v)
		if ju != nil && jv != nil && bytes.Equal(ju, jv) != bytes.Equal(bu, bv) {
			t.Errorf("JSON equal %v, temporary records equal %v\n%s\n%s", bytes.Equal(ju, jv), bytes.Equal(bu, bv), ju, jv)
		}
	})
}
