package source

import (
	"context"
	"errors"
	"io"

	sitemap "github.com/sitemapkit/sitemap"
)

// Entries returns the entries of r in the module's one stream shape
// ([sitemap.Entries]), for the packages that take a stream (diff,
// generate.Entries). Each entry r refuses (an [*Error]) goes to onError
// (nil: skipped silently) and reading goes on; any other error of r ends
// the stream and is returned, as is ctx.Err() once ctx is done (checked
// every few thousand entries).
func Entries(r Reader, onError func(*Error)) sitemap.Entries {
	return func(ctx context.Context, yield func(*sitemap.URL) error) error {
		for n := 0; ; n++ {
			if n%4096 == 0 {
				if err := ctx.Err(); err != nil {
					return err
				}
			}
			rec, err := r.Next()
			if err == io.EOF {
				return nil
			}
			var se *Error
			if errors.As(err, &se) {
				if onError != nil {
					onError(se)
				}
				continue
			}
			if err != nil {
				return err
			}
			if err := yield(&rec.URL); err != nil {
				return err
			}
		}
	}
}
