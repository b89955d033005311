package crawl

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/sitemapkit/sitemap/internal/plural"
	"github.com/sitemapkit/sitemap/state"
)

// Ignore switches off the listing rules named (what `sitemap crawl
// --ignore` takes): "robots", "noindex", "canonical", "nofollow". An
// unknown name is an error that lists the four.
func (o *Options) Ignore(names []string) error {
	for _, rule := range names {
		switch strings.TrimSpace(rule) {
		case "robots":
			o.IgnoreRobots = true
		case "noindex":
			o.IgnoreNoindex = true
		case "canonical":
			o.IgnoreCanonical = true
		case "nofollow":
			o.IgnoreNofollow = true
		default:
			return fmt.Errorf("%q: want robots, noindex, canonical or nofollow", rule)
		}
	}
	return nil
}

// Failed is how many URLs failed: no HTTP response, or an error status
// (the reasons "error" and "status:NNN").
func (s Summary) Failed() int {
	failed := 0
	for reason, n := range s.Reasons {
		if reason == ReasonError || strings.HasPrefix(reason, "status:") {
			failed += n
		}
	}
	return failed
}

// WriteText writes the summary for people: what was fetched and listed,
// the count of every reason a URL was left out, and the limits reached.
func (s Summary) WriteText(w io.Writer) error {
	left := 0
	reasons := make([]string, 0, len(s.Reasons))
	for r, n := range s.Reasons {
		reasons = append(reasons, r)
		left += n
	}
	sort.Strings(reasons)
	how := "crawled"
	if s.Resumed {
		how = "resumed"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s: %s fetched in %s; %d listed, %d left out\n", how, s.Start, plural.Of(s.Fetched, "page", "pages"),
		s.Elapsed.Round(time.Millisecond), s.Listed, left)
	for _, r := range reasons {
		fmt.Fprintf(&b, "  %-26s %d\n", r, s.Reasons[r])
	}
	if s.Render != nil {
		s.Render.write(&b)
	}
	for _, l := range s.Limits {
		fmt.Fprintf(&b, "sitemap: limit reached: --%s; URLs beyond it were not crawled (reason \"limit:%s\")\n", l, l)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteReport writes one JSON line per URL the crawl saw, its [Outcome],
// in order of URL (what `sitemap crawl --report` writes).
func (c *Crawler) WriteReport(ctx context.Context, w io.Writer) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	if err := c.Outcomes(ctx, func(o Outcome) error { return enc.Encode(o) }); err != nil {
		return err
	}
	return bw.Flush()
}

// WriteStatus writes the progress of a shared crawl for people; where
// names the database (its password redacted).
func WriteStatus(w io.Writer, cs state.CrawlStatus, where string) error {
	var b strings.Builder
	if cs.State == "" {
		fmt.Fprintf(&b, "no crawl in %s\n", where)
		_, err := io.WriteString(w, b.String())
		return err
	}
	since := cs.Now.Sub(cs.Time).Round(time.Second)
	fmt.Fprintf(&b, "crawl of %s: %s, started %s (%s ago)\n", cs.Start, cs.State, cs.Time.Format(time.RFC3339), since)
	seeding := ""
	if cs.State == "running" && !cs.Seeded {
		seeding = "; the seeds are not all in yet"
	}
	fmt.Fprintf(&b, "frontier:    %d URLs pending (%d leased to live workers)%s\n", cs.Pending, cs.Leased, seeding)
	fmt.Fprintf(&b, "done:        %d URLs decided, %d pages fetched\n", cs.Decided, cs.Fetched)
	fmt.Fprintf(&b, "pages/s:     %.1f (last %s)\n", cs.PagesPerSecond(), state.RecentWindow)
	fmt.Fprintf(&b, "workers:     %d alive of %d\n", cs.Alive(), len(cs.Workers))
	for _, wk := range cs.Workers {
		alive := "alive"
		if !wk.Alive {
			alive = "dead"
		}
		fmt.Fprintf(&b, "  %-40s %-5s %6d pages, last heard %s ago\n", wk.ID, alive, wk.Pages, cs.Now.Sub(wk.Seen).Round(100*time.Millisecond))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteStatusJSON writes the progress of a shared crawl as one indented
// JSON object: start, state, seeded, time, pending, leased, decided,
// fetched, pages_per_second, workers_alive, workers (id, host, pid,
// alive, pages, seen) and now, the database's clock.
func WriteStatusJSON(w io.Writer, cs state.CrawlStatus) error {
	type worker struct {
		ID    string    `json:"id"`
		Host  string    `json:"host"`
		PID   int       `json:"pid"`
		Alive bool      `json:"alive"`
		Pages int       `json:"pages"`
		Seen  time.Time `json:"seen"`
	}
	out := struct {
		Start    string    `json:"start"`
		State    string    `json:"state"`
		Seeded   bool      `json:"seeded"`
		Time     time.Time `json:"time"`
		Pending  int       `json:"pending"`
		Leased   int       `json:"leased"`
		Decided  int       `json:"decided"`
		Fetched  int       `json:"fetched"`
		PagesPS  float64   `json:"pages_per_second"`
		Alive    int       `json:"workers_alive"`
		Workers  []worker  `json:"workers"`
		Database time.Time `json:"now"`
	}{cs.Start, cs.State, cs.Seeded, cs.Time, cs.Pending, cs.Leased, cs.Decided, cs.Fetched, cs.PagesPerSecond(), cs.Alive(), []worker{}, cs.Now}
	for _, wk := range cs.Workers {
		out.Workers = append(out.Workers, worker{wk.ID, wk.Host, wk.PID, wk.Alive, wk.Pages, wk.Seen})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// WriteJSON writes the summary as `sitemap crawl --json` prints it: one
// indented object {"crawl": s, "build": built}, "build" left out when
// built is nil (nothing was published).
func (s Summary) WriteJSON(w io.Writer, built any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(struct {
		Crawl Summary `json:"crawl"`
		Build any     `json:"build,omitempty"`
	}{s, built})
}
