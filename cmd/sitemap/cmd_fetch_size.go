package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/sitemapkit/sitemap/internal/seen"
)

// byteSize is a flag value in bytes written as a number with an optional
// unit: B, KiB, MiB, GiB (powers of 1024; K, M, G and k, m, g too) or KB,
// MB, GB (powers of 1000).
type byteSize int64

var sizeUnits = []struct {
	suffix string
	mult   int64
}{
	{"kib", 1 << 10}, {"mib", 1 << 20}, {"gib", 1 << 30},
	{"kb", 1e3}, {"mb", 1e6}, {"gb", 1e9},
	{"k", 1 << 10}, {"m", 1 << 20}, {"g", 1 << 30},
	{"b", 1},
}

func parseByteSize(s string) (int64, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	mult := int64(1)
	for _, u := range sizeUnits {
		if strings.HasSuffix(t, u.suffix) {
			t, mult = strings.TrimSpace(strings.TrimSuffix(t, u.suffix)), u.mult
			break
		}
	}
	n, err := strconv.ParseInt(t, 10, 64)
	if err != nil || n <= 0 || n > (1<<62)/mult {
		return 0, fmt.Errorf("%q is not a size; write a positive number with an optional unit, like 16MiB or 1GiB", s)
	}
	return n * mult, nil
}

func (b *byteSize) Set(s string) error {
	n, err := parseByteSize(s)
	if err != nil {
		return err
	}
	*b = byteSize(n)
	return nil
}

func (b *byteSize) String() string {
	n := int64(*b)
	switch {
	case n > 0 && n%(1<<30) == 0:
		return strconv.FormatInt(n>>30, 10) + "GiB"
	case n > 0 && n%(1<<20) == 0:
		return strconv.FormatInt(n>>20, 10) + "MiB"
	case n > 0 && n%(1<<10) == 0:
		return strconv.FormatInt(n>>10, 10) + "KiB"
	}
	return strconv.FormatInt(n, 10)
}

func (b *byteSize) Type() string { return "size" }

// checkDedupMemory refuses a --dedup-memory below seen.MinMemory (0, the
// default, is fine): the URLs seen would spill to disk every few
// thousand, and a large input would take many times longer.
func checkDedupMemory(b byteSize, def int64) error {
	if b > 0 && int64(b) < seen.MinMemory {
		m, d := byteSize(seen.MinMemory), byteSize(def)
		return cannotRun("--dedup-memory %s is too small: below %s the URLs seen go to disk every few thousand and a large input takes many times longer; give at least %s (the default is %s)", &b, &m, &m, &d)
	}
	return nil
}
