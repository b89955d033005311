package sitemap

import (
	"strconv"

	"github.com/sitemapkit/sitemap/internal/check"
	"github.com/sitemapkit/sitemap/rules"
)

// checkDate checks an optional date field: it must be writable in one of
// the forms M-08 allows. A year or a year and month alone breaks M-04 (the
// schema rejects them and the encoder will not invent a day; a minute-
// precision time is written with ":00" seconds); the year must be
// 0001–9999 (M-01). rule is the field's own rule, for a precision the
// model does not know.
func checkDate(f field, rule rules.ID, d Date) error {
	switch d.Precision {
	case PrecisionNone:
		return nil
	case PrecisionYear:
		return problemErr(f, d.String(), check.DatePrecision(check.FormYear))
	case PrecisionMonth:
		return problemErr(f, d.String(), check.DatePrecision(check.FormMonth))
	case PrecisionDay, PrecisionMinute, PrecisionSecond:
	default:
		return entryErr(f, rule, "", "has an unknown precision "+strconv.Itoa(int(d.Precision)))
	}
	// Year 0001–9999 in the written zone, without the calendar arithmetic.
	if local, _ := localSeconds(d); local < minLocalSec || local > maxLocalSec {
		return problemErr(f, d.String(), check.DateYear(fieldsOf(d).year))
	}
	return nil
}

// The Unix seconds of 0001-01-01T00:00:00 and 9999-12-31T23:59:59.
const (
	minLocalSec = -62135596800
	maxLocalSec = 253402300799
)

// localSeconds returns the Unix seconds of d's wall clock in the zone the
// encoder writes (see fieldsOf), and that zone's offset.
func localSeconds(d Date) (local int64, off int) {
	_, off = d.Time.Zone()
	if d.Precision >= PrecisionMinute && (off%60 != 0 || off > 14*3600 || off < -14*3600) {
		off = 0
	}
	return d.Time.Unix() + int64(off), off
}

// dateFields are the calendar fields the encoder writes for a Date.
type dateFields struct {
	year, month, day, hour, min, sec, nsec int
	off                                    int // TZD offset in seconds
}

// fieldsOf returns the fields written for d: d.Time in its own zone,
// except that for minute and second precision a zone whose offset is not
// a whole number of minutes or lies beyond ±14:00 (which a TZD cannot
// express, D-03) is replaced by UTC, the same instant. One zone lookup and
// integer arithmetic (the civil-from-days algorithm), so the hot path
// stays cheap.
func fieldsOf(d Date) dateFields {
	local, off := localSeconds(d)
	days := local / 86400
	if local%86400 < 0 {
		days--
	}
	secs := int(local - days*86400)
	f := dateFields{hour: secs / 3600, min: secs / 60 % 60, sec: secs % 60, nsec: d.Time.Nanosecond(), off: off}
	// Days since 1970-01-01 to a proleptic Gregorian date (H. Hinnant).
	z := days + 719468
	era := z
	if era < 0 {
		era -= 146096
	}
	era /= 146097
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	f.day = int(doy - (153*mp+2)/5 + 1)
	f.month = int(mp + 3)
	if mp >= 10 {
		f.month = int(mp - 9)
	}
	f.year = int(yoe + era*400)
	if f.month <= 2 {
		f.year++
	}
	return f
}
