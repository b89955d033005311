package rules

import (
	"io"
	"strings"
	"testing"
)

// TestWriters: each format a command names writes what its writer
// writes; another is an error naming the formats.
func TestWriters(t *testing.T) {
	rs, err := Select([]string{"GZ"})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		get    func(string) (func(io.Writer, []Rule) error, error)
		format string
		want   func(io.Writer, []Rule) error
	}{
		{ListWriter, "text", WriteText},
		{ListWriter, "json", WriteJSON},
		{ListWriter, "markdown", WriteMarkdown},
		{ExplainWriter, "text", WriteExplain},
		{ExplainWriter, "json", WriteJSON},
	} {
		write, err := c.get(c.format)
		if err != nil {
			t.Fatalf("%s: %v", c.format, err)
		}
		var got, want strings.Builder
		if err := write(&got, rs); err != nil {
			t.Fatal(err)
		}
		c.want(&want, rs)
		if got.String() != want.String() || got.Len() == 0 {
			t.Errorf("%s: wrote %q; want %q", c.format, got.String(), want.String())
		}
	}
	if _, err := ListWriter("csv"); err == nil || err.Error() != `--format "csv": want text, json or markdown` {
		t.Errorf("ListWriter(csv): %v", err)
	}
	if _, err := ExplainWriter("markdown"); err == nil || err.Error() != `--format "markdown": want text or json` {
		t.Errorf("ExplainWriter(markdown): %v", err)
	}
}
