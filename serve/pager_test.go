package serve

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// A SQL source's Pager cuts the same pages as its walk by key (Stats), with
// the same byte bounds; when a page would not fit the byte limit, build walks
// the keys instead and cuts by bytes.
func TestPager(t *testing.T) {
	for _, b := range []backend{sqliteBackend, postgresBackend} {
		t.Run(b.name, func(t *testing.T) {
			rows := testRows(95)
			rows[3].loc = "https://www.example.com/p/0030?a=1&b='2'"
			rows[4].loc = "/relative/0040"
			src, _ := b.open(t, rows)
			if _, ok := src.(Pager); !ok {
				t.Fatal("a SQL source is a Pager")
			}
			ctx := context.Background()
			for _, lim := range []limits{{perPage: 10, maxBytes: 1 << 20}, {perPage: 10, maxBytes: 1500}} {
				fast, err := build(ctx, src, lim)
				if err != nil {
					t.Fatal(err)
				}
				slow, err := build(ctx, noPager{src, src.(Statter)}, lim)
				if err != nil {
					t.Fatal(err)
				}
				if fmt.Sprint(describe(fast)) != fmt.Sprint(describe(slow)) {
					t.Errorf("limits %+v: the Pager cut\n%v\nthe walk by key\n%v", lim, describe(fast), describe(slow))
				}
			}
		})
	}
}

// noPager hides a source's Pager, keeping its Statter.
type noPager struct {
	Source
	Statter
}

func describe(ps []*page) []string {
	var out []string
	for _, p := range ps {
		out = append(out, fmt.Sprintf("%d (%v,%v] n=%d bytes=%d lastmod=%s", p.id, p.after, p.upto, p.count, p.bytes, p.lastmod.Time.Format(time.RFC3339)))
	}
	return out
}
