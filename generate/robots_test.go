package generate

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sitemapkit/sitemap/store"
)

// A RobotsTxt that cannot be written (a directory, or a file in a
// directory that does not exist) stops the run before anything is
// published, with an error naming the path and what to give instead: the
// sitemaps were published and the run then failed on robots.txt, with a
// temporary file's name in the message.
func TestRunRobotsPathCheckedFirst(t *testing.T) {
	for _, c := range []struct {
		robots func(dir string) string
		want   string
	}{
		{func(dir string) string { return dir }, "is a directory"},
		{func(dir string) string { return filepath.Join(dir, "nodir", "robots.txt") }, "no directory"},
	} {
		dir := t.TempDir()
		out := filepath.Join(dir, "public")
		st, err := store.Dir(out)
		if err != nil {
			t.Fatal(err)
		}
		o := opts(st, nil)
		o.RobotsTxt = c.robots(dir)
		_, err = Run(context.Background(), text(base+"a"), o)
		var se *StageError
		if err == nil || !errors.As(err, &se) || se.Stage != StageOpen || !strings.Contains(err.Error(), c.want) ||
			!strings.Contains(err.Error(), o.RobotsTxt) || strings.Contains(err.Error(), ".tmp") {
			t.Errorf("%s: %v; want a StageOpen error saying %q", o.RobotsTxt, err, c.want)
		}
		if ents, _ := os.ReadDir(out); len(ents) != 0 {
			t.Errorf("%s: published %v", o.RobotsTxt, ents)
		}
	}
}

// A RobotsTxt without Build.BaseURL stops the run before anything is
// published: the Sitemap: line is an absolute URL (RB-05), and the
// sitemaps were published, then the line refused.
func TestRunRobotsNeedsBaseURL(t *testing.T) {
	dir := t.TempDir()
	st, err := store.Dir(dir)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Run(context.Background(), text(base+"a"), Options{Out: st, RobotsTxt: filepath.Join(dir, "robots.txt")})
	var se *StageError
	if !errors.As(err, &se) || se.Stage != StageOpen || !strings.Contains(err.Error(), "Build.BaseURL") {
		t.Errorf("no base URL: %v", err)
	}
	if names, _ := st.List(context.Background()); len(names) != 0 {
		t.Errorf("published %v", names)
	}
}
