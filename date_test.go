package sitemap

import (
	"errors"
	"testing"
	"time"
)

// The six W3C Datetime forms (D-01) and the forms where the XSD and W3C
// disagree (M-04).
func TestParseDate(t *testing.T) {
	tests := []struct {
		in       string
		strictOK bool
		lenient  bool
		issues   DateIssue
		prec     Precision
		out      string // what AppendFormat writes back
	}{
		{"1997", true, true, 0, PrecisionYear, "1997"},
		{"1997-07", true, true, 0, PrecisionMonth, "1997-07"},
		{"1997-07-16", true, true, 0, PrecisionDay, "1997-07-16"},
		{"1997-07-16T19:20+01:00", true, true, 0, PrecisionMinute, "1997-07-16T19:20+01:00"},
		{"1997-07-16T19:20:30+01:00", true, true, 0, PrecisionSecond, "1997-07-16T19:20:30+01:00"},
		{"1997-07-16T19:20:30.45+01:00", true, true, 0, PrecisionSecond, "1997-07-16T19:20:30.45+01:00"},
		{"2005-01-01T10:00:00.123456789Z", true, true, 0, PrecisionSecond, "2005-01-01T10:00:00.123456789Z"},
		{"2004-10-01T18:23:17+00:00", true, true, 0, PrecisionSecond, "2004-10-01T18:23:17+00:00"},
		{"2004-10-01T18:23+00:00", true, true, 0, PrecisionMinute, "2004-10-01T18:23+00:00"},
		{"2005-01-01T10:00:00+14:00", true, true, 0, PrecisionSecond, "2005-01-01T10:00:00+14:00"},
		{"2005-01-01T10:00:00+15:00", true, true, DateLargeOffset, PrecisionSecond, "2005-01-01T10:00:00+15:00"},
		{"2005-01-01T10:00:00", false, true, DateNoZone, PrecisionSecond, "2005-01-01T10:00:00Z"},
		{"2005-01-01Z", false, true, DateZonedDate, PrecisionDay, "2005-01-01"},
		{"2005-01-01+02:00", false, true, DateZonedDate, PrecisionDay, "2005-01-01"},
		{"2005-01-01T24:00:00Z", false, true, DateHour24, PrecisionSecond, "2005-01-02T00:00:00Z"},
		{" 2005-01-01 ", false, true, DateTrimmed, PrecisionDay, "2005-01-01"},
		{"2005-01-01 10:00:00Z", false, true, DateSpace, PrecisionSecond, "2005-01-01T10:00:00Z"},
		{"2004-02-29", true, true, 0, PrecisionDay, "2004-02-29"},
		{"2005-02-29", false, false, 0, 0, ""},
		{"2005-02-30", false, false, 0, 0, ""},
		{"10000-01-01", false, false, 0, 0, ""},
		{"-0001-01-01", false, false, 0, 0, ""},
		{"2005-13-01", false, false, 0, 0, ""},
		{"2005-01-01T25:00:00Z", false, false, 0, 0, ""},
		{"2005-01-01T24:30:00Z", false, false, 0, 0, ""},
		{"2005-01-01T10:60:00Z", false, false, 0, 0, ""},
		{"2005-01-01T10:00:00.Z", false, false, 0, 0, ""},
		{"2005-01-01T10:00:00+1:00", false, false, 0, 0, ""},
		{"yesterday", false, false, 0, 0, ""},
		{"", false, false, 0, 0, ""},
		{"Mon, 02 Jan 2006 15:04:05 MST", false, false, 0, 0, ""},
	}
	for _, tt := range tests {
		_, err := ParseDate(tt.in)
		if (err == nil) != tt.strictOK {
			t.Errorf("ParseDate(%q) err = %v, want ok=%v", tt.in, err, tt.strictOK)
		}
		if err != nil && !errors.Is(err, ErrDate) {
			t.Errorf("ParseDate(%q) error %v does not wrap ErrDate", tt.in, err)
		}
		d, issues, err := ParseDateLenient(tt.in)
		if (err == nil) != tt.lenient {
			t.Errorf("ParseDateLenient(%q) err = %v, want ok=%v", tt.in, err, tt.lenient)
			continue
		}
		if err != nil {
			continue
		}
		if issues != tt.issues {
			t.Errorf("ParseDateLenient(%q) issues = %b (%s), want %b", tt.in, issues, issues, tt.issues)
		}
		if d.Precision != tt.prec {
			t.Errorf("ParseDateLenient(%q) precision = %d, want %d", tt.in, d.Precision, tt.prec)
		}
		if got := d.String(); got != tt.out {
			t.Errorf("ParseDateLenient(%q).String() = %q, want %q", tt.in, got, tt.out)
		}
	}
}

func TestDateOfRoundTrip(t *testing.T) {
	for _, tm := range []time.Time{
		time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC),
		time.Date(2026, 11, 2, 10, 0, 0, 500000000, time.FixedZone("", -5*3600)),
		time.Date(2026, 11, 2, 10, 0, 0, 123, time.UTC),
	} {
		d := DateOf(tm)
		back, err := ParseDate(d.String())
		if err != nil {
			t.Fatalf("ParseDate(%q): %v", d.String(), err)
		}
		if !back.Equal(d) {
			t.Errorf("round trip of %v: got %q (%v), want %v", tm, back.String(), back, d)
		}
	}
	if got := DayOf(time.Date(2026, 1, 31, 23, 0, 0, 0, time.UTC)).String(); got != "2026-01-31" {
		t.Errorf("DayOf = %q", got)
	}
	if !(Date{}).IsZero() || (Date{}).String() != "" {
		t.Error("zero Date must be absent and format as empty")
	}
}

func TestDiagnosticString(t *testing.T) {
	d := Diagnostic{Rule: "X-06", Severity: SeverityError, Message: "<lastmod> before <loc>", File: "sitemap-3.xml", Line: 120, Col: 7}
	if got, want := d.String(), "sitemap-3.xml:120:7: error X-06: <lastmod> before <loc>"; got != want {
		t.Errorf("got %q want %q", got, want)
	}
}

func FuzzParseDate(f *testing.F) {
	for _, s := range []string{"1997", "1997-07-16T19:20:30.45+01:00", "2005-01-01T24:00:00Z", " 2005-01-01 ", "2005-02-30"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, _, err := ParseDateLenient(s)
		if err != nil {
			return
		}
		// Whatever the lenient parser accepts is written back as strict W3C.
		back, err := ParseDate(d.String())
		if err != nil {
			t.Fatalf("lenient %q wrote %q which strict rejects: %v", s, d.String(), err)
		}
		if !back.Equal(d) {
			t.Fatalf("%q -> %q -> %v, not equal to %v", s, d.String(), back, d)
		}
	})
}

// TestAppendFormatMatchesLayouts: the hand-written writer gives what the
// time layouts give, for random instants, zones and precisions.
func TestAppendFormatMatchesLayouts(t *testing.T) {
	zones := []*time.Location{time.UTC, time.FixedZone("", 0), time.FixedZone("", 3600), time.FixedZone("", -(9*3600 + 30*60)), time.FixedZone("", 14*3600)}
	layouts := map[Precision]string{PrecisionYear: "2006", PrecisionMonth: "2006-01", PrecisionDay: "2006-01-02", PrecisionMinute: "2006-01-02T15:04", PrecisionSecond: "2006-01-02T15:04:05"}
	for i := 0; i < 20000; i++ {
		sec := int64(i)*7919*86400/13 + int64(i*i)%86400
		tm := time.Unix(sec-30*365*86400, int64(i*104729)%1e9).In(zones[i%len(zones)])
		for p := PrecisionYear; p <= PrecisionSecond; p++ {
			d := Date{Time: tm, Precision: p, FracDigits: uint8(i % 10)}
			if p != PrecisionSecond {
				d.FracDigits = 0
			}
			want := tm.Format(layouts[p])
			if d.FracDigits > 0 {
				want += tm.Format(".000000000")[:d.FracDigits+1]
			}
			if p >= PrecisionMinute {
				if _, off := tm.Zone(); off == 0 && tm.Location() != time.UTC {
					want += "+00:00"
				} else {
					want += tm.Format("Z07:00")
				}
			}
			if got := d.String(); got != want {
				t.Fatalf("%v at precision %d, %d digits: got %q want %q", tm, p, d.FracDigits, got, want)
			}
		}
	}
}

func BenchmarkDateAppendFormat(b *testing.B) {
	d, _ := ParseDate("2026-11-02T10:00:00+01:00")
	buf := make([]byte, 0, 64)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		buf = d.AppendFormat(buf[:0])
	}
}

// TestAppendFormatEdges: years outside 0000–9999 take the slow path, which
// must clamp FracDigits to 9 like the fast one (a fuzz target found it).
func TestAppendFormatEdges(t *testing.T) {
	tm := time.Date(10000, 1, 1, 0, 0, 0, 123456789, time.UTC)
	for _, digits := range []uint8{0, 3, 9, 10, 255} {
		d := Date{Time: tm, Precision: PrecisionSecond, FracDigits: digits}
		got := d.String()
		want := "10000-01-01T00:00:00Z"
		if n := min(int(digits), 9); n > 0 {
			want = "10000-01-01T00:00:00." + "123456789"[:n] + "Z"
		}
		if got != want {
			t.Errorf("%d digits: %q, want %q", digits, got, want)
		}
	}
	d := Date{Time: time.Date(2026, 1, 2, 3, 4, 5, 123456789, time.UTC), Precision: PrecisionSecond, FracDigits: 12}
	if got := d.String(); got != "2026-01-02T03:04:05.123456789Z" {
		t.Errorf("fast path, 12 digits: %q", got)
	}
}
