package sitemap

import (
	"strings"
	"time"
)

// rfc822Zones maps the time-zone names RSS feeds use (RFC 822 §5.1 plus a few
// common ones) to offsets in minutes.
var rfc822Zones = map[string]int{
	"UT": 0, "UTC": 0, "GMT": 0, "Z": 0,
	"EST": -5 * 60, "EDT": -4 * 60, "CST": -6 * 60, "CDT": -5 * 60,
	"MST": -7 * 60, "MDT": -6 * 60, "PST": -8 * 60, "PDT": -7 * 60,
	"BST": 60, "CET": 60, "CEST": 120, "MET": 60, "MEST": 120, "EET": 120, "EEST": 180,
	"WET": 0, "WEST": 60, "JST": 9 * 60, "KST": 9 * 60, "IST": 5*60 + 30,
	"AEST": 10 * 60, "AEDT": 11 * 60, "NZST": 12 * 60, "NZDT": 13 * 60,
}

var monthAbbrevs = [...]string{"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"}

// parseRFC822 parses an RSS pubDate: RFC 822/1123 with an
// optional day name, a 2- or 4-digit year, optional seconds, and a numeric
// or named zone (unknown names read as UTC). The result has second
// precision (minute when no seconds are given).
func parseRFC822(s string) (Date, bool) {
	f := strings.Fields(strings.ReplaceAll(s, ",", " "))
	if len(f) > 0 && len(f[0]) >= 3 && !allDigits(f[0]) {
		// Day name ("Mon", "Monday"): ignored.
		if _, ok := monthNumber(f[0]); !ok {
			f = f[1:]
		}
	}
	if len(f) < 4 {
		return Date{}, false
	}
	var day, mon int
	var ok bool
	if allDigits(f[0]) {
		day = atoiDigits(f[0])
		mon, ok = monthNumber(f[1])
	} else { // "Jan 02 2006" variant
		mon, ok = monthNumber(f[0])
		day = atoiDigits(f[1])
	}
	if !ok || day < 1 || day > 31 || !allDigits(f[2]) {
		return Date{}, false
	}
	year := atoiDigits(f[2])
	switch len(f[2]) {
	case 2:
		if year < 50 {
			year += 2000
		} else {
			year += 1900
		}
	case 4:
	default:
		return Date{}, false
	}
	tp := strings.Split(f[3], ":")
	if len(tp) < 2 || len(tp) > 3 {
		return Date{}, false
	}
	for _, p := range tp {
		if len(p) != 2 || !allDigits(p) {
			return Date{}, false
		}
	}
	hh, mm, ss := atoiDigits(tp[0]), atoiDigits(tp[1]), 0
	prec := PrecisionMinute
	if len(tp) == 3 {
		ss = atoiDigits(tp[2])
		prec = PrecisionSecond
	}
	if hh > 23 || mm > 59 || ss > 60 {
		return Date{}, false
	}
	if ss == 60 {
		ss = 59
	}
	loc := time.UTC
	if len(f) > 4 {
		z := f[4]
		off := 0
		if (z[0] == '+' || z[0] == '-') && len(z) == 5 && allDigits(z[1:]) {
			off = atoiDigits(z[1:3])*60 + atoiDigits(z[3:5])
			if z[0] == '-' {
				off = -off
			}
		} else if v, ok := rfc822Zones[strings.ToUpper(z)]; ok {
			off = v
		}
		if off != 0 {
			loc = time.FixedZone("", off*60)
		}
	}
	if day > daysIn(year, time.Month(mon)) {
		return Date{}, false
	}
	return Date{Time: time.Date(year, time.Month(mon), day, hh, mm, ss, 0, loc), Precision: prec}, true
}

func monthNumber(s string) (int, bool) {
	if len(s) < 3 {
		return 0, false
	}
	p := strings.ToLower(s[:3])
	for i, m := range monthAbbrevs {
		if p == m {
			return i + 1, true
		}
	}
	return 0, false
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func atoiDigits(s string) int {
	n := 0
	for i := 0; i < len(s) && i < 9; i++ {
		n = n*10 + int(s[i]-'0')
	}
	return n
}
