package indexnow

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/sitemapkit/sitemap/fetch"
	"github.com/sitemapkit/sitemap/internal/check"
	"github.com/sitemapkit/sitemap/store"
)

// Key lengths IN-03 allows.
const (
	MinKeyLength = check.MinKeyLength
	MaxKeyLength = check.MaxKeyLength
)

// KeyError is a key that IN-03 refuses.
type KeyError struct {
	Key    string
	Reason string
}

func (e *KeyError) Error() string {
	return fmt.Sprintf("key %q %s; a key is 8 to 128 characters of a-z, A-Z, 0-9 and '-' (IN-03): make one with 'sitemap indexnow key'", cut(e.Key, 40), e.Reason)
}

func cut(s string, n int) string {
	if len(s) > n {
		for n > 0 && !utf8.RuneStart(s[n]) {
			n-- // not inside a character: the quoted key stays readable
		}
		return s[:n] + "…"
	}
	return s
}

// ValidKey returns nil when key is 8 to 128 characters of a-z, A-Z, 0-9
// and '-' (IN-03), else a *KeyError saying what is wrong.
func ValidKey(key string) error {
	if why := check.IndexNowKey(key); why != "" {
		return &KeyError{key, why}
	}
	return nil
}

// NewKey returns a new random key: 32 lowercase hexadecimal digits from
// crypto/rand (128 bits).
func NewKey() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("indexnow: random key: %w", err)
	}
	return hex.EncodeToString(b[:]), nil
}

// KeyFileName is the name of key's file at the root of a host: KEY.txt.
func KeyFileName(key string) string { return key + ".txt" }

// WriteKeyFile writes key's file, KEY.txt holding the key and nothing
// else, into dir (created when missing), atomically (store.WriteFile: a
// reader sees no file or the whole one), and returns its path. A key
// that IN-03 refuses is an error and nothing is written; so is a dir
// that is a file, or in which no file can be created (a read-only file
// system), the error saying why (store.CheckWritable).
func WriteKeyFile(dir, key string) (string, error) {
	if err := ValidKey(key); err != nil {
		return "", err
	}
	if err := store.CheckWritable(dir); err != nil {
		return "", fmt.Errorf("indexnow: no key file can be written in %s: %v; give a directory you can write to", dir, err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("indexnow: key file directory: %w", err)
	}
	p := filepath.Join(dir, KeyFileName(key))
	if err := store.WriteFile(p, []byte(key), 0o644); err != nil {
		return "", fmt.Errorf("indexnow: writing the key file: %w", err) // store's error names the file
	}
	return p, nil
}

// ReadKeyFile reads the key held by a key file (the first line, without
// surrounding white space) from r and checks it (IN-03).
func ReadKeyFile(r io.Reader) (string, error) {
	b, err := io.ReadAll(io.LimitReader(r, MaxKeyLength+1024))
	if err != nil {
		return "", err
	}
	s := strings.TrimPrefix(string(b), "\ufeff")
	s, _, _ = strings.Cut(s, "\n")
	s = strings.TrimSpace(s)
	if s == "" {
		return "", errors.New("the key file is empty; it holds the key and nothing else (IN-04)")
	}
	return s, ValidKey(s)
}

// KeyURL is where engines look for key's file: keyLocation when given,
// else https://HOST/KEY.txt (IN-04).
func KeyURL(host, key, keyLocation string) string {
	if keyLocation != "" {
		return keyLocation
	}
	return "https://" + host + "/" + KeyFileName(key)
}

// VerifyKey fetches the key file at keyURL through c and returns nil
// when it holds key; otherwise an error saying whether the file is
// missing, unreachable or holds another key, and what to do.
func VerifyKey(ctx context.Context, c *fetch.Client, keyURL, key string) error {
	if c == nil {
		return errors.New("indexnow: VerifyKey needs an HTTP client")
	}
	resp, err := c.Get(ctx, keyURL, fetch.GetOptions{Accept: "text/plain,*/*;q=0.5", AcceptEncoding: "identity"})
	if err != nil {
		var fe *fetch.Error
		if errors.As(err, &fe) && fe.Kind == fetch.KindNotFound {
			return fmt.Errorf("key file %s is missing (%s); publish the key file there before submitting (IN-04)", keyURL, fe.Msg)
		}
		return fmt.Errorf("key file %s could not be read: %v; publish it there and check the host answers (IN-04)", keyURL, err)
	}
	defer resp.Close()
	b, err := io.ReadAll(io.LimitReader(resp, MaxKeyLength+1024))
	if err != nil {
		return fmt.Errorf("key file %s could not be read: %v", keyURL, err)
	}
	got := strings.TrimSpace(strings.TrimPrefix(string(b), "\ufeff"))
	if got != key {
		return fmt.Errorf("key file %s holds %q, not the key %q; publish the file of this key (IN-04)", keyURL, cut(got, 40), cut(key, 40))
	}
	return nil
}
