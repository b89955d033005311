package fetch

import (
	"time"

	sitemap "github.com/sitemapkit/sitemap"
)

// EventKind says what an [Event] carries.
type EventKind uint8

const (
	// EventURL carries one URL entry (Event.URL, with Source set).
	EventURL EventKind = iota + 1
	// EventNodeStart says a node (the start page, robots.txt or a sitemap)
	// is being read; Event.Node is its state so far.
	EventNodeStart
	// EventNodeEnd says a node is finished; Event.Node has its counts.
	EventNodeEnd
	// EventDiagnostic carries one problem (Event.Diagnostic); Event.Node is
	// the node it concerns, or nil for the walk as a whole.
	EventDiagnostic

	// eventCap is internal: a worker reports a cap to the receiver.
	eventCap EventKind = 100
)

// Event is what [Walk] hands to its callback. It and everything it points
// to are valid only during the call: copy *URL (a shallow copy is enough)
// to keep it.
type Event struct {
	Kind EventKind
	// NodeID is the node the event concerns (0: the walk as a whole).
	NodeID int
	URL    *sitemap.URL
	// Line is where the URL entry starts in its document (0: unknown).
	Line       int
	Node       *Node
	Diagnostic *sitemap.Diagnostic

	cap string // eventCap: the cap's name
}

// NodeKind says what a [Node] is.
type NodeKind uint8

const (
	// NodeStart is the homepage the walk started from (not fetched).
	NodeStart NodeKind = iota + 1
	// NodeRobots is a robots.txt file.
	NodeRobots
	// NodeSitemap is a sitemap or sitemap index.
	NodeSitemap
)

// String returns "start", "robots" or "sitemap".
func (k NodeKind) String() string {
	switch k {
	case NodeStart:
		return "start"
	case NodeRobots:
		return "robots"
	case NodeSitemap:
		return "sitemap"
	}
	return "node"
}

// Node is one document of the tree a walk reads: the start page, a
// robots.txt or a sitemap. IDs start at 1 and follow discovery order;
// Parent is 0 for the root.
type Node struct {
	ID     int
	Parent int
	Kind   NodeKind
	// URL is the URL as listed; FinalURL the URL after redirects. For a
	// document a Getter read, both are its name (a path, "<stdin>") and
	// Served is the URL it is served at ("" when unknown).
	URL      string
	FinalURL string
	Served   string
	// Depth is 0 for the start page and robots.txt, 1 for a sitemap they
	// name, 2 for a child of that index, and so on.
	Depth int
	// Probe is set for a sitemap found by probing a well-known path.
	Probe bool
	// Seq is the 1-based position of the document in the list that named
	// it (an index's <sitemap> entries, robots.txt's Sitemap: lines); 0
	// for the start, robots.txt and probes. Documents are read
	// concurrently, so their IDs follow the order reading began; Seq
	// gives the list's order back (the --tree of the command uses it).
	Seq int
	// Format is the document's format: "urlset", "sitemapindex", "text",
	// "rss", "atom" or "robots" ("" when unknown).
	Format string
	// Status is the HTTP status of the last response (0 when none).
	Status int
	// Cached is set when a 304 made the walk reuse the cached body;
	// NotModified when a 304 answered the validators of Options.Revisit
	// (nothing was read: the caller knows the entries).
	Cached, NotModified bool
	// ETag and LastModified are the validators of the last response
	// ("" when it had none, or the document was not read over HTTP).
	ETag, LastModified string
	// Bytes is how many bytes were transferred for this node.
	Bytes int64
	// URLs is how many URL entries the node listed (duplicates included);
	// Sitemaps how many child sitemaps.
	URLs     int
	Sitemaps int
	// Errors and Warnings count the node's diagnostics by severity.
	Errors, Warnings int
	// Failed is set when the node could not be read to its end; Err says
	// why.
	Failed bool
	Err    string
	// Cause is the error behind Failed: a *Error for HTTP, the
	// *sitemap.DecodeError the decoder stopped with (its diagnostic was
	// delivered), or the Getter's.
	Cause error
	// Elapsed is the time spent on the node.
	Elapsed time.Duration
}

// Summary is what a walk did.
type Summary struct {
	// Sitemaps is how many sitemaps were read (failed ones included);
	// Failed how many of them could not be read to the end.
	Sitemaps, Failed int
	// Entries is how many URL entries the sitemaps listed; URLs how many
	// were handed out; Duplicates how many were dropped as seen before.
	Entries, URLs, Duplicates int64
	// Bytes is how many bytes were transferred (robots.txt included).
	Bytes int64
	// Elapsed is the wall time of the walk.
	Elapsed time.Duration
	// Errors, Warnings and Infos count diagnostics by severity; Problems
	// counts them by rule ID.
	Errors, Warnings, Infos int
	Problems                map[string]int
	// Capped lists the caps that were reached ("depth", "sitemaps", "urls",
	// "bytes", "time").
	Capped []string
	// StartErr says why the start URL, when it is a sitemap, could not be
	// fetched at all: an HTTP error status, a network failure, a refused
	// redirect (an *Error), or its deadline. For a homepage or robots.txt
	// start it is set when the site answered nothing, robots.txt and every
	// well-known path failing without a response (robots.txt's error: a
	// network failure, or the scope refusing the site; no FETCH-NONE
	// then). Its diagnostic was delivered as well. For a start a Getter
	// reads (a file, a directory's file, standard input), it is the
	// Getter's error, with no diagnostic: the caller says it once. With
	// several starts, it is the first. A caller that was asked to read
	// that one document could not run; a sitemap that was fetched but is
	// truncated or malformed is a problem found instead (Failed), and so
	// is any failure below the start.
	StartErr error
}
