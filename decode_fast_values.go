package sitemap

import "time"

// This file holds the fast paths of value parsing: the usual date forms,
// simple decimals (<priority>), and the allocations they save. Each one
// takes only the inputs for which it gives exactly what the general parser
// gives and reports false for the rest; decode_fast_test.go checks that.

// zoneCache keeps the *time.Location of the last few time-zone offsets
// seen in dates: time.FixedZone allocates for offsets that are not whole
// hours, and a sitemap mostly repeats one or two offsets.
type zoneCache struct {
	off  [4]int
	loc  [4]*time.Location
	next int
}

func (c *zoneCache) get(off int) *time.Location {
	for i, l := range c.loc {
		if l != nil && c.off[i] == off {
			return l
		}
	}
	// The same Location parseDate builds (FixedZone with no name).
	l := time.FixedZone("", off)
	c.off[c.next], c.loc[c.next] = off, l
	c.next = (c.next + 1) % len(c.loc)
	return l
}

// parseCommonDate parses the two date forms sitemaps use almost always,
// YYYY-MM-DD and YYYY-MM-DDThh:mm:ss[.f](Z|±hh:mm), when they are valid
// W3C Datetime with an offset within ±14:00: exactly the inputs for which
// ParseDateLenient returns no issue and the decoder reports nothing (no
// M-01, M-04, D-03). It returns the Date ParseDateLenient would, built
// without time.Date. Anything else reports false and goes to the general
// parser.
func parseCommonDate(b []byte, zones *zoneCache) (Date, bool) {
	if len(b) < 10 || b[4] != '-' || b[7] != '-' {
		return Date{}, false
	}
	year, ok1 := digits4(b[0:4])
	month, ok2 := digits2(b[5:7])
	day, ok3 := digits2(b[8:10])
	if !ok1 || !ok2 || !ok3 || year < 1 || month < 1 || month > 12 || day < 1 || day > monthDays(year, month) {
		return Date{}, false // year 0000 breaks M-01: the general way reports it
	}
	days := daysFromCivil(year, month, day)
	if len(b) == 10 {
		return Date{Time: time.Unix(days*86400, 0).UTC(), Precision: PrecisionDay}, true
	}
	// "Thh:mm:ss"
	if len(b) < 20 || b[10] != 'T' || b[13] != ':' || b[16] != ':' {
		return Date{}, false
	}
	hour, ok1 := digits2(b[11:13])
	minute, ok2 := digits2(b[14:16])
	sec, ok3 := digits2(b[17:19])
	if !ok1 || !ok2 || !ok3 || hour > 23 || minute > 59 || sec > 59 {
		return Date{}, false
	}
	rest := b[19:]
	nsec, frac := 0, 0
	if rest[0] == '.' {
		i := 1
		for i < len(rest) && i <= 9 && rest[i] >= '0' && rest[i] <= '9' {
			nsec = nsec*10 + int(rest[i]-'0')
			i++
		}
		frac = i - 1
		if frac == 0 || i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
			return Date{}, false // no digit, or more than nine: general path
		}
		for k := frac; k < 9; k++ {
			nsec *= 10
		}
		rest = rest[i:]
	}
	unix := days*86400 + int64(hour*3600+minute*60+sec)
	var t time.Time
	switch {
	case len(rest) == 1 && rest[0] == 'Z':
		t = time.Unix(unix, int64(nsec)).UTC()
	case len(rest) == 6 && (rest[0] == '+' || rest[0] == '-') && rest[3] == ':':
		zh, ok1 := digits2(rest[1:3])
		zm, ok2 := digits2(rest[4:6])
		if !ok1 || !ok2 || zm > 59 || zh > 14 || zh == 14 && zm > 0 {
			return Date{}, false // malformed, or beyond ±14:00 (D-03)
		}
		off := zh*3600 + zm*60
		if rest[0] == '-' {
			off = -off
		}
		t = time.Unix(unix-int64(off), int64(nsec)).In(zones.get(off))
	default:
		return Date{}, false
	}
	return Date{Time: t, Precision: PrecisionSecond, FracDigits: uint8(frac)}, true
}

func digits2(b []byte) (int, bool) {
	c0, c1 := b[0]-'0', b[1]-'0'
	return int(c0)*10 + int(c1), c0 <= 9 && c1 <= 9
}

func digits4(b []byte) (int, bool) {
	hi, ok1 := digits2(b[0:2])
	lo, ok2 := digits2(b[2:4])
	return hi*100 + lo, ok1 && ok2
}

// monthDays returns the days of month m (1–12) of year y, proleptic
// Gregorian like package time.
func monthDays(y, m int) int {
	if m == 2 {
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	}
	return 30 + (m+m/8)&1
}

// daysFromCivil returns the days from 1970-01-01 to y-m-d (proleptic
// Gregorian; y from 0), after H. Hinnant's days_from_civil.
func daysFromCivil(y, m, d int) int64 {
	yy := int64(y) + 400 // keep it positive for year 0's January and February
	if m <= 2 {
		yy--
	}
	era := yy / 400
	yoe := yy - era*400
	mp := int64((m + 9) % 12)
	doy := (153*mp+2)/5 + int64(d) - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468 - 146097
}

// parseSimpleDecimal parses an unsigned decimal of at most 15 digits
// ("1", "0.5", ".25", "1."), the usual <priority> values: the digits as an
// integer divided by a power of ten, which IEEE rounds exactly as
// strconv.ParseFloat does since both are exact. Anything else (sign, more
// digits, no digit) reports false for the general parser.
func parseSimpleDecimal(b []byte) (float64, bool) {
	var mant uint64
	digits, frac := 0, -1
	for i, c := range b {
		switch {
		case c >= '0' && c <= '9':
			mant = mant*10 + uint64(c-'0')
			digits++
		case c == '.' && frac < 0:
			frac = len(b) - i - 1
		default:
			return 0, false
		}
	}
	if digits == 0 || digits > 15 {
		return 0, false
	}
	if frac <= 0 {
		return float64(mant), true
	}
	return float64(mant) / pow10[frac], true
}

var pow10 = [...]float64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15}

// newPriority returns a pointer to p, carved from a small slab so that a
// urlset does not cost one allocation per <priority>. Every entry gets its
// own float64: a caller changing one changes no other.
func (x *xmlReader) newPriority(p float64) *float64 {
	if len(x.prioSlab) == 0 {
		x.prioSlab = make([]float64, 64)
	}
	f := &x.prioSlab[0]
	x.prioSlab = x.prioSlab[1:]
	*f = p
	return f
}
