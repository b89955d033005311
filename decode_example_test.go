package sitemap_test

import (
	"errors"
	"fmt"
	"io"
	"strings"

	sitemap "github.com/sitemapkit/sitemap"
)

// A Decoder reads any sitemap format from an io.Reader and returns one
// entry at a time. A bad value is a diagnostic, not a failure: the entry
// and the rest of the document are still read.
func ExampleDecoder() {
	const doc = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>https://www.example.com/a?x=1&amp;y=2</loc><lastmod>2026-11-02</lastmod></url>
  <url><loc>https://www.example.com/b</loc><priority>7</priority></url>
</urlset>`
	d := sitemap.NewDecoder(strings.NewReader(doc), sitemap.DecoderOptions{
		Name:         "sitemap.xml",
		OnDiagnostic: func(diag sitemap.Diagnostic) { fmt.Println(diag.Severity, diag.Rule, "at line", diag.Line) },
	})
	for {
		it, err := d.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			fmt.Println("cannot read further:", err)
			return
		}
		if it.URL.LastMod.IsZero() {
			fmt.Println(it.Line, it.URL.Loc)
		} else {
			fmt.Println(it.Line, it.URL.Loc, "lastmod", it.URL.LastMod)
		}
	}
	fmt.Println("format:", d.Format())
	// Output:
	// 3 https://www.example.com/a?x=1&y=2 lastmod 2026-11-02
	// error P-01 at line 4
	// 4 https://www.example.com/b
	// format: urlset
}

// The decoder sniffs the format from the bytes, never from a name: a text
// sitemap is one URL per line.
func ExampleDecoder_text() {
	d := sitemap.NewDecoder(strings.NewReader("https://www.example.com/\nhttps://www.example.com/about\n"), sitemap.DecoderOptions{})
	for {
		it, err := d.Next()
		if err != nil {
			break
		}
		fmt.Println(it.URL.Loc)
	}
	fmt.Println("format:", d.Format())
	// Output:
	// https://www.example.com/
	// https://www.example.com/about
	// format: text
}

// Sniff tells what a document is from its first bytes, never its name.
func ExampleSniff() {
	fmt.Printf("%+v\n", sitemap.Sniff([]byte("\xef\xbb\xbf<?xml version=\"1.0\"?><urlset>")))
	fmt.Printf("%+v\n", sitemap.Sniff([]byte("{\"loc\": \"https://www.example.com/\"}")))
	// Output:
	// {Gzip:false Encoding: Kind:xml}
	// {Gzip:false Encoding: Kind:json}
}

func ExampleIsGzip() {
	fmt.Println(sitemap.IsGzip([]byte{0x1f, 0x8b, 8}), sitemap.IsGzip([]byte("<urlset")))
	// Output:
	// true false
}

// A read failure ends the document with a *DecodeError of rule READ-01;
// Cause gives its cause alone for a message that names the input itself,
// and the rule stays reachable through errors.As.
func ExampleDecodeError_Cause() {
	in := io.MultiReader(strings.NewReader("https://www.example.com/a\n"), failing{})
	d := sitemap.NewDecoder(in, sitemap.DecoderOptions{Name: "urls.txt"})
	for {
		_, err := d.Next()
		if err == io.EOF {
			break
		}
		var de *sitemap.DecodeError
		if errors.As(err, &de) {
			wrapped := fmt.Errorf("urls.txt: %w", de.Cause())
			fmt.Println(wrapped)
			errors.As(wrapped, &de)
			fmt.Println(de.Diagnostic.Rule == sitemap.RuleRead)
			break
		}
	}
	// Output:
	// urls.txt: disk on fire
	// true
}

type failing struct{}

func (failing) Read([]byte) (int, error) { return 0, errors.New("disk on fire") }

// MaxErrorsFlag turns --max-errors into DecoderOptions.MaxErrors: the
// flag's 0 is no limit.
func ExampleMaxErrorsFlag() {
	fmt.Println(sitemap.MaxErrorsFlag(100), sitemap.MaxErrorsFlag(0))
	// Output: 100 -1
}

// CheckMaxErrorsFlag refuses a negative --max-errors, which means
// nothing (0 is no limit).
func ExampleCheckMaxErrorsFlag() {
	fmt.Println(sitemap.CheckMaxErrorsFlag(0))
	fmt.Println(sitemap.CheckMaxErrorsFlag(-1))
	// Output:
	// <nil>
	// give a number of errors, 0 or more (0: no limit; LIM-05)
}
