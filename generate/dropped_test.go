package generate

import (
	"context"
	"strings"
	"testing"

	"github.com/sitemapkit/sitemap/store"
)

// TestRunDroppedItemsNamedAsRead: when several items of one list are
// dropped, each is named by its index in the entry as read, not as the
// entry stands after the earlier drops (the second bad alternate of
// [de, english, francais] was reported as alternates[1] twice).
func TestRunDroppedItemsNamedAsRead(t *testing.T) {
	in := `{"loc":"` + base + `h","alternates":[{"hreflang":"de","href":"` + base + `de/h"},` +
		`{"hreflang":"english","href":"` + base + `h"},{"hreflang":"francais","href":"` + base + `fr/h"},` +
		`{"hreflang":"x-klingon","href":"` + base + `tlh/h"}]}`
	var got []Problem
	o := opts(store.Memory(), &got)
	o.NoHreflangCheck = true
	if _, err := Run(context.Background(), jsonl(in), o); err != nil {
		t.Fatal(err)
	}
	want := []string{`alternates[1].hreflang "english"`, `alternates[2].hreflang "francais"`, `alternates[3].hreflang "x-klingon"`}
	var msgs []string
	for _, p := range got {
		if strings.Contains(p.Message, "dropped, the page kept") {
			msgs = append(msgs, p.Message)
		}
	}
	if len(msgs) != len(want) {
		t.Fatalf("%d drops, want %d:\n%s", len(msgs), len(want), strings.Join(msgs, "\n"))
	}
	for i, w := range want {
		item := w[:strings.IndexByte(w, '.')]
		if !strings.Contains(msgs[i], w) || !strings.HasSuffix(msgs[i], item+" dropped, the page kept") {
			t.Errorf("drop %d: %q, want %q and %s dropped", i, msgs[i], w, item)
		}
	}
}

// TestDroppedItemsAsRead: the index arithmetic, drops out of order too.
func TestDroppedItemsAsRead(t *testing.T) {
	var g droppedItems
	for _, c := range []struct{ now, read string }{
		{"images[2]", "images[2]"}, // read [0 1 2 3 4]: 2 goes
		{"images[0]", "images[0]"}, // [0 1 3 4]: 0 goes
		{"images[1]", "images[3]"}, // [1 3 4]: 3 goes
		{"images[1]", "images[4]"}, // [1 4]: 4 goes
		{"lastmod", "lastmod"},
		{"images[0].caption", "images[0].caption"},
		{"videos[0]", "videos[0]"},
	} {
		msg, got := g.asRead("at "+c.now+": bad", c.now)
		if got != c.read || msg != "at "+c.read+": bad" {
			t.Errorf("%s: %q, %q; want %s", c.now, got, msg, c.read)
		}
	}
}
