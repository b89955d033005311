package indexnow

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	sitemap "github.com/sitemapkit/sitemap"
)

// Tell fills only the hooks not set, and a dry run's batches are told
// as their JSON with the host and key location in normal form.
func TestTell(t *testing.T) {
	var lines []string
	var waited []string
	o := Options{Key: "9f3c2a7e41b84d0c", Host: "WWW.Example.com", KeyLocation: "https://www.example.com/k/9f3c2a7e41b84d0c.txt", DryRun: true,
		OnWait: func(m string) { waited = append(waited, m) }}
	o.Tell(func(l string) { lines = append(lines, l) })
	o.OnRetry("429")
	o.OnWait("held by x")
	o.OnDiagnostic(sitemap.Diagnostic{Rule: "IN-08", Severity: sitemap.SeverityError, Message: "off host", URL: "https://other.example/"})
	urls := func(yield func(*sitemap.URL) error) error {
		return yield(&sitemap.URL{Loc: "https://www.example.com/k/a"})
	}
	if _, err := Submit(context.Background(), func(ctx context.Context, y func(*sitemap.URL) error) error { return urls(y) }, o); err != nil {
		t.Fatal(err)
	}
	o.OnBatch(Batch{N: 2, URLs: []string{"a", "b"}, Outcome: Sent, Message: "accepted"})
	want := []string{
		"retry: 429",
		"https://other.example/: error IN-08: off host",
		`dry run: {"batch":1,"host":"www.example.com","key":"9f3c2a7e41b84d0c","keyLocation":"https://www.example.com/k/9f3c2a7e41b84d0c.txt","urlList":["https://www.example.com/k/a"]}`,
		"batch 2: 2 URLs: sent: accepted",
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("told:\n%s\nwant:\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
	if len(waited) != 1 {
		t.Errorf("OnWait set before Tell was replaced: %q", waited)
	}
}

// A Queue told: a round's error, and the URLs dropped since the last
// round that said so, once.
func TestQueueTell(t *testing.T) {
	q := NewQueue(Options{}, time.Second)
	q.max = 1
	var lines []string
	q.Tell(func(l string) { lines = append(lines, l) })
	q.Add([]sitemap.URL{{Loc: "https://e.com/a"}, {Loc: "https://e.com/b"}, {Loc: "https://e.com/c"}})
	q.Sent(Summary{}, errors.New("endpoint down"))
	q.Sent(Summary{}, nil)
	want := []string{"endpoint down", "2 changed URLs not queued (more than 1000000 waiting): a later 'sitemap submit --state' of the site sends them"}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("told %q, want %q", lines, want)
	}
}

// Start's stop waits for a CatchUp in progress, which it ends without
// an error; Add's URLs go out in Run's rounds.
func TestQueueStartStop(t *testing.T) {
	var mu sync.Mutex
	var batches []Batch
	o := Options{Key: "9f3c2a7e41b84d0c", Host: "www.example.com", DryRun: true,
		OnBatch: func(b Batch) { mu.Lock(); batches = append(batches, b); mu.Unlock() }}
	q := NewQueue(o, 10*time.Millisecond)
	stop := q.Start(context.Background())
	q.Add([]sitemap.URL{{Loc: "https://www.example.com/a"}})
	started := make(chan struct{})
	var got error = errors.New("done not called")
	q.CatchUp(func(ctx context.Context, yield func(*sitemap.URL) error) error {
		close(started)
		<-ctx.Done()
		return ctx.Err()
	}, func(_ Summary, err error) { got = err })
	<-started
	deadline := time.Now().Add(30 * time.Second)
	for {
		mu.Lock()
		n := len(batches)
		mu.Unlock()
		if n > 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	stop()
	if got != nil {
		t.Errorf("CatchUp stopped: done told %v, want nil", got)
	}
	if len(batches) != 1 || batches[0].URLs[0] != "https://www.example.com/a" {
		t.Errorf("batches %+v, want the URL added", batches)
	}
}
