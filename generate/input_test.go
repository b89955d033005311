package generate

import (
	"compress/gzip"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/input"
	"github.com/sitemapkit/sitemap/source"
	"github.com/sitemapkit/sitemap/store"
)

// The input meter of generate's progress line: the bytes read of the
// INPUT files' total size, a finished file whole, the one being read to
// its offset; standard input adds nothing to the total.
func TestInputMeter(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.txt"), filepath.Join(dir, "b.txt")
	os.WriteFile(a, make([]byte, 1000), 0o644)
	os.WriteFile(b, make([]byte, 3000), 0o644)
	docs := []input.Doc{{Name: a, Path: a}, {Name: "-", Stdin: true}, {Name: b, Path: b}}
	m := newInputMeter(docs)
	if d, tot := m.measure(); d != 0 || tot != 4000 {
		t.Fatalf("before: %d of %d, want 0 of 4000", d, tot)
	}
	m.finish(&docs[0])
	m.finish(&docs[1])
	f, err := os.Open(b)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m.reading(f)
	f.Read(make([]byte, 1500))
	if d, tot := m.measure(); d != 2500 || tot != 4000 {
		t.Fatalf("halfway through b: %d of %d, want 2500 of 4000", d, tot)
	}
	m.reading(nil)
	m.finish(&docs[2])
	if d, _ := m.measure(); d != 4000 {
		t.Fatalf("at the end: %d", d)
	}
}

// collect runs src and returns the locs it yields, and its problems as
// "RULE warning|error".
func collect(t *testing.T, src Source) (locs, problems []string, err error) {
	t.Helper()
	err = src(context.Background(), func(it *Item) error {
		switch {
		case it == nil:
		case it.Problem != nil:
			kind := "error"
			if it.Warning {
				kind = "warning"
			}
			problems = append(problems, string(it.Problem.Rule)+" "+kind)
		default:
			locs = append(locs, it.URL.Loc)
		}
		return nil
	})
	return locs, problems, err
}

// Inputs tells a sitemap from an entry list by its bytes, whatever the
// name, reads an index's children beside it, gzip or not, and standard
// input; an entry the sitemap reader skipped is an invalid entry, a
// child that cannot be read ends the source.
func TestInputs(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if strings.HasSuffix(name, ".gz") {
			f, _ := os.Create(p)
			zw := gzip.NewWriter(f)
			zw.Write([]byte(body))
			zw.Close()
			f.Close()
			return p
		}
		os.WriteFile(p, []byte(body), 0o644)
		return p
	}
	urlset := func(locs ...string) string {
		s := `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`
		for _, l := range locs {
			s += "<url><loc>" + l + "</loc></url>"
		}
		return s + "</urlset>"
	}
	write("child-1.xml.gz", urlset("https://www.example.com/c1", "/relative"))
	write("child-2.xml", urlset("https://www.example.com/c2"))
	index := write("index.txt", `<?xml version="1.0" encoding="UTF-8"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`+
		`<sitemap><loc>https://www.example.com/child-1.xml.gz</loc></sitemap><sitemap><loc>https://www.example.com/child-2.xml</loc></sitemap></sitemapindex>`)
	list := write("urls.xml", "https://www.example.com/l1\n")
	docs, err := input.Resolve([]string{index, list, "-"}, input.Options{FilesOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	src, progress := Inputs(docs, InputOptions{Stdin: strings.NewReader("loc\nhttps://www.example.com/s1\n")})
	locs, problems, err := collect(t, src)
	if err != nil {
		t.Fatal(err)
	}
	want := "https://www.example.com/c1 https://www.example.com/c2 https://www.example.com/l1 https://www.example.com/s1"
	if got := strings.Join(locs, " "); got != want {
		t.Errorf("locs %s\nwant %s", got, want)
	}
	if len(problems) != 1 || problems[0] != "L-01 error" {
		t.Errorf("problems %v, want the relative loc as an invalid entry", problems)
	}
	if done, total := progress(); done != total || total == 0 {
		t.Errorf("progress %d of %d at the end", done, total)
	}

	os.Remove(filepath.Join(dir, "child-2.xml"))
	docs, _ = input.Resolve([]string{index}, input.Options{FilesOnly: true})
	src, _ = Inputs(docs, InputOptions{})
	_, _, err = collect(t, src)
	var ie *InputError
	if !errors.As(err, &ie) || ie.Lost == nil || !strings.Contains(err.Error(), "nothing published: the sitemaps would lack its URLs") {
		t.Errorf("a missing child: %v", err)
	}

	// A sitemap cut short (a truncated gzip stream, GZ-01): its
	// diagnostic is an item, and the error that ends the source names
	// it rather than saying it a second time.
	whole := write("whole.xml.gz", urlset("https://www.example.com/w1", "https://www.example.com/w2"))
	b, _ := os.ReadFile(whole)
	cut := write("cut.xml", "")
	os.WriteFile(cut, b[:len(b)-12], 0o644)
	docs, _ = input.Resolve([]string{cut}, input.Options{FilesOnly: true})
	src, _ = Inputs(docs, InputOptions{})
	_, problems, err = collect(t, src)
	if len(problems) != 1 || !strings.HasPrefix(problems[0], "GZ-01 ") {
		t.Errorf("a truncated gzip sitemap: problems %v, want its GZ-01", problems)
	}
	if !errors.As(err, &ie) || err.Error() != "cannot read input: "+cut+": not read to its end (GZ-01 above); nothing published: the sitemaps would lack the URLs after that point" {
		t.Errorf("a truncated gzip sitemap: %v", err)
	}
	// Reported by Run, the GZ-01 that ended the reading is an error (it
	// was labelled a warning), and it costs no entry.
	var reported []Problem
	sum, err := Run(context.Background(), src, opts(store.Memory(), &reported))
	if err == nil || len(reported) != 1 || reported[0].Rule != "GZ-01" || reported[0].Severity != sitemap.SeverityError || sum.Skipped != 0 {
		t.Errorf("a truncated gzip sitemap, run: %v, reported %v, %d skipped; want GZ-01 as an error, none skipped", err, reported, sum.Skipped)
	}

	// With a format given, a sitemap's bytes are read as that format.
	docs, _ = input.Resolve([]string{list}, input.Options{FilesOnly: true})
	src, _ = Inputs(docs, InputOptions{Source: source.Options{Format: source.FormatText}})
	if locs, _, err := collect(t, src); err != nil || len(locs) != 1 {
		t.Errorf("--input-format text: %v %v", locs, err)
	}
}

// TestReadErrorNamesInputOnce: an error that stops the reading and
// already says where (a CSV whose header row has no loc column) names
// the input once: it was "cannot read input urls.csv: urls.csv:1:1: …".
func TestReadErrorNamesInputOnce(t *testing.T) {
	src := Read(strings.NewReader("https://www.example.com/a,2026-11-01\n"), source.Options{Name: "urls.csv", Format: source.FormatCSV})
	_, _, err := collect(t, src)
	if err == nil || !strings.HasPrefix(err.Error(), "cannot read input: urls.csv:1:1: the header row has no loc column") {
		t.Errorf("err %v", err)
	}
}
