package generate

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/sitemapkit/sitemap/robots"
)

// RobotsUpdate is what Run did to Options.RobotsTxt.
type RobotsUpdate struct {
	// Path is Options.RobotsTxt.
	Path string `json:"path"`
	// Sitemap is the URL of the line added (Summary.Sitemap).
	Sitemap string `json:"sitemap"`
	// Added is set when the line was added; false when the file already
	// listed it (or in a dry run, where the file is not read).
	Added bool `json:"added,omitempty"`
	// Removed are the Sitemap: lines dropped because they name files this
	// run removed (a crawler would get a 404 there).
	Removed []string `json:"removed,omitempty"`
	// DryRun is set when the file was left alone: the line would be
	// added.
	DryRun bool `json:"dry_run,omitempty"`
}

// checkRobotsPath says why path cannot be the robots.txt a run writes: a
// directory or another file that is not a regular one, or a file whose
// directory does not exist (unless dryRun: a dry run writes no --out
// directory for it to be in); nil when it can be.
func checkRobotsPath(path string, dryRun bool) error {
	fi, err := os.Stat(path)
	switch {
	case err == nil && fi.IsDir():
		return fmt.Errorf("robots.txt %s is a directory; give the path of the file, such as %s", path, filepath.Join(path, "robots.txt"))
	case err == nil && !fi.Mode().IsRegular():
		return fmt.Errorf("robots.txt %s is not a regular file; give the path of a robots.txt file", path)
	case err == nil:
		return nil
	case !errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("robots.txt %s: %v", path, err)
	case dryRun:
		return nil
	}
	dir := filepath.Dir(path)
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return fmt.Errorf("robots.txt %s: no directory %s to create it in; create the directory, or give the path of an existing robots.txt", path, dir)
	}
	return nil
}

// updateRobots adds the Sitemap: line of sum's top file to the robots.txt
// file path, keeping every other byte (RB-13) and never duplicating the
// line, and drops the lines of the files sum removed (robots.Edit.File).
func updateRobots(path string, sum Summary, base string, dryRun bool) (*RobotsUpdate, error) {
	ru := &RobotsUpdate{Path: path, Sitemap: sum.Sitemap}
	if dryRun {
		ru.DryRun = true
		return ru, nil
	}
	// A Sitemap: line for a file this run removed (the previous top file,
	// when a single sitemap became an index or gzip was switched) would
	// send crawlers to a 404; it goes, every other byte stays.
	edit := robots.Edit{Add: sum.Sitemap}
	for _, name := range sum.Removed {
		edit.Remove = append(edit.Remove, slash(base)+name)
	}
	ed, err := edit.File(path)
	var fe *robots.FileError
	switch {
	case errors.As(err, &fe) && fe.Op == "edit":
		return ru, &StageError{StageRobotsEdit, fe.Err}
	case errors.As(err, &fe):
		return ru, &StageError{StageRobots, fe.Err}
	case err != nil:
		return ru, &StageError{StageRobots, err}
	}
	if ed.Changed() {
		ru.Added, ru.Removed = ed.Added, ed.Removed
	}
	return ru, nil
}
