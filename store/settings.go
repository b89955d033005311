package store

import (
	"context"
	"errors"
	"fmt"
	"io"
)

// Settings are where a run publishes, as a person gives it (the flags
// --out, --s3-endpoint, --s3-region and --cache-control of `sitemap
// generate` and `crawl`): the location, and the S3 store's options for
// an s3://bucket/prefix one (their HTTPClient sends its requests).
type Settings struct {
	// Out is a directory, s3://bucket/prefix, or "-" for standard output.
	Out string
	S3  S3Options
}

// ErrEmptyOut is the error of an empty Out: no place to publish.
var ErrEmptyOut = errors.New("--out is empty; give a directory (. for the current one)")

// OpenOptions are the options of [Open] and [Check] for s: "-" written
// to stdout; with dryRun the location is only read.
func (s Settings) OpenOptions(dryRun bool, stdout io.Writer) OpenOptions {
	return OpenOptions{Stdout: stdout, DryRun: dryRun, S3: s.S3}
}

// Open is [Open] of Out (a dry run only reads it; the store is then nil
// when there is nothing to read). undo removes the directories it
// created while they are still empty: call it once the run's store is
// done with. An error names the flag: "--out LOC: …".
func (s Settings) Open(dryRun bool, stdout io.Writer) (st Store, undo func(), err error) {
	if s.Out == "" {
		return nil, func() {}, ErrEmptyOut
	}
	if st, undo, err = Open(s.Out, s.OpenOptions(dryRun, stdout)); err != nil {
		return nil, undo, fmt.Errorf("--out %s: %w", s.Out, err)
	}
	return st, undo, nil
}

// Check refuses, before a long run, an Out it could not publish into at
// its end ([Check], probe the index the run would replace, such as
// "sitemap.xml"). Unlike Check's, an error names the flag: "--out LOC:
// …"; an error of ctx being done is ctx.Err() itself.
func (s Settings) Check(ctx context.Context, probe string, dryRun bool) error {
	if s.Out == "" {
		return ErrEmptyOut
	}
	if err := Check(ctx, s.Out, probe, s.OpenOptions(dryRun, nil)); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("--out %s: %w", s.Out, err)
	}
	return nil
}
