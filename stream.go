package sitemap

import "context"

// Entries is a stream of entries, in the one shape the packages of this
// module pass streams in: push, with a context and an error-returning
// yield. Calling it calls yield once per entry, in order, and returns nil
// at the end, the first error yield returns (as it is), or the error that
// stopped the reading. The *URL is only read during the call (the stream
// may reuse it).
//
// crawl.Crawler.Entries, diff.Open, input.Entries and source.Entries
// give one; diff.Diff compares two; generate.Entries turns
// one into the input of a generate run. The same shape, over other
// element types, is that of generate.Source, fetch.Walk,
// crawl.Crawler.Outcomes and state.Store.Unseen. The readers of single
// documents (Decoder, source.Reader, input.Reader) pull with Next: that is
// the primitive a stream is built from, in one loop, inside the library.
type Entries func(ctx context.Context, yield func(*URL) error) error
