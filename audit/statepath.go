package audit

import (
	"crypto/sha256"
	"encoding/hex"
	"path/filepath"

	"github.com/sitemapkit/sitemap/state"
	"github.com/sitemapkit/sitemap/urlnorm"
)

// StatePath is the default state file of an audit, which makes it
// resumable when no state file is named: USERDIR/audit/HASH.db
// ([state.UserDir]), HASH the first 16 hex digits of the SHA-256 of what
// is audited: site (Options.Site, "" for a URL) and the names, local
// files by their absolute path. The same audit finds its state again;
// nothing is created.
func StatePath(site string, names []string) (string, error) {
	home, err := state.UserDir()
	if err != nil {
		return "", err
	}
	key := site
	for _, in := range names {
		if abs, err := filepath.Abs(in); err == nil && !urlnorm.IsHTTP(in) && in != "-" {
			in = abs
		}
		key += "\x00" + in
	}
	sum := sha256.Sum256([]byte(key))
	return filepath.Join(home, "audit", hex.EncodeToString(sum[:8])+".db"), nil
}
