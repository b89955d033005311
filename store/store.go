// Package store is where the files a sitemap run writes end up: a local
// directory ([DirStore]), an S3 bucket prefix ([S3Store]), a writer such as
// standard output ([WriterStore],
// one file) or memory ([MemStore], for tests).
//
// Every file is written aside under a temporary name and becomes visible
// only when it is published. [Store.Publish] makes a set of files visible
// in the order given and then removes the names a run no longer needs; the
// order is chosen by the caller. Package build names a run's child
// sitemaps by their content, so they never replace a file the live index
// lists, and publishes the index last: that one rename is the moment the
// set changes, and a run killed at any point leaves an index that lists
// complete children of one run. Such a publication needs no journal
// (Publication.Journal empty). A publication with a journal is
// all-or-nothing instead: the journal is written before anything is
// renamed, and a run killed part-way through is finished by
// [Store.Recover] on the next run.
package store

import (
	"context"
	"errors"
	"io"
)

// Store holds named files.
type Store interface {
	// Create starts a file that will be published under name. Nothing is
	// visible under name until the file is committed and published; an
	// aborted or never-published file leaves no trace once Recover ran.
	Create(ctx context.Context, name string) (File, error)
	// Publish makes the committed files of p visible under their names,
	// in the order of p.Files, then removes the names in p.Remove. With a
	// journal (p.Journal) it is all-or-nothing across crashes for stores
	// that journal (DirStore): once Publish has begun renaming, a later
	// Recover completes it. Without one, a crash leaves the files before
	// some point of p.Files in place and the rest unpublished: the caller
	// orders p.Files so that every such prefix is a consistent state.
	Publish(ctx context.Context, p Publication) error
	// Recover completes a publication a killed run left behind under the
	// journal name (none when journal is ""), then removes the temporary
	// files of names for which owns returns true (files of runs that
	// were killed while writing). It must not run while another run
	// writes the same names.
	Recover(ctx context.Context, journal string, owns func(name string) bool) error
	// Remove deletes a published file; removing an absent file is not an
	// error.
	Remove(ctx context.Context, name string) error
	// Open reads a published file. The error wraps fs.ErrNotExist when the
	// file is absent.
	Open(ctx context.Context, name string) (io.ReadCloser, error)
	// List returns the names of the published files, sorted.
	List(ctx context.Context) ([]string, error)
}

// File is a file being written. Write appends bytes; Commit makes the file
// complete and durable but not yet visible (see [Store.Publish]); Abort
// discards it. After Commit or Abort, Write returns an error.
type File interface {
	io.Writer
	// Name is the name the file will be published under.
	Name() string
	// Commit completes the file. It does not publish it. A store may
	// make the file durable later: DirStore syncs the files of a
	// publication together in Publish, before it renames any of them.
	Commit() error
	// Abort discards the file. It is safe to call after Commit (the
	// committed, unpublished file is removed) and more than once.
	Abort() error
}

// Renamer is implemented by the files of stores that can change the name
// a file will be published under after it was created (DirStore,
// MemStore): a name made from a file's content is known only once the
// file is written. Rename fails on a file that was aborted or published,
// and on a name the store does not accept.
type Renamer interface {
	Rename(name string) error
}

// Publication is a set of committed files to make visible together.
type Publication struct {
	// Journal, when set, names the record of the publication kept while
	// it runs (for example "sitemap.publish-journal"), in the store beside
	// the files, which makes the publication all-or-nothing across
	// crashes (see Store.Publish). Empty: no journal, the files are
	// published in order.
	Journal string
	// Files are committed files of this store, published in this order.
	Files []File
	// Remove are names deleted once every file is in place (orphans of a
	// previous run). Names also in Files are not removed.
	Remove []string
}

// Locker is implemented by stores that can keep two runs from writing the
// same set of names at once (DirStore). Lock takes the lock for name (a
// set's base name, such as "sitemap") or fails at once with an error
// wrapping ErrLocked when another run holds it; unlock releases it. A
// store may lock more than the name: DirStore locks its whole directory.
type Locker interface {
	Lock(ctx context.Context, name string) (unlock func() error, err error)
}

// ErrLocked is wrapped by Lock's error when another run holds the lock.
var ErrLocked = errors.New("store: locked")

// ErrClosed is returned by writes to a file after Commit or Abort.
var ErrClosed = errors.New("store: file already committed or aborted")

// ErrNotCommitted is returned by Publish for a file that was not committed.
var ErrNotCommitted = errors.New("store: file not committed")
