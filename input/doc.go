// Package input is the one way in: it turns the names a command line gives
// (a file, "-" for standard input, an http(s) URL, a directory) into
// documents, opens them (gzip or not: the decoder sniffs the bytes), and
// follows the children of a sitemap index by one rule, the same for every
// command.
//
// # Names
//
//   - "-": standard input, named [StdinName] (<stdin>) in messages and
//     records, at most once per run ([Resolve] refuses a
//     second "-").
//   - an http(s) URL ([urlnorm.IsHTTP]): fetched with GET through
//     [Options.Client] (package fetch's client: one User-Agent, timeouts,
//     retries, size cap); only a 200 response is a document, anything
//     else is the client's *fetch.Error.
//   - a directory: its sitemap files, in name order: every regular file
//     (or symbolic link to one) whose name ends in .xml, .xml.gz or .txt
//     (any case), except robots.txt and IndexNow key files (KEY.txt
//     holding its key and nothing else, IN-04, published beside the
//     sitemaps); subdirectories are not entered. An index among them
//     follows only those of its children that are not files of the
//     directory itself (those are read in turn, once).
//   - anything else: a local file.
//
// # Where a document is served
//
// A URL is served at itself. A local file is served where [Options.Base]
// says: a directory URL ending in "/" serves each file under its name
// (base + the file's path below the directory given, for a directory
// input), any other URL is the one file's URL. For a directory input Base
// is a directory: https://www.example.com/maps is read as
// https://www.example.com/maps/, and a sitemap file's URL
// (…/maps/sitemap.xml) as its directory. Without Base a local document's
// URL is unknown ("").
//
// # The children of an index
//
// [Child] maps the loc of an index's <sitemap> entry to the document to
// read (the walk applies I-05 before it asks):
//
//   - an index read from a URL: the loc itself, fetched. A loc on another
//     scheme, host or port than the index is not followed: I-05 says an
//     index lists sitemaps of its own site only. [Child] returns an
//     [*OffSiteError] for it, and the walk reports it once per child (rule
//     I-05, an error) unless [Options.AllowOffSite] is set, which follows
//     it with a warning. A redirect of a child to another site is refused
//     the same way, before it is requested.
//   - an index read from a local file: the loc's path relative to the
//     index's own URL directory (its URL without the last segment), as a
//     path below the index file's directory; when the index's URL is
//     unknown (no Base), the loc is not below that directory, or no file
//     is at that path but one is beside the index, the loc's last path
//     segment beside the index. So with Base
//     https://www.example.com/ and the index public/sitemap.xml, the loc
//     https://www.example.com/sub/a.xml is public/sub/a.xml; without Base
//     it is public/a.xml. A mapped path never leaves the index's directory
//     (a ".." segment is refused). The same I-05 rule applies: an
//     off-site loc is not mapped to a file. When the index's URL is
//     unknown (no Base), its site is taken to be its first child's, so a
//     child on a second site is I-05 with or without Base.
//   - an index read from standard input: children are not followed.
//
// The walk that follows them is package fetch's, the one traversal of
// sitemap trees ([Walk], [Entries] with [Options.Follow]; [NewGetter] is
// how it reads local documents): the I-05 rule above, loops and
// documents listed twice (read once, FETCH-LOOP, FETCH-DUP), depth
// ([Options.MaxDepth], FETCH-CAP past it), [Options.MaxChildren] per
// index (VAL-02 past it) and deduplication are the same for a directory
// as for a site.
//
// # Streams
//
// [Reader] reads the entries of names, one document at a time and each as
// it is (an index's entries, not its children), with a Next method like
// [sitemap.Decoder.Next] and the readers of package source. [Walk] reads
// names and their children as one tree, as events; [Entries] gives the
// pages as a [sitemap.Entries], the push shape packages pass streams to
// one another in (diff.Diff, generate), through a Reader or, with
// [Options.Follow], the walk. Memory does not grow with the number of
// entries.
package input
