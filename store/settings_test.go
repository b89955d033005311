package store

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Settings.Open and Check: an empty --out refused as ErrEmptyOut, "-" the
// writer, a directory created and undone, and errors naming --out LOC.
func TestSettingsOpenCheck(t *testing.T) {
	ctx := context.Background()
	if _, undo, err := (Settings{}).Open(false, nil); !errors.Is(err, ErrEmptyOut) || undo == nil {
		t.Errorf("empty --out: %v", err)
	}
	if err := (Settings{}).Check(ctx, "sitemap.xml", false); !errors.Is(err, ErrEmptyOut) {
		t.Errorf("Check of an empty --out: %v", err)
	}
	var buf bytes.Buffer
	if st, _, err := (Settings{Out: "-"}).Open(false, &buf); err != nil {
		t.Fatal(err)
	} else if _, ok := st.(*WriterStore); !ok {
		t.Errorf(`--out -: %T`, st)
	}
	root := t.TempDir()
	dir := filepath.Join(root, "public", "maps")
	s := Settings{Out: dir}
	if err := s.Check(ctx, "sitemap.xml", false); err != nil {
		t.Errorf("Check of a directory to create: %v", err)
	}
	if st, _, err := s.Open(true, nil); st != nil || err != nil {
		t.Errorf("dry run of a missing directory: %v, %v", st, err)
	}
	st, undo, err := s.Open(false, nil)
	if err != nil || st == nil {
		t.Fatalf("Open: %v", err)
	}
	undo()
	if _, err := os.Stat(filepath.Join(root, "public")); err == nil {
		t.Errorf("undo left the directories it created")
	}
	blocker := filepath.Join(root, "file")
	os.WriteFile(blocker, nil, 0o600)
	in := Settings{Out: filepath.Join(blocker, "out")}
	if _, _, err := in.Open(false, nil); err == nil || !strings.HasPrefix(err.Error(), "--out "+in.Out+": ") {
		t.Errorf("Open under a file: %v", err)
	}
	if err := in.Check(ctx, "sitemap.xml", false); err == nil || !strings.HasPrefix(err.Error(), "--out "+in.Out+": ") {
		t.Errorf("Check under a file: %v", err)
	}
	if err := in.Check(ctx, "sitemap.xml", true); err != nil {
		t.Errorf("Check of a dry run, which writes nothing: %v", err)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if err := (Settings{Out: "s3://bucket/p/", S3: S3Options{Endpoint: "http://127.0.0.1:1"}}).Check(cctx, "sitemap.xml", false); err != context.Canceled {
		t.Errorf("Check with ctx done: %v, want context.Canceled itself", err)
	}
}
