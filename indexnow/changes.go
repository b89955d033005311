package indexnow

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/rules"
)

// MaxChangeLine is the longest line [Changes] reads (a change record holds
// two entry records); a longer one is skipped with DIFF-02.
const MaxChangeLine = 16 << 20

// change is the part of a diff.Change record that a submission needs.
type change struct {
	Change string       `json:"change"`
	Loc    string       `json:"loc"`
	New    *sitemap.URL `json:"new"`
}

// IsChanges reports whether head, the start of a document, is a change
// list: its first line is a JSON object with a "change" field, as
// `sitemap diff --format jsonl` writes.
func IsChanges(head []byte) bool {
	head = bytes.TrimLeft(bytes.TrimPrefix(head, []byte("\xef\xbb\xbf")), " \t\r\n")
	if len(head) == 0 || head[0] != '{' {
		return false
	}
	line, _, _ := bytes.Cut(head, []byte("\n"))
	dec := json.NewDecoder(bytes.NewReader(line))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return false
	}
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return false
		}
		if k == "change" {
			return true
		}
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return false
		}
	}
	return false
}

// Changes returns the pages a change list (the JSONL of `sitemap diff
// --format jsonl`, one diff.Change a line) says were added or modified,
// as a [sitemap.Entries]: the new entry record of each (its loc, lastmod
// and content hash make its [Version]), or the loc alone when the record
// carries none. Removed entries are not pages to submit and are skipped.
// A line that is no change record is reported to onDiag (DIFF-02, with
// name and line) and skipped; blank lines are skipped. A read error ends
// the stream.
func Changes(r io.Reader, name string, onDiag func(sitemap.Diagnostic)) sitemap.Entries {
	return func(ctx context.Context, yield func(*sitemap.URL) error) error {
		br := bufio.NewReaderSize(r, 64<<10)
		line := 0
		var buf []byte
		for {
			buf = buf[:0]
			long := false
			for {
				part, err := br.ReadSlice('\n')
				if !long {
					if len(buf)+len(part) > MaxChangeLine {
						long = true
						buf = buf[:0]
					} else {
						buf = append(buf, part...)
					}
				}
				if err == bufio.ErrBufferFull {
					continue
				}
				if err == io.EOF {
					if len(part) == 0 && len(buf) == 0 && !long {
						return nil
					}
					break
				}
				if err != nil {
					return fmt.Errorf("%s: %w", name, err)
				}
				break
			}
			line++
			if line&255 == 0 {
				if err := ctx.Err(); err != nil {
					return err
				}
			}
			if long {
				report(onDiag, name, line, fmt.Sprintf("line longer than %d bytes; skipped", MaxChangeLine))
				continue
			}
			u, msg := parseChange(buf)
			if msg != "" {
				report(onDiag, name, line, msg)
				continue
			}
			if u == nil {
				continue
			}
			if err := yield(u); err != nil {
				return err
			}
		}
	}
}

func report(onDiag func(sitemap.Diagnostic), name string, line int, msg string) {
	if onDiag != nil {
		onDiag(sitemap.Diagnostic{Rule: rules.DIFF02, Severity: sitemap.SeverityError, Message: msg, File: name, Line: line})
	}
}

// parseChange reads one line of a change list: the page to submit, or nil
// for a blank line or a removal, or a message saying why the line is not
// a change record.
func parseChange(b []byte) (*sitemap.URL, string) {
	b = bytes.TrimSpace(bytes.TrimPrefix(b, []byte("\xef\xbb\xbf")))
	if len(b) == 0 {
		return nil, ""
	}
	var c change
	if err := json.Unmarshal(b, &c); err != nil {
		var ute *json.UnmarshalTypeError
		if errors.As(err, &ute) {
			return nil, fmt.Sprintf("not a change record: field %q is a JSON %s; skipped", ute.Field, ute.Value)
		}
		return nil, "not a change record (" + err.Error() + "); skipped"
	}
	switch c.Change {
	case "removed":
		return nil, ""
	case "added", "modified":
	case "":
		return nil, `not a change record: no "change" field; skipped`
	default:
		return nil, fmt.Sprintf("change %q is none of added, modified, removed; skipped", cut(c.Change, 40))
	}
	u := c.New
	if u == nil {
		u = &sitemap.URL{Loc: c.Loc}
	}
	if u.Loc == "" {
		u.Loc = c.Loc
	}
	if c.Loc != "" && u.Loc != c.Loc {
		return nil, fmt.Sprintf("loc %q and the new record's loc %q differ; skipped", cut(c.Loc, 80), cut(u.Loc, 80))
	}
	if u.Loc == "" {
		return nil, `not a change record: no "loc"; skipped`
	}
	return u, ""
}
