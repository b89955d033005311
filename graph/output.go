package graph

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"
)

// Formats are the formats a drawing is written in.
var Formats = []string{"html", "svg", "dot", "json"}

// FormatOf is the format of a drawing written to the file name: format
// when given (one of [Formats]), else the one its extension says (.html
// or .htm, .svg, .dot or .gv, .json), json for "-" (standard output). A
// name that says none, or an unknown format, is an error saying what to
// give.
func FormatOf(name, format string) (string, error) {
	if format == "" {
		switch strings.ToLower(filepath.Ext(name)) {
		case ".html", ".htm":
			return "html", nil
		case ".svg":
			return "svg", nil
		case ".dot", ".gv":
			return "dot", nil
		case ".json":
			return "json", nil
		case "":
			if name == "-" {
				return "json", nil
			}
		}
		return "", fmt.Errorf("-o %s: the name does not say the format; end it in .html, .svg, .dot or .json, or give --format", name)
	}
	for _, f := range Formats {
		if f == format {
			return format, nil
		}
	}
	return "", fmt.Errorf("--format %q: want html, svg, dot or json", format)
}

// Drawing is what can be drawn in every format: a [Tree] and a
// [LinkTree].
type Drawing interface {
	HTML(ctx context.Context, w io.Writer, o DrawOptions) error
	SVG(ctx context.Context, w io.Writer, o DrawOptions) error
	DOT(ctx context.Context, w io.Writer, o DrawOptions) error
	JSON(ctx context.Context, w io.Writer, o DrawOptions) error
}

// Draw writes d to w in format (one of [Formats]; anything else is
// json).
func Draw(ctx context.Context, w io.Writer, d Drawing, format string, o DrawOptions) error {
	switch format {
	case "html":
		return d.HTML(ctx, w, o)
	case "svg":
		return d.SVG(ctx, w, o)
	case "dot":
		return d.DOT(ctx, w, o)
	}
	return d.JSON(ctx, w, o)
}
