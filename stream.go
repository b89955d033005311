package sitemap

import "context"

// Entries is a stream of entries, in the one shape the packages of this
// module pass streams in: push, with a context and an error-returning
// yield. Calling it calls yield once per entry, in order, and returns nil
// at the end, the first error yield returns (as it is), or the error that
// stopped the reading. The *URL is only read during the call (the stream
// may reuse it).
//
// crawl.Crawler.Entries and diff.Open give an Entries; generate.Entries
// turns one into the input of a generate run; the same shape, over other
// element types, is that of generate.Source, fetch.Walk,
// crawl.Crawler.Outcomes and state.Store.Unseen.
type Entries func(ctx context.Context, yield func(*URL) error) error
