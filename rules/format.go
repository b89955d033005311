package rules

import (
	"fmt"
	"io"
)

// List writes the rules args select ([Select]) to w in format, as
// `sitemap rules --format` names it: "text" ([WriteText]), "json"
// ([WriteJSON]) or "markdown" ([WriteMarkdown]). An unknown format or
// argument is an error saying what to give instead; an error of w is
// returned after "writing output: ".
func List(w io.Writer, format string, args []string) error {
	write, err := listWriter(format)
	if err != nil {
		return err
	}
	rs, err := Select(args)
	if err != nil {
		return err
	}
	return outputError(write(w, rs))
}

// Explain writes the rules of ids ([LookupAll]) in full to w in format,
// as `sitemap explain --format` names it: "text" ([WriteExplain]) or
// "json" ([WriteJSON]). The rules found are written before the error of
// the IDs the book does not have is returned. An unknown format is an
// error naming the formats; an error of w is returned after "writing
// output: ".
func Explain(w io.Writer, format string, ids []string) error {
	write, err := explainWriter(format)
	if err != nil {
		return err
	}
	found, unknown := LookupAll(ids)
	if err := write(w, found); err != nil {
		return outputError(err)
	}
	return unknown
}

// listWriter is the writer of List's format.
func listWriter(format string) (func(io.Writer, []Rule) error, error) {
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

// explainWriter is the writer of Explain's format.
func explainWriter(format string) (func(io.Writer, []Rule) error, error) {
	switch format {
	case "text":
		return WriteExplain, nil
	case "json":
		return WriteJSON, nil
	}
	return nil, fmt.Errorf("--format %q: want text or json", format)
}

// outputError is err, an error of the writer, said as one.
func outputError(err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("writing output: %w", err)
}
