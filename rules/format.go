package rules

import (
	"fmt"
	"io"
)

// ListWriter returns the writer of rules in format, as `sitemap rules
// --format` names it: "text" ([WriteText]), "json" ([WriteJSON]) or
// "markdown" ([WriteMarkdown]). Another format is an error naming these.
func ListWriter(format string) (func(io.Writer, []Rule) error, error) {
	switch format {
	case "text":
		return WriteText, nil
	case "json":
		return WriteJSON, nil
	case "markdown":
		return WriteMarkdown, nil
	}
	return nil, fmt.Errorf("--format %q: want text, json or markdown", format)
}

// ExplainWriter returns the writer of rules in full in format, as
// `sitemap explain --format` names it: "text" ([WriteExplain]) or "json"
// ([WriteJSON]). Another format is an error naming these.
func ExplainWriter(format string) (func(io.Writer, []Rule) error, error) {
	switch format {
	case "text":
		return WriteExplain, nil
	case "json":
		return WriteJSON, nil
	}
	return nil, fmt.Errorf("--format %q: want text or json", format)
}
