package store

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// OpenOptions configure [Open].
type OpenOptions struct {
	// S3 configures the store of an s3://bucket/prefix location; its
	// HTTPClient sends the requests (a program injects its own client, so
	// that this package stays free of any HTTP policy).
	S3 S3Options
	// Stdout is the writer of the location "-" (standard output).
	Stdout io.Writer
	// DryRun opens the location only to be read: "-" gives no store, a
	// local directory is not created (no store when it does not exist),
	// and an S3 location is opened as it is (reading it is harmless).
	DryRun bool
}

// Open returns the store a location names, as a command line gives it:
// "-" a [Writer] of o.Stdout (one file), s3://bucket/prefix an [S3]
// store, anything else a local directory ([Dir]), created with its
// missing parents. In a dry run (o.DryRun) the store may be nil: nothing
// to read there.
//
// undo removes the directories Open created, deepest first, while they
// are still empty, and stops at the first that is not (or is gone): a
// run that publishes nothing calls it once it is done with the store, to
// leave no trace. It is never nil, and does nothing for the other kinds.
// An error names neither the location nor a flag; the caller adds them.
func Open(loc string, o OpenOptions) (st Store, undo func(), err error) {
	undo = func() {}
	switch {
	case loc == "-":
		if o.DryRun {
			return nil, undo, nil
		}
		return Writer(o.Stdout), undo, nil
	case IsS3(loc):
		s3, err := S3(loc, o.S3)
		if err != nil {
			return nil, undo, err
		}
		return s3, undo, nil
	case o.DryRun:
		if fi, err := os.Stat(loc); err == nil && fi.IsDir() {
			if d, err := Dir(loc); err == nil {
				return d, undo, nil
			}
		}
		return nil, undo, nil
	}
	var created []string // missing directories, the deepest first
	if abs, err := filepath.Abs(loc); err == nil {
		for d := abs; ; d = filepath.Dir(d) {
			if _, err := os.Lstat(d); !errors.Is(err, fs.ErrNotExist) || d == filepath.Dir(d) {
				break
			}
			created = append(created, d)
		}
	}
	d, err := Dir(loc)
	if err != nil {
		return nil, undo, err
	}
	return d, func() {
		for _, c := range created {
			if os.Remove(c) != nil {
				return // not empty (or gone): leave it and its parents
			}
		}
	}, nil
}

// Check says, before a long run that publishes into loc at its end, why
// it could not: a local directory that cannot be written or created
// ([CheckWritable]; not checked in a dry run, which writes none), or an
// S3 location whose object probe (the index a run would replace) cannot
// be read: no such bucket or endpoint, credentials refused (a probe not
// there is fine). "-" is always fine. It creates nothing that stays, and
// like Open its error names neither the location nor a flag.
func Check(ctx context.Context, loc, probe string, o OpenOptions) error {
	switch {
	case loc == "-":
	case IsS3(loc):
		s3, err := S3(loc, o.S3)
		if err != nil {
			return err
		}
		r, err := s3.Open(ctx, probe)
		if err == nil {
			r.Close()
		} else if !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	case !o.DryRun:
		if err := CheckWritable(loc); err != nil {
			return fmt.Errorf("%w; give a directory you can write to", err)
		}
	}
	return nil
}
