package sitemap

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// Precision says how much of a [Date] was given (D-01).
type Precision uint8

// The precisions of W3C Datetime (D-01). PrecisionNone marks the zero
// Date, which means "absent".
const (
	PrecisionNone   Precision = iota
	PrecisionYear             // YYYY
	PrecisionMonth            // YYYY-MM
	PrecisionDay              // YYYY-MM-DD
	PrecisionMinute           // YYYY-MM-DDThh:mmTZD
	PrecisionSecond           // YYYY-MM-DDThh:mm:ss[.s]TZD
)

// Date is a W3C Datetime value (D-01) that keeps the precision it was given
// in, so a date-only lastmod stays date-only (M-08) and a value read from a
// sitemap is written back as it was read (offset, "Z" or "+00:00", and
// fraction digits included).
//
// The zero Date means "absent".
type Date struct {
	// Time is the instant; for PrecisionYear/Month/Day it is midnight UTC
	// at the start of the period.
	Time time.Time
	// Precision is how much of the value was given.
	Precision Precision
	// FracDigits is the number of fractional-second digits written with
	// PrecisionSecond (0–9).
	FracDigits uint8
}

// DateOf returns t at second precision, with as many fraction digits as
// its nanoseconds need (none for a whole second), in t's own zone.
func DateOf(t time.Time) Date {
	d := Date{Time: t, Precision: PrecisionSecond}
	if ns := t.Nanosecond(); ns != 0 {
		d.FracDigits = 9
		for ns%10 == 0 {
			ns /= 10
			d.FracDigits--
		}
	}
	return d
}

// DayOf returns the calendar day of t (in t's zone) at day precision.
func DayOf(t time.Time) Date {
	y, m, dd := t.Date()
	return Date{Time: time.Date(y, m, dd, 0, 0, 0, 0, time.UTC), Precision: PrecisionDay}
}

// IsZero reports whether d is absent.
func (d Date) IsZero() bool { return d.Precision == PrecisionNone }

// Equal reports whether d and e denote the same instant at the same
// precision.
func (d Date) Equal(e Date) bool {
	return d.Precision == e.Precision && d.Time.Equal(e.Time) &&
		(d.Precision != PrecisionSecond || d.FracDigits == e.FracDigits)
}

// String returns the W3C Datetime text of d, or "" for the zero Date.
func (d Date) String() string { return string(d.AppendFormat(nil)) }

// AppendFormat appends the W3C Datetime text of d to b. It writes nothing
// for the zero Date. The common forms (years 0000–9999, whole-minute
// offsets) are written by hand, without time.Time's layout parser.
func (d Date) AppendFormat(b []byte) []byte {
	if d.Precision == PrecisionNone {
		return b
	}
	y, mo, dd := d.Time.Date()
	if y < 0 || y > 9999 {
		return d.appendFormatSlow(b)
	}
	b = append2(b, y/100)
	b = append2(b, y%100)
	if d.Precision == PrecisionYear {
		return b
	}
	b = append(b, '-')
	b = append2(b, int(mo))
	if d.Precision == PrecisionMonth {
		return b
	}
	b = append(b, '-')
	b = append2(b, dd)
	if d.Precision == PrecisionDay {
		return b
	}
	h, mi, sec := d.Time.Clock()
	b = append(b, 'T')
	b = append2(b, h)
	b = append(b, ':')
	b = append2(b, mi)
	if d.Precision >= PrecisionSecond {
		b = append(b, ':')
		b = append2(b, sec)
		if n := int(d.FracDigits); n > 0 {
			if n > 9 {
				n = 9
			}
			var buf [9]byte
			ns := d.Time.Nanosecond()
			for i := 8; i >= 0; i-- {
				buf[i] = byte('0' + ns%10)
				ns /= 10
			}
			b = append(b, '.')
			b = append(b, buf[:n]...)
		}
	}
	return appendZone(d.Time, b)
}

// appendFormatSlow writes years outside 0000–9999 through time's layouts.
func (d Date) appendFormatSlow(b []byte) []byte {
	switch d.Precision {
	case PrecisionYear:
		return d.Time.AppendFormat(b, "2006")
	case PrecisionMonth:
		return d.Time.AppendFormat(b, "2006-01")
	case PrecisionDay:
		return d.Time.AppendFormat(b, "2006-01-02")
	case PrecisionMinute:
		return appendZone(d.Time, d.Time.AppendFormat(b, "2006-01-02T15:04"))
	}
	b = d.Time.AppendFormat(b, "2006-01-02T15:04:05")
	if n := min(int(d.FracDigits), 9); n > 0 {
		b = append(b, d.Time.Format(".000000000")[:n+1]...)
	}
	return appendZone(d.Time, b)
}

// appendZone writes the TZD of t: "Z" for UTC, and "+00:00" for a zero
// offset that was written that way (a fixed zone other than time.UTC), so
// a value read from a sitemap is written back as it was.
func appendZone(t time.Time, b []byte) []byte {
	_, off := t.Zone()
	if off == 0 && t.Location() == time.UTC {
		return append(b, 'Z')
	}
	if off%60 != 0 || off <= -100*3600 || off >= 100*3600 {
		// Seconds in the offset cannot be written in a TZD; time writes
		// the nearest form it can.
		return t.AppendFormat(b, "Z07:00")
	}
	sign := byte('+')
	if off < 0 {
		sign, off = '-', -off
	}
	off /= 60
	b = append(b, sign)
	b = append2(b, off/60)
	b = append(b, ':')
	return append2(b, off%60)
}

// DateIssue is a set of the leniencies [ParseDateLenient] applied, or of
// the things about a W3C-valid value that a validator should mention.
type DateIssue uint16

// The issues a parsed date can carry (M-04, D-03).
const (
	// DateTrimmed: the value had leading or trailing white space.
	DateTrimmed DateIssue = 1 << iota
	// DateNoZone: a time without a TZD; read as UTC (a W3C error, D-01).
	DateNoZone
	// DateZonedDate: a date with a TZD but no time (2005-01-01Z); the date
	// is kept (a W3C error, D-01).
	DateZonedDate
	// DateHour24: 24:00:00, read as the next midnight (a W3C error, D-01).
	DateHour24
	// DateSpace: a space instead of "T" between date and time (W3C error).
	DateSpace
	// DateLargeOffset: a TZD beyond ±14:00 (D-03, warning).
	DateLargeOffset
)

// W3CErrors is the subset of issues that make a value invalid W3C
// Datetime (the lenient parser still reads it).
const W3CErrors = DateNoZone | DateZonedDate | DateHour24 | DateSpace

// String describes the issues for a diagnostic message.
func (i DateIssue) String() string {
	var parts []string
	if i&DateTrimmed != 0 {
		parts = append(parts, "surrounding white space")
	}
	if i&DateNoZone != 0 {
		parts = append(parts, "a time without a time zone (read as UTC); add Z or ±hh:mm")
	}
	if i&DateZonedDate != 0 {
		parts = append(parts, "a time zone on a date without a time; write YYYY-MM-DD")
	}
	if i&DateHour24 != 0 {
		parts = append(parts, "hour 24 (read as the next midnight); write 00:00:00 of the next day")
	}
	if i&DateSpace != 0 {
		parts = append(parts, "a space between date and time; use T")
	}
	if i&DateLargeOffset != 0 {
		parts = append(parts, "a time-zone offset beyond ±14:00")
	}
	return strings.Join(parts, ", ")
}

// ErrDate is wrapped by every error ParseDate and ParseDateLenient return.
var ErrDate = errors.New("not a W3C Datetime")

// ParseDate parses a W3C Datetime value (D-01, D-02) strictly: one
// of the six forms exactly, with real calendar days. An offset beyond
// ±14:00 is accepted (D-03 makes it a warning); use ParseDateLenient to
// learn of it.
func ParseDate(s string) (Date, error) {
	d, _, err := parseDate(s, false)
	return d, err
}

// ParseDateLenient parses s like ParseDate but also accepts the
// non-W3C forms that real sitemaps contain (the XSD accepts most of them,
// M-04): surrounding white space, a time without a zone (UTC), a zone on a bare date, hour 24, and a space instead of "T".
// The returned issues say which leniencies were needed.
func ParseDateLenient(s string) (Date, DateIssue, error) {
	return parseDate(s, true)
}

func dateErr(s, why string) error {
	return fmt.Errorf("%w: %q %s; use YYYY-MM-DD or YYYY-MM-DDThh:mm:ss±hh:mm (M-01)", ErrDate, s, why)
}

func digits(s string, i, n int) (int, bool) {
	if i+n > len(s) {
		return 0, false
	}
	v := 0
	for k := i; k < i+n; k++ {
		c := s[k]
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int(c-'0')
	}
	return v, true
}

func daysIn(y int, m time.Month) int {
	return time.Date(y, m+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

func parseDate(orig string, lenient bool) (Date, DateIssue, error) {
	var issues DateIssue
	s := orig
	if lenient {
		t := strings.TrimSpace(s)
		if t != s {
			issues |= DateTrimmed
			s = t
		}
	}
	year, ok := digits(s, 0, 4)
	if !ok {
		return Date{}, 0, dateErr(orig, "does not start with a four-digit year")
	}
	if len(s) == 4 {
		return Date{Time: time.Date(year, 1, 1, 0, 0, 0, 0, time.UTC), Precision: PrecisionYear}, issues, nil
	}
	if s[4] != '-' {
		return Date{}, 0, dateErr(orig, "has no '-' after the year")
	}
	month, ok := digits(s, 5, 2)
	if !ok || month < 1 || month > 12 {
		return Date{}, 0, dateErr(orig, "has no month 01–12")
	}
	if len(s) == 7 {
		return Date{Time: time.Date(year, time.Month(month), 1, 0, 0, 0, 0, time.UTC), Precision: PrecisionMonth}, issues, nil
	}
	if s[7] != '-' {
		return Date{}, 0, dateErr(orig, "has no '-' after the month")
	}
	day, ok := digits(s, 8, 2)
	if !ok || day < 1 || day > daysIn(year, time.Month(month)) {
		return Date{}, 0, dateErr(orig, "names a day that does not exist")
	}
	date := time.Date(year, time.Month(month), day, 0, 0, 0, 0, time.UTC)
	if len(s) == 10 {
		return Date{Time: date, Precision: PrecisionDay}, issues, nil
	}
	rest := s[10:]
	switch rest[0] {
	case 'T':
	case ' ':
		if !lenient {
			return Date{}, 0, dateErr(orig, "has a space where 'T' belongs")
		}
		issues |= DateSpace
	case 'Z', '+', '-':
		if !lenient {
			return Date{}, 0, dateErr(orig, "has a time zone but no time")
		}
		if _, _, ok := parseZone(rest); !ok {
			return Date{}, 0, dateErr(orig, "has a malformed time zone")
		}
		return Date{Time: date, Precision: PrecisionDay}, issues | DateZonedDate, nil
	default:
		return Date{}, 0, dateErr(orig, "has something other than 'T' after the date")
	}
	rest = rest[1:]
	hour, ok := digits(rest, 0, 2)
	if !ok || len(rest) < 5 || rest[2] != ':' {
		return Date{}, 0, dateErr(orig, "has no hh:mm time")
	}
	minute, ok := digits(rest, 3, 2)
	if !ok || minute > 59 {
		return Date{}, 0, dateErr(orig, "has no minute 00–59")
	}
	rest = rest[5:]
	prec := PrecisionMinute
	sec, nsec, frac := 0, 0, 0
	if len(rest) > 0 && rest[0] == ':' {
		prec = PrecisionSecond
		sec, ok = digits(rest, 1, 2)
		if !ok || sec > 59 {
			return Date{}, 0, dateErr(orig, "has no second 00–59")
		}
		rest = rest[3:]
		if len(rest) > 0 && rest[0] == '.' {
			i := 1
			for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
				if frac < 9 {
					nsec = nsec*10 + int(rest[i]-'0')
					frac++
				}
				i++
			}
			if i == 1 {
				return Date{}, 0, dateErr(orig, "has a '.' with no fraction digits")
			}
			for k := frac; k < 9; k++ {
				nsec *= 10
			}
			rest = rest[i:]
		}
	}
	if hour > 23 {
		if !lenient || hour != 24 || minute != 0 || sec != 0 || nsec != 0 {
			return Date{}, 0, dateErr(orig, "has no hour 00–23")
		}
		issues |= DateHour24
	}
	loc := time.UTC
	if rest == "" {
		if !lenient {
			return Date{}, 0, dateErr(orig, "has a time without a time zone (W3C requires Z or ±hh:mm)")
		}
		issues |= DateNoZone
	} else {
		off, large, ok := parseZone(rest)
		if !ok {
			return Date{}, 0, dateErr(orig, "has a malformed time zone")
		}
		if large {
			issues |= DateLargeOffset
		}
		if rest != "Z" {
			loc = time.FixedZone("", off)
		}
	}
	t := time.Date(year, time.Month(month), day, hour, minute, sec, nsec, loc)
	return Date{Time: t, Precision: prec, FracDigits: uint8(frac)}, issues, nil
}

// parseZone parses a whole TZD: "Z" or ±hh:mm with hh 00–23 and mm 00–59.
// It returns the offset in seconds and whether it lies beyond ±14:00.
func parseZone(z string) (off int, large, ok bool) {
	if z == "Z" {
		return 0, false, true
	}
	if len(z) != 6 || (z[0] != '+' && z[0] != '-') || z[3] != ':' {
		return 0, false, false
	}
	h, ok1 := digits(z, 1, 2)
	m, ok2 := digits(z, 4, 2)
	if !ok1 || !ok2 || h > 23 || m > 59 {
		return 0, false, false
	}
	off = h*3600 + m*60
	if z[0] == '-' {
		off = -off
	}
	return off, h > 14 || (h == 14 && m > 0), true
}
