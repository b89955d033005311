package generate_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/sitemapkit/sitemap/build"
	"github.com/sitemapkit/sitemap/generate"
	"github.com/sitemapkit/sitemap/source"
	"github.com/sitemapkit/sitemap/store"
)

// `sitemap generate` as a Go program runs it: the settings checked, the
// run, and what the command says (the invalid entry as it comes, the
// summary table, the closing line), with ErrProblems for exit status 1.
func ExampleJob_Run() {
	ctx := context.Background()
	s := generate.Settings{Output: build.DefaultSettings(), BaseURL: "https://www.example.com/", Out: "public"}
	if err := s.Check(os.Stdout); err != nil {
		fmt.Println(err)
		return
	}
	o, err := s.Options()
	if err != nil {
		fmt.Println(err)
		return
	}
	o.Out = store.Memory()   // store.Open(s.Out, …) in a program
	var said strings.Builder // a command's standard error
	job := &generate.Job{Settings: s, Options: o, Stdout: os.Stdout, Stderr: &said}
	urls := strings.NewReader("https://www.example.com/\nhttps://www.example.com/about\nftp://www.example.com/old\n")
	sum, err := job.Run(ctx, generate.Read(urls, source.Options{Name: "urls.txt"}))
	lines := strings.Split(strings.TrimSpace(said.String()), "\n")
	fmt.Println(lines[0]) // the problem, as it came
	fmt.Println(lines[len(lines)-1])
	fmt.Println(sum.URLs, errors.Is(err, generate.ErrProblems))
	// Output:
	// urls.txt:3: loc "ftp://www.example.com/old" has the scheme "ftp"; sitemaps list only http and https URLs (L-16)
	// sitemap: 1 invalid entry skipped; the valid ones were published
	// 2 true
}

// Check puts the base URL in its normal form, and says so.
func ExampleSettings_Check() {
	s := generate.Settings{BaseURL: "HTTPS://WWW.Example.com:443/"}
	fmt.Println(s.Check(os.Stdout), s.BaseURL)
	s = generate.Settings{BaseURL: "https://www.example.com/", StateDay: true}
	fmt.Println(s.Check(os.Stdout))
	// Output:
	// sitemap: --base-url "HTTPS://WWW.Example.com:443/" written as "https://www.example.com/" (scheme lower-cased, host lower-cased, default port removed; L-18)
	// <nil> https://www.example.com/
	// --state-day sets the precision of the dates --state records; give --state FILE too, or drop --state-day
}

// Input reads the input flags; a mistake names its flag.
func ExampleSettings_Input() {
	in, err := generate.Settings{InputFormat: "csv", Columns: "loc=Address"}.Input()
	fmt.Println(in.Source.Format, in.MaxErrors, err)
	_, err = generate.Settings{InputFormat: "xls"}.Input()
	fmt.Println(err)
	// Output:
	// csv -1 <nil>
	// --input-format: unknown input format "xls"; use auto, text, csv or jsonl
}

// Docs refuses a URL among the inputs, with what to run instead.
func ExampleDocs() {
	_, err := generate.Docs([]string{"https://www.example.com/sitemap.xml"})
	fmt.Println(err)
	// Output:
	// INPUT https://www.example.com/sitemap.xml is a URL; generate reads files and - (for a site's URLs: sitemap fetch --format jsonl URL | sitemap generate ... -)
}

// Explain words a run's error by the flag that points at what failed.
func ExampleSettings_Explain() {
	s := generate.Settings{State: "state.db"}
	err := &generate.StageError{Stage: generate.StageState, Err: errors.New("database is locked")}
	fmt.Println(s.Explain(context.Background(), err))
	// Output:
	// --state state.db: database is locked
}

// Precision is a day with StateDay.
func ExampleSettings_Precision() {
	fmt.Println(generate.Settings{StateDay: true}.Precision() == generate.Settings{}.Precision())
	// Output:
	// false
}
