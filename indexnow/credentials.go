package indexnow

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/sitemapkit/sitemap/fetch"
)

// Credentials say where a submission's key and host come from, as a
// person gives them (the flags of `sitemap submit`, named alike): the
// key itself or its key file, the host, and where the key file is
// served when not at https://HOST/KEY.txt.
type Credentials struct {
	Key, KeyFile, Host, KeyLocation string
}

// Resolve returns c with Key set (read from KeyFile when given: its
// first line), KeyLocation in the form the POST carries, and Host
// (KeyLocation's host when not given). warning, when not "", says that
// the key file's name is not the one engines look for. An error names
// the setting as its flag (--key-file) and says what to give instead.
func (c Credentials) Resolve() (_ Credentials, warning string, err error) {
	if c.KeyFile != "" {
		if c.Key != "" {
			return c, "", errors.New("give --key or --key-file, not both")
		}
		if c.Key, err = LoadKeyFile("--key-file", c.KeyFile); err != nil {
			return c, "", err
		}
		if filepath.Base(c.KeyFile) != KeyFileName(c.Key) && c.KeyLocation == "" {
			warning = fmt.Sprintf("the key file is named %s; engines look for %s at the root of the host unless --key-location says where it is",
				filepath.Base(c.KeyFile), KeyFileName(c.Key))
		}
	}
	if c.Key == "" {
		return c, "", errors.New("no key: give --key KEY or --key-file FILE (make one with 'sitemap indexnow key --out DIR')")
	}
	if err := ValidKey(c.Key); err != nil {
		return c, "", err
	}
	if c.KeyLocation != "" {
		c.KeyLocation = NormalURL(c.KeyLocation) // as the POST carries it
	}
	if c.Host == "" && c.KeyLocation != "" {
		c.Host = HostOf(c.KeyLocation)
	}
	if c.Host == "" {
		return c, "", errors.New("no host: give --host www.example.com, the host of the URLs to submit")
	}
	return c, warning, nil
}

// LoadKeyFile reads the key of the key file at path (ReadKeyFile), its
// errors worded with the flag that names the file.
func LoadKeyFile(flag, path string) (string, error) {
	kf, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("%s: %v", flag, err)
	}
	defer kf.Close()
	key, err := ReadKeyFile(kf)
	if err != nil {
		return "", fmt.Errorf("%s %s: %v", flag, path, err)
	}
	return key, nil
}

// Verify fetches the live key file of resolved credentials through hc
// (VerifyKey) and returns the URL it was read at; an error says what to
// do, such as giving --key-location for a site served over http.
func (c Credentials) Verify(ctx context.Context, hc *fetch.Client) (string, error) {
	ku := KeyURL(NormalHost(c.Host), c.Key, c.KeyLocation)
	if err := VerifyKey(ctx, hc, ku, c.Key); err != nil {
		if c.KeyLocation == "" && strings.HasPrefix(ku, "https://") {
			return ku, fmt.Errorf("--verify-key: %v; for a site served over http, give --key-location http://%s", err, strings.TrimPrefix(ku, "https://"))
		}
		return ku, fmt.Errorf("--verify-key: %v", err)
	}
	return ku, nil
}
