package crawl

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// WriteReport writes every outcome Outcomes gives, one JSON object a
// line, in the same order.
func TestWriteReport(t *testing.T) {
	site := newTestSite()
	defer site.Close()
	ctx := context.Background()
	c, _ := crawled(t, site.URL+"/")
	var want []string
	c.Outcomes(ctx, func(o Outcome) error { want = append(want, o.URL); return nil })
	var b bytes.Buffer
	if err := c.WriteReport(ctx, &b); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if len(lines) != len(want) || len(want) < 5 {
		t.Fatalf("%d lines, %d outcomes", len(lines), len(want))
	}
	for i, l := range lines {
		var o Outcome
		if err := json.Unmarshal([]byte(l), &o); err != nil || o.URL != want[i] {
			t.Errorf("line %d: %q (%v), want %s", i+1, l, err, want[i])
		}
	}
}
