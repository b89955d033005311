package source

import (
	"bufio"
	"fmt"
	"unicode/utf8"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/rules"
)

type textReader struct {
	o  Options
	lr *lineReader
}

func newText(br *bufio.Reader, o Options) *textReader {
	return &textReader{o: o, lr: newLineReader(br, o.maxLine())}
}

func (t *textReader) Next() (Record, error) {
	for {
		b, tooLong, err := t.lr.next()
		if err != nil {
			return Record{}, err
		}
		if tooLong {
			return Record{}, tooLongError(t.o, t.lr.line)
		}
		b, cut := trimSpace(b)
		if len(b) == 0 || b[0] == '#' {
			continue
		}
		if !utf8.Valid(b) {
			return Record{}, &Error{File: t.o.Name, Line: t.lr.line, Col: cut + 1, Rule: rules.T04,
				Message: fmt.Sprintf("%s is not valid UTF-8; text sitemaps are UTF-8", preview(b))}
		}
		return Record{URL: sitemap.URL{Loc: string(b)}, Line: t.lr.line}, nil
	}
}

func tooLongError(o Options, line int) *Error {
	return &Error{File: o.Name, Line: line, Col: 1, Rule: rules.LIM04,
		Message: fmt.Sprintf("line is longer than %d bytes; skipped (a URL must stay under 2,048 characters, L-04)", o.maxLine())}
}
