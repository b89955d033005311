package fetch

import (
	"bufio"
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"strings"

	"github.com/klauspost/compress/gzip"

	sitemap "github.com/sitemapkit/sitemap"
)

// TEMPORARY stand-in until the root package's Decoder lands; replaced by a
// thin adapter over sitemap.NewDecoder.

type itemKind uint8

const (
	itemURL itemKind = iota
	itemIndex
)

type docItem struct {
	Kind  itemKind
	URL   sitemap.URL
	Index sitemap.IndexEntry
}

type docOptions struct {
	Name         string
	MaxBytes     int64
	OnDiagnostic func(sitemap.Diagnostic)
}

type docReader interface {
	Next() (docItem, error)
	// Format names the document's format once the first Next returned:
	// "urlset", "sitemapindex", "text", "rss", "atom", "html" or "".
	Format() string
}

func openDoc(r io.Reader, o docOptions) docReader {
	return &shim{r: r, o: o}
}

type shim struct {
	r      io.Reader
	o      docOptions
	dec    *xml.Decoder
	text   *bufio.Scanner
	format string
	err    error
}

var errNotSitemap = errors.New("not a sitemap")

func (s *shim) Format() string { return s.format }

func (s *shim) init() error {
	br := bufio.NewReader(s.r)
	if b, _ := br.Peek(2); len(b) == 2 && b[0] == 0x1f && b[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return err
		}
		br = bufio.NewReader(zr)
	}
	var r io.Reader = br
	if s.o.MaxBytes > 0 {
		r = io.LimitReader(br, s.o.MaxBytes)
	}
	head, _ := br.Peek(512)
	t := bytes.TrimSpace(head)
	if len(t) > 0 && t[0] == '<' {
		s.dec = xml.NewDecoder(r)
		s.dec.Strict = false
		return nil
	}
	s.format = "text"
	s.text = bufio.NewScanner(r)
	return nil
}

func (s *shim) Next() (docItem, error) {
	if s.err != nil {
		return docItem{}, s.err
	}
	if s.dec == nil && s.text == nil {
		if err := s.init(); err != nil {
			s.err = err
			return docItem{}, err
		}
	}
	if s.text != nil {
		for s.text.Scan() {
			l := strings.TrimSpace(s.text.Text())
			if l == "" {
				continue
			}
			if !strings.HasPrefix(l, "http") {
				s.err = errNotSitemap
				return docItem{}, s.err
			}
			return docItem{Kind: itemURL, URL: sitemap.URL{Loc: l}}, nil
		}
		s.err = io.EOF
		return docItem{}, io.EOF
	}
	var kind itemKind
	inLoc := false
	var loc strings.Builder
	for {
		tok, err := s.dec.Token()
		if err != nil {
			if err == io.EOF && s.format == "" {
				err = errNotSitemap
			}
			s.err = err
			return docItem{}, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case "urlset":
				s.format = "urlset"
			case "sitemapindex":
				s.format = "sitemapindex"
			case "html":
				s.format = "html"
				s.err = errNotSitemap
				return docItem{}, s.err
			case "url":
				kind = itemURL
			case "sitemap":
				kind = itemIndex
			case "loc":
				inLoc = true
				loc.Reset()
			}
		case xml.CharData:
			if inLoc {
				loc.Write(t)
			}
		case xml.EndElement:
			if t.Name.Local == "loc" {
				inLoc = false
				l := strings.TrimSpace(loc.String())
				if kind == itemIndex {
					return docItem{Kind: itemIndex, Index: sitemap.IndexEntry{Loc: l}}, nil
				}
				return docItem{Kind: itemURL, URL: sitemap.URL{Loc: l}}, nil
			}
		}
	}
}
