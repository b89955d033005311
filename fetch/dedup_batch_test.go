package fetch

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/sitemapkit/sitemap/urlnorm"
)

// TestDedupBatchModel: the workers hand the dedup a batch of URLs at a
// time, and what comes out is what one URL at a time gave. With one
// worker, the events of a walk with dedup are those of the same walk
// with NoDedup minus every URL whose normal form came earlier: the first
// copy is kept (the one on the earliest line of the earliest sitemap),
// nothing else moves (diagnostics, node starts and ends stay where they
// were among the URLs), and the summary counts the others as duplicates.
// The sitemaps are long enough for several batches, repeats fall in the
// same batch and in earlier ones (a whole batch of repeats included),
// in other spellings, and the small budget makes the set spill.
func TestDedupBatchModel(t *testing.T) {
	for _, tc := range []struct {
		name   string
		seed   uint64
		budget int64
	}{
		{"memory", 1, 0},
		{"memory-2", 2, 0},
		{"spill", 3, 8 << 10},
		{"spill-2", 4, 8 << 10},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSite(t)
			rng := rand.New(rand.NewPCG(tc.seed, 26))
			spell := []string{"https://e.com/p/%d", "HTTPS://E.COM:443/p/%d", "https://e.com/a/../p/%d", "https://e.com/p/%d#top"}
			var subs []string
			for k := range 4 {
				var b bytes.Buffer
				b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
				n := 400 + rng.IntN(1400)
				for i := range n {
					id := rng.IntN(2000)
					if k == 3 && i < 700 {
						id = i // a run of repeats of sitemap 0's first URLs: whole batches of them
					}
					fmt.Fprintf(&b, "<url><loc>"+spell[rng.IntN(len(spell))]+"</loc>", id)
					if rng.IntN(50) == 0 {
						b.WriteString("<priority>7</priority>") // a diagnostic among the URLs
					}
					b.WriteString("</url>\n")
				}
				if k == 0 {
					for i := range 700 {
						fmt.Fprintf(&b, "<url><loc>https://e.com/p/%d</loc></url>\n", i)
					}
				}
				b.WriteString("</urlset>\n")
				p := "/s" + strconv.Itoa(k) + ".xml"
				s.serve(p, "", b.Bytes())
				subs = append(subs, s.URL+p)
			}
			s.serve("/i.xml", "", index(subs...))
			events := func(o Options) ([]string, []string, Summary) {
				o.Concurrency, o.PerHost, o.TempDir = 1, 1, t.TempDir()
				var evs, keys []string
				sum, err := Walk(t.Context(), s.URL+"/i.xml", o, func(ev Event) error {
					switch ev.Kind {
					case EventURL:
						evs = append(evs, fmt.Sprintf("url %d:%d %s", ev.NodeID, ev.Line, ev.URL.Loc))
						keys = append(keys, urlnorm.Key(ev.URL.Loc))
						return nil
					case EventDiagnostic:
						evs = append(evs, fmt.Sprintf("diag %s %d:%d", ev.Diagnostic.Rule, ev.NodeID, ev.Diagnostic.Line))
					case EventNodeStart, EventNodeEnd:
						evs = append(evs, fmt.Sprintf("node %d %d %s urls %d", ev.Kind, ev.NodeID, ev.Node.URL, ev.Node.URLs))
					}
					keys = append(keys, "")
					return nil
				})
				if err != nil {
					t.Fatal(err)
				}
				return evs, keys, sum
			}
			all, keys, allSum := events(Options{NoDedup: true})
			var want []string
			seen := map[string]bool{}
			for i, ev := range all {
				if k := keys[i]; k != "" {
					if seen[k] {
						continue
					}
					seen[k] = true
				}
				want = append(want, ev)
			}
			got, _, sum := events(Options{DedupMemory: tc.budget})
			if !slices.Equal(got, want) {
				for i := range min(len(got), len(want)) {
					if got[i] != want[i] {
						t.Fatalf("event %d: %q, want %q (%d events, want %d)", i, got[i], want[i], len(got), len(want))
					}
				}
				t.Fatalf("%d events, want %d", len(got), len(want))
			}
			if dups := allSum.URLs - int64(len(seen)); sum.URLs != int64(len(seen)) || sum.Duplicates != dups || sum.Entries != allSum.Entries || dups < 1000 {
				t.Fatalf("summary %+v; want %d URLs and %d duplicates of %d entries", sum, len(seen), dups, allSum.Entries)
			}
		})
	}
}
