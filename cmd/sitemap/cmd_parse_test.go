package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	sitemap "github.com/sitemapkit/sitemap"
)

// decodeAll reads every URL entry of a sitemap file with the Decoder.
func decodeAll(t *testing.T, path string) []sitemap.URL {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	dec := sitemap.NewDecoder(f, sitemap.DecoderOptions{Name: path})
	var us []sitemap.URL
	for {
		it, err := dec.Next()
		if errors.Is(err, io.EOF) {
			return us
		}
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		us = append(us, it.URL)
	}
}

// readJSONL reads entry records.
func readJSONL(t *testing.T, s string) []sitemap.URL {
	t.Helper()
	var us []sitemap.URL
	sc := bufio.NewScanner(strings.NewReader(s))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var u sitemap.URL
		if err := json.Unmarshal(sc.Bytes(), &u); err != nil {
			t.Fatalf("%q: %v", sc.Text(), err)
		}
		us = append(us, u)
	}
	return us
}

func sameURLs(a, b []sitemap.URL) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		x.Source, y.Source = "", ""
		// Dates compare as instants with precision (time.Time's zone
		// pointer differs after a JSON round trip).
		if !x.LastMod.Equal(y.LastMod) {
			return false
		}
		x.LastMod, y.LastMod = sitemap.Date{}, sitemap.Date{}
		for j := range x.Videos {
			if j >= len(y.Videos) || !x.Videos[j].PublicationDate.Equal(y.Videos[j].PublicationDate) ||
				!x.Videos[j].ExpirationDate.Equal(y.Videos[j].ExpirationDate) {
				return false
			}
			x.Videos[j].PublicationDate, y.Videos[j].PublicationDate = sitemap.Date{}, sitemap.Date{}
			x.Videos[j].ExpirationDate, y.Videos[j].ExpirationDate = sitemap.Date{}, sitemap.Date{}
		}
		if x.News != nil && y.News != nil {
			if !x.News.PublicationDate.Equal(y.News.PublicationDate) {
				return false
			}
			xn, yn := *x.News, *y.News
			xn.PublicationDate, yn.PublicationDate = sitemap.Date{}, sitemap.Date{}
			x.News, y.News = &xn, &yn
		}
		if !reflect.DeepEqual(x, y) {
			return false
		}
	}
	return true
}

// TestParseJSONLEqualsDecoder: parse → JSONL → entries equal the decoder's.
func TestParseJSONLEqualsDecoder(t *testing.T) {
	for _, name := range []string{"basic.xml", "basic.xml.gz", "ext.xml", "badorder.xml"} {
		t.Run(name, func(t *testing.T) {
			code, out, errOut := runCLI(t, "", "parse", samples+name)
			if name == "badorder.xml" {
				if code != exitProblems {
					t.Errorf("exit %d, want 1 (M-01 errors)", code)
				}
				if !strings.Contains(errOut, "badorder.xml:10:44: error M-01") {
					t.Errorf("stderr: %s", errOut)
				}
			} else if code != exitOK {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			got := readJSONL(t, out)
			want := decodeAll(t, samples+name)
			if !sameURLs(got, want) {
				t.Errorf("parse output differs from the decoder:\n got %+v\nwant %+v", got, want)
			}
			for _, u := range got {
				if u.Source != samples+name {
					t.Errorf("source = %q", u.Source)
				}
			}
			if strings.Contains(out, `\u0026`) || strings.Contains(out, "null") || strings.Contains(out, `""`) {
				t.Errorf("escaped or empty fields in %s", out)
			}
		})
	}
}

// TestParseGenerateRoundTrip: parse output fed to generate gives back an
// equivalent sitemap.
func TestParseGenerateRoundTrip(t *testing.T) {
	for _, name := range []string{"basic.xml", "ext.xml"} {
		t.Run(name, func(t *testing.T) {
			code, jsonl, errOut := runCLI(t, "", "parse", samples+name)
			if code != exitOK {
				t.Fatalf("parse: exit %d %s", code, errOut)
			}
			dir := t.TempDir()
			code, _, errOut = runCLI(t, jsonl, "generate", "--base-url", "https://www.example.com/", "--out", dir, "--input-format", "jsonl", "--legacy", "--news-max-age", "0", "-")
			if code != exitOK {
				t.Fatalf("generate: exit %d %s", code, errOut)
			}
			got := decodeAll(t, filepath.Join(dir, "sitemap.xml"))
			want := decodeAll(t, samples+name)
			if !sameURLs(got, want) {
				t.Errorf("round trip differs:\n got %+v\nwant %+v", got, want)
			}
			// And the regenerated file validates as cleanly as the input.
			code, out, _ := runCLI(t, "", "validate", "--now", "2008-12-24", filepath.Join(dir, "sitemap.xml"))
			if code != exitOK {
				t.Errorf("regenerated sitemap: exit %d\n%s", code, out)
			}
		})
	}
}

func TestParseFormats(t *testing.T) {
	_, out, _ := runCLI(t, "", "parse", "--format", "txt", samples+"basic.xml.gz")
	want := "https://www.example.com/\nhttps://www.example.com/catalog?item=12&desc=vacation_hawaii\nhttps://www.example.com/a\n"
	if out != want {
		t.Errorf("txt: %q", out)
	}
	_, out, _ = runCLI(t, "", "parse", "--format", "csv", samples+"basic.xml")
	want = "loc,lastmod,changefreq,priority\nhttps://www.example.com/,2005-01-01,monthly,0.8\n" +
		"https://www.example.com/catalog?item=12&desc=vacation_hawaii,2004-12-23T18:00:15+00:00,,\n" +
		"https://www.example.com/a,2004-12-23T18:00:15.5Z,,\n"
	if out != want {
		t.Errorf("csv: %q", out)
	}
	_, out, _ = runCLI(t, "", "parse", "--format", "csv", samples+"index.xml")
	want = "loc,lastmod\nhttps://www.example.com/sitemap1.xml.gz,2004-10-01T18:23:17+00:00\nhttps://www.example.com/sitemap2.xml.gz,2005-01-01\n"
	if out != want {
		t.Errorf("csv index: %q", out)
	}
	_, out, _ = runCLI(t, "", "parse", samples+"index.xml")
	if !strings.HasPrefix(out, `{"loc":"https://www.example.com/sitemap1.xml.gz","lastmod":"2004-10-01T18:23:17+00:00","source":"`) {
		t.Errorf("jsonl index: %q", out)
	}
	if code, _, _ := runCLI(t, "", "parse", "--format", "xml", samples+"basic.xml"); code != exitUsage {
		t.Errorf("bad format: exit %d", code)
	}
	if code, _, _ := runCLI(t, "", "parse", "nope.xml"); code != exitUsage {
		t.Errorf("missing file: exit %d", code)
	}
}

func TestParseStdinAndTruncated(t *testing.T) {
	doc := urlset("https://www.example.com/a", "https://www.example.com/b")
	doc = doc[:strings.Index(doc, "</urlset>")-10] // cut inside the second <url>
	code, out, errOut := runCLI(t, doc, "parse", "--format", "txt", "-")
	if code != exitProblems || out != "https://www.example.com/a\n" || !strings.Contains(errOut, "<stdin>:") {
		t.Errorf("truncated: exit %d, out %q, err %q", code, out, errOut)
	}
	code, out, _ = runCLI(t, "https://www.example.com/x\nhttps://www.example.com/y\n", "parse", "--format", "txt", "-")
	if code != exitOK || out != "https://www.example.com/x\nhttps://www.example.com/y\n" {
		t.Errorf("text stdin: exit %d, out %q", code, out)
	}
}

func TestParseFollow(t *testing.T) {
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	defer srv.Close()
	base := srv.URL
	mux.HandleFunc("/sitemap.xml", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(sitemapIndex(base+"/s1.xml.gz", base+"/s2.xml", base+"/gone.xml")))
	})
	mux.HandleFunc("/s1.xml.gz", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(gzipped(urlset(base + "/a"))))
	})
	mux.HandleFunc("/s2.xml", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(urlset(base+"/b", base+"/c")))
	})
	// The 404 child is what fetch says of it (FETCH-HTTP): one walk.
	code, out, errOut := runCLI(t, "", "parse", "--follow", "--format", "txt", base+"/sitemap.xml")
	if code != exitProblems || out != base+"/a\n"+base+"/b\n"+base+"/c\n" || !strings.Contains(errOut, "gone.xml: error FETCH-HTTP: HTTP 404") {
		t.Errorf("follow: exit %d, out %q, err %q", code, out, errOut)
	}
	code, out, _ = runCLI(t, "", "parse", "--format", "jsonl", base+"/s2.xml")
	if code != exitOK || !strings.Contains(out, `"source":"`+base+`/s2.xml"`) {
		t.Errorf("source of URL input: %q", out)
	}
}

func TestParseHelpExamples(t *testing.T) {
	t.Chdir("../..")
	for _, ex := range [][]string{
		{"parse", "testdata/samples/basic.xml"},
		{"parse", "--format", "txt", "testdata/samples/basic.xml.gz"},
	} {
		if code, out, errOut := runCLI(t, "", ex...); code != exitOK || out == "" {
			t.Errorf("%v: exit %d\n%s%s", ex, code, out, errOut)
		}
	}
}
