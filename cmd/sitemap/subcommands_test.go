package main

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/spf13/cobra"
)

// TestSubcommandTable: each name in the table is the name of the command
// it builds, once, so a run that names a subcommand builds the right one.
func TestSubcommandTable(t *testing.T) {
	s := &streams{In: strings.NewReader(""), Out: io.Discard, Err: io.Discard}
	seen := map[string]bool{}
	for _, sc := range subcommands {
		if got := sc.build(s).Name(); got != sc.name {
			t.Errorf("subcommands entry %q builds the command %q", sc.name, got)
		}
		if seen[sc.name] {
			t.Errorf("subcommands lists %q twice", sc.name)
		}
		seen[sc.name] = true
	}
}

// TestRootBuildsOnlyTheNamedSubcommand: a run naming a subcommand builds
// that one alone; anything else builds them all.
func TestRootBuildsOnlyTheNamedSubcommand(t *testing.T) {
	s := &streams{In: strings.NewReader(""), Out: io.Discard, Err: io.Discard}
	names := func(args ...string) []string {
		var out []string
		for _, c := range newRootCmd(s, args).Commands() {
			out = append(out, c.Name())
		}
		return out
	}
	if got := names("parse", "--format", "txt", "x.xml"); len(got) != 1 || got[0] != "parse" {
		t.Errorf("sitemap parse built %v, want [parse]", got)
	}
	for _, args := range [][]string{nil, {"--help"}, {"help", "parse"}, {"--user-agent", "x", "parse"}, {"pars"}} {
		if got := names(args...); len(got) < len(subcommands) {
			t.Errorf("sitemap %v built %v, want every subcommand", args, got)
		}
	}
}

// TestRootHelpListsEverySubcommand and cobra's suggestion for a misspelt
// name still work with subcommands built on demand.
func TestRootHelpListsEverySubcommand(t *testing.T) {
	var out, errb bytes.Buffer
	s := &streams{In: strings.NewReader(""), Out: &out, Err: &errb}
	if code := execute(context.Background(), s, []string{"--help"}); code != exitOK {
		t.Fatalf("sitemap --help: exit %d\n%s", code, errb.String())
	}
	for _, sc := range subcommands {
		if !strings.Contains(out.String(), "\n  "+sc.name+" ") {
			t.Errorf("sitemap --help does not list %q:\n%s", sc.name, out.String())
		}
	}
	out.Reset()
	errb.Reset()
	if code := execute(context.Background(), s, []string{"valdate"}); code != exitUsage {
		t.Fatalf("sitemap valdate: exit %d, want %d", code, exitUsage)
	}
	if !strings.Contains(errb.String(), "validate") {
		t.Errorf("sitemap valdate suggests nothing: %s", errb.String())
	}
}

// TestHelpProseWidth: the paragraphs of every command's help are wrapped
// for a terminal (indented lines, examples and sample output, may run
// longer).
func TestHelpProseWidth(t *testing.T) {
	const width = 96
	s := &streams{In: strings.NewReader(""), Out: io.Discard, Err: io.Discard}
	var check func(c *cobra.Command)
	check = func(c *cobra.Command) {
		for i, line := range strings.Split(c.Long, "\n") {
			if n := utf8.RuneCountInString(line); n > width && !strings.HasPrefix(line, " ") {
				t.Errorf("%s --help, line %d of its description: %d characters, want at most %d:\n%s", c.CommandPath(), i+1, n, width, line)
			}
		}
		for _, sub := range c.Commands() {
			check(sub)
		}
	}
	check(newRootCmd(s, nil))
}

// TestEveryCommandHasHelp: every command's help file (help/NAME.txt) is
// there and whole: a summary and a description, and every help topic
// has its text.
func TestEveryCommandHasHelp(t *testing.T) {
	s := &streams{In: strings.NewReader(""), Out: io.Discard, Err: io.Discard}
	var check func(c *cobra.Command)
	check = func(c *cobra.Command) {
		if c.Name() != "completion" && c.Name() != "help" && !strings.HasPrefix(c.CommandPath(), "sitemap completion") {
			if c.Short == "" || c.Long == "" || strings.Contains(c.Short, "\n") {
				t.Errorf("%s: summary %q, description %q: want both, the summary one line (help/*.txt)", c.CommandPath(), c.Short, c.Long)
			}
		}
		for _, sub := range c.Commands() {
			check(sub)
		}
	}
	root := newRootCmd(s, nil)
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd()
	check(root)
	if len(helpTopics()) < 2 {
		t.Errorf("help topics: %d, want the files of help/topics", len(helpTopics()))
	}
}
