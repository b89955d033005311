package main

import (
	"embed"
	"strings"

	"github.com/spf13/cobra"
)

// helpFiles hold each command's help: help/NAME.txt (NAME the command's
// path after sitemap, its words joined by "-"; the root's is
// sitemap.txt) is the one-line Short, a blank line, the description of
// two or three lines (Long), and, after a blank line, the examples: one
// command a line, indented by two spaces, each of which runs as written
// from the repository root (TestEveryExampleRuns). help/topics/NAME.txt
// are the topics of `sitemap help NAME`: a one-line summary, a blank
// line, and the text.
//
//go:embed help/*.txt help/topics/*.txt
var helpFiles embed.FS

// withHelp sets c's Short, Long and Example from help/NAME.txt, and
// returns c.
func withHelp(name string, c *cobra.Command) *cobra.Command {
	c.Short, c.Long, c.Example = helpText("help/" + name + ".txt")
	return c
}

// helpText splits a help file into its summary, description and
// examples (see helpFiles). A missing file is a bug the tests catch: its
// command has no help.
func helpText(path string) (short, long, example string) {
	b, _ := helpFiles.ReadFile(path)
	blocks := strings.Split(strings.TrimRight(string(b), "\n"), "\n\n")
	short = blocks[0]
	if last := blocks[len(blocks)-1]; len(blocks) > 1 && strings.HasPrefix(last, "  ") {
		example, blocks = last, blocks[:len(blocks)-1]
	}
	return short, strings.Join(blocks[1:], "\n\n"), example
}

// helpTopics are the topics of `sitemap help TOPIC` (help/topics/*.txt):
// commands that only print their text.
func helpTopics() []*cobra.Command {
	entries, _ := helpFiles.ReadDir("help/topics")
	var out []*cobra.Command
	for _, e := range entries {
		name := strings.TrimSuffix(e.Name(), ".txt")
		b, _ := helpFiles.ReadFile("help/topics/" + e.Name())
		short, long, _ := strings.Cut(strings.TrimRight(string(b), "\n"), "\n\n")
		out = append(out, &cobra.Command{Use: name, Short: short, Long: long})
	}
	return out
}
