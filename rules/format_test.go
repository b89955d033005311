package rules

import (
	"errors"
	"io"
	"strings"
	"testing"
)

// failingWriter fails every write.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

// TestListAndExplain: each format writes what its writer writes; an
// unknown format, family or ID is an error saying what to give; a write
// error is said as one.
func TestListAndExplain(t *testing.T) {
	rs, err := Select([]string{"GZ"})
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]string, len(rs))
	for i, r := range rs {
		ids[i] = string(r.ID)
	}
	for _, c := range []struct {
		run    func(io.Writer, string, []string) error
		args   []string
		format string
		want   func(io.Writer, []Rule) error
	}{
		{List, []string{"GZ"}, "text", WriteText},
		{List, []string{"gz"}, "json", WriteJSON},
		{List, []string{"GZ"}, "markdown", WriteMarkdown},
		{Explain, ids, "text", WriteExplain},
		{Explain, ids, "json", WriteJSON},
	} {
		var got, want strings.Builder
		if err := c.run(&got, c.format, c.args); err != nil {
			t.Fatal(err)
		}
		c.want(&want, rs)
		if got.String() != want.String() || got.Len() == 0 {
			t.Errorf("%s: wrote %q; want %q", c.format, got.String(), want.String())
		}
	}
	for _, c := range []struct {
		err  error
		want string
	}{
		{List(io.Discard, "csv", nil), `--format "csv": want text, json or markdown`},
		{List(io.Discard, "text", []string{"ZZ"}), "ZZ"},
		{List(failingWriter{}, "text", nil), "writing output: disk full"},
		{Explain(io.Discard, "markdown", ids), `--format "markdown": want text or json`},
		{Explain(io.Discard, "text", []string{"ZZ-99"}), `no rule "ZZ-99"`},
		{Explain(failingWriter{}, "json", ids), "writing output: disk full"},
	} {
		if c.err == nil || !strings.Contains(c.err.Error(), c.want) {
			t.Errorf("%v; want an error with %q", c.err, c.want)
		}
	}
}
