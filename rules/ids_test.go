package rules_test

import (
	"bytes"
	"os"
	"testing"

	"github.com/sitemapkit/sitemap/rules"
	"github.com/sitemapkit/sitemap/rules/internal/idgen"
)

// TestIDsUpToDate fails when ids.go is not what go generate would write
// from the book: a rule added, renamed or restated without regenerating.
func TestIDsUpToDate(t *testing.T) {
	want, err := idgen.Source(rules.All())
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("ids.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("ids.go is out of date with the rule book: run go generate in rules/")
	}
}

// TestIDConstants checks the constants against the book through the
// names idgen gives: one per rule, the word-named ones in mixed caps.
func TestIDConstants(t *testing.T) {
	for _, c := range []struct {
		id   rules.ID
		name string
	}{
		{rules.L07, "L07"},
		{rules.LIM05, "LIM05"},
		{rules.READ01, "READ01"},
		{rules.FetchHTTP, "FetchHTTP"},
		{rules.FetchNone, "FetchNone"},
	} {
		if !rules.Known(c.id) {
			t.Errorf("%s = %q is not in the book", c.name, c.id)
		}
		if got := idgen.Name(c.id); got != c.name {
			t.Errorf("Name(%q) = %q, want %q", c.id, got, c.name)
		}
	}
	for _, bad := range []rules.ID{"", "L07", "-07", "L-"} {
		if n := idgen.Name(bad); n != "" {
			t.Errorf("Name(%q) = %q, want \"\"", bad, n)
		}
	}
}
