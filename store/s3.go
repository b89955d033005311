package store

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
	"github.com/aws/smithy-go"
)

// S3Options configure an [S3Store]. Every empty field is taken from the
// environment variables the AWS tools read, and then from a default.
type S3Options struct {
	// Endpoint is the URL of an S3-compatible service
	// ("http://127.0.0.1:9000"); objects are then addressed path-style
	// (endpoint/bucket/key), which every such service accepts. Empty:
	// AWS_ENDPOINT_URL_S3, then AWS_ENDPOINT_URL, then AWS's own
	// endpoint for the region (virtual-hosted style).
	Endpoint string
	// Region is the signing region. Empty: AWS_REGION, then
	// AWS_DEFAULT_REGION, then "us-east-1".
	Region string
	// AccessKeyID, SecretAccessKey and SessionToken are the credentials.
	// Empty: AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN.
	// With no key at all, requests are sent unsigned (a public bucket).
	// Profiles, SSO and instance roles are not read: export the keys
	// (`aws configure export-credentials --format env`).
	AccessKeyID, SecretAccessKey, SessionToken string
	// CacheControl is the Cache-Control of every object written. Empty:
	// "public, max-age=300".
	CacheControl string
	// TempDir holds the files being written until they are published;
	// default os.TempDir().
	TempDir string
	// HTTPClient sends the requests (the command passes its
	// fetch.Client, so that S3 requests carry its User-Agent, timeouts
	// and scope like every other request). Nil: the SDK's default client.
	HTTPClient HTTPDoer
	// Getenv replaces os.Getenv (tests).
	Getenv func(string) string
}

// HTTPDoer sends one HTTP request: *http.Client and fetch.Client are
// ones.
type HTTPDoer interface {
	Do(*http.Request) (*http.Response, error)
}

// DefaultCacheControl is the Cache-Control of objects when
// S3Options.CacheControl is empty: a CDN or browser revalidates within
// five minutes, so a new index is seen soon after it is published.
const DefaultCacheControl = "public, max-age=300"

// S3Store keeps files as the objects of one prefix of an S3 bucket
// (Amazon S3 or any service speaking its API). A file is written to a
// local temporary file (unlinked at once, so a killed run leaves nothing
// behind) and uploaded by Publish, under PREFIX + name, with its
// Content-Type (application/xml for .xml, application/gzip for .gz,
// text/xsl for .xsl, text/plain for .txt; never a Content-Encoding: a
// .xml.gz file is served as the gzip file it is) and Cache-Control.
//
// S3 has no rename: Publish uploads every file but the last one
// concurrently, and the last one (the index of a set of sitemaps) only
// when all the others are complete; then it deletes the names of
// p.Remove. A run killed at any point thus leaves the published index
// listing complete objects only. Objects a killed run uploaded but never
// listed are removed by the next run of the same set (package build
// removes the names of its set that the live index does not list).
// Publications with a journal are refused: an object store cannot make
// several uploads all-or-nothing. There is no lock: two runs writing the
// same names into one prefix at once are not kept apart.
type S3Store struct {
	c       *s3.Client
	bucket  string
	prefix  string // "" or ending in "/"
	cache   string
	tempDir string
}

// IsS3 reports whether name is an s3:// URL.
func IsS3(name string) bool { return strings.HasPrefix(name, "s3://") }

// ParseS3 splits "s3://bucket/prefix" into the bucket and the prefix of
// the keys, which is empty or ends in "/".
func ParseS3(name string) (bucket, prefix string, err error) {
	rest, ok := strings.CutPrefix(name, "s3://")
	if !ok {
		return "", "", fmt.Errorf("store: %q is not an s3:// URL; use s3://bucket/prefix", name)
	}
	bucket, prefix, _ = strings.Cut(rest, "/")
	if bucket == "" || strings.ContainsAny(bucket, "?#\\ ") {
		return "", "", fmt.Errorf("store: %q has no valid bucket name; use s3://bucket/prefix", name)
	}
	if prefix != "" && !strings.HasSuffix(prefix, "/") {
		prefix += "/"
	}
	if strings.HasPrefix(prefix, "/") || strings.Contains(prefix, "//") {
		return "", "", fmt.Errorf("store: %q has an empty path segment; use s3://bucket/prefix", name)
	}
	return bucket, prefix, nil
}

// S3 returns a store for the objects under "s3://bucket/prefix" (the
// prefix may be empty). It sends no request: a wrong bucket or key shows
// at the first read or write.
func S3(location string, o S3Options) (*S3Store, error) {
	bucket, prefix, err := ParseS3(location)
	if err != nil {
		return nil, err
	}
	c, err := NewS3Client(o)
	if err != nil {
		return nil, err
	}
	s := &S3Store{c: c, bucket: bucket, prefix: prefix, cache: o.CacheControl, tempDir: o.TempDir}
	if s.cache == "" {
		s.cache = DefaultCacheControl
	}
	return s, nil
}

// NewS3Client returns the S3 client the store uses, configured from o and
// the environment as S3Options says.
func NewS3Client(o S3Options) (*s3.Client, error) {
	getenv := o.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	first := func(v ...string) string {
		for _, s := range v {
			if s != "" {
				return s
			}
		}
		return ""
	}
	endpoint := first(o.Endpoint, getenv("AWS_ENDPOINT_URL_S3"), getenv("AWS_ENDPOINT_URL"))
	region := first(o.Region, getenv("AWS_REGION"), getenv("AWS_DEFAULT_REGION"), "us-east-1")
	key := first(o.AccessKeyID, getenv("AWS_ACCESS_KEY_ID"))
	secret := first(o.SecretAccessKey, getenv("AWS_SECRET_ACCESS_KEY"))
	token := first(o.SessionToken, getenv("AWS_SESSION_TOKEN"))
	if (key == "") != (secret == "") {
		return nil, errors.New("store: S3 credentials need both AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or neither, for a public bucket)")
	}
	opts := s3.Options{
		Region: region,
		// Checksums only when an operation requires one: S3-compatible
		// services do not all accept the streamed trailers of the default.
		RequestChecksumCalculation: aws.RequestChecksumCalculationWhenRequired,
		ResponseChecksumValidation: aws.ResponseChecksumValidationWhenRequired,
		RetryMaxAttempts:           5,
	}
	if o.HTTPClient != nil {
		opts.HTTPClient = o.HTTPClient
	}
	if endpoint != "" {
		u, err := url.Parse(endpoint)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, fmt.Errorf("store: S3 endpoint %q is not an http(s) URL; use http://host:port", endpoint)
		}
		opts.BaseEndpoint = aws.String(endpoint)
		opts.UsePathStyle = true
	}
	if key != "" {
		opts.Credentials = aws.CredentialsProviderFunc(func(context.Context) (aws.Credentials, error) {
			return aws.Credentials{AccessKeyID: key, SecretAccessKey: secret, SessionToken: token, Source: "sitemap"}, nil
		})
	} else {
		opts.Credentials = aws.AnonymousCredentials{}
	}
	return s3.New(opts), nil
}

// Location returns "s3://bucket/prefix".
func (s *S3Store) Location() string { return "s3://" + s.bucket + "/" + s.prefix }

// Key returns the object key of name.
func (s *S3Store) Key(name string) string { return s.prefix + name }

// contentType is the Content-Type of an object by its name.
func contentType(name string) string {
	switch {
	case strings.HasSuffix(name, ".gz"):
		return "application/gzip"
	case strings.HasSuffix(name, ".xml"):
		return "application/xml"
	case strings.HasSuffix(name, ".xsl"):
		return "text/xsl"
	case strings.HasSuffix(name, ".txt"):
		return "text/plain; charset=utf-8"
	case strings.HasSuffix(name, ".json"):
		return "application/json"
	}
	return "application/octet-stream"
}

type s3File struct {
	s     *S3Store
	name  string
	f     *os.File
	n     int64
	state int // 0 open, 1 committed, 2 aborted/published
}

// Create implements Store.
func (s *S3Store) Create(ctx context.Context, name string) (File, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := checkName(name); err != nil {
		return nil, err
	}
	f, err := os.CreateTemp(s.tempDir, "sitemap-s3-*")
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	// Unlinked at once: the open file is all that is needed, and a killed
	// run leaves nothing in the temporary directory.
	os.Remove(f.Name())
	return &s3File{s: s, name: name, f: f}, nil
}

func (f *s3File) Name() string { return f.name }

// Rename implements Renamer: nothing is uploaded before Publish.
func (f *s3File) Rename(name string) error {
	if f.state == 2 {
		return ErrClosed
	}
	if err := checkName(name); err != nil {
		return err
	}
	f.name = name
	return nil
}

func (f *s3File) Write(p []byte) (int, error) {
	if f.state != 0 {
		return 0, ErrClosed
	}
	n, err := f.f.Write(p)
	f.n += int64(n)
	return n, err
}

func (f *s3File) Commit() error {
	if f.state != 0 {
		return ErrClosed
	}
	f.state = 1
	return nil
}

func (f *s3File) Abort() error {
	if f.state == 2 {
		return nil
	}
	f.state = 2
	return f.f.Close()
}

// upload puts the file's bytes under its key.
func (f *s3File) upload(ctx context.Context) error {
	_, err := f.s.c.PutObject(ctx, &s3.PutObjectInput{
		Bucket:        aws.String(f.s.bucket),
		Key:           aws.String(f.s.Key(f.name)),
		Body:          io.NewSectionReader(f.f, 0, f.n),
		ContentLength: aws.Int64(f.n),
		ContentType:   aws.String(contentType(f.name)),
		CacheControl:  aws.String(f.s.cache),
	})
	if err != nil {
		return fmt.Errorf("store: uploading %s to %s: %w", f.name, f.s.Location(), explain(err))
	}
	return nil
}

// maxUploads is how many files Publish uploads at once.
const maxUploads = 8

// Publish implements Store: every file but the last uploaded concurrently,
// then the last, then p.Remove deleted. A failed upload stops it before
// the last file is uploaded.
func (s *S3Store) Publish(ctx context.Context, p Publication) error {
	if p.Journal != "" {
		return errors.New("store: an S3 store cannot publish all-or-nothing (journal); publish in order")
	}
	files := make([]*s3File, len(p.Files))
	names := make(map[string]bool, len(p.Files))
	for i, f := range p.Files {
		sf, ok := f.(*s3File)
		if !ok || sf.s != s {
			return fmt.Errorf("store: file %q does not belong to this store", f.Name())
		}
		if sf.state != 1 {
			return fmt.Errorf("%w: %s", ErrNotCommitted, sf.name)
		}
		if names[sf.name] {
			return fmt.Errorf("store: %s published twice", sf.name)
		}
		names[sf.name] = true
		files[i] = sf
	}
	for _, r := range p.Remove {
		if err := checkName(r); err != nil {
			return err
		}
	}
	if len(files) > 0 {
		if err := s.uploadAll(ctx, files[:len(files)-1]); err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		last := files[len(files)-1]
		if err := last.upload(ctx); err != nil {
			return err
		}
		last.state = 2
		last.f.Close()
	}
	var remove []string
	for _, r := range p.Remove {
		if !names[r] {
			remove = append(remove, r)
		}
	}
	return s.removeAll(ctx, remove)
}

// uploadAll uploads files, maxUploads at a time; the first error stops
// the ones not yet started and is returned.
func (s *S3Store) uploadAll(ctx context.Context, files []*s3File) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		first error
	)
	sem := make(chan struct{}, maxUploads)
	for _, f := range files {
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
		wg.Add(1)
		go func(f *s3File) {
			defer func() { <-sem; wg.Done() }()
			if err := f.upload(ctx); err != nil {
				mu.Lock()
				if first == nil {
					first = err
				}
				mu.Unlock()
				cancel()
				return
			}
			f.state = 2
			f.f.Close()
		}(f)
	}
	wg.Wait()
	if first != nil {
		return first
	}
	return ctx.Err()
}

// removeAll deletes names, up to 1,000 per request.
func (s *S3Store) removeAll(ctx context.Context, names []string) error {
	for len(names) > 0 {
		n := min(len(names), 1000)
		objs := make([]types.ObjectIdentifier, n)
		for i, name := range names[:n] {
			objs[i] = types.ObjectIdentifier{Key: aws.String(s.Key(name))}
		}
		out, err := s.c.DeleteObjects(ctx, &s3.DeleteObjectsInput{
			Bucket: aws.String(s.bucket),
			Delete: &types.Delete{Objects: objs, Quiet: aws.Bool(true)},
		})
		if err != nil {
			return fmt.Errorf("store: removing from %s: %w", s.Location(), explain(err))
		}
		if len(out.Errors) > 0 {
			e := out.Errors[0]
			return fmt.Errorf("store: removing %s from %s: %s", aws.ToString(e.Key), s.Location(), aws.ToString(e.Message))
		}
		names = names[n:]
	}
	return nil
}

// Recover implements Store. The store never uploads a file before its
// publication, so a killed run left no temporary object; a journal is
// never written either.
func (s *S3Store) Recover(ctx context.Context, journal string, owns func(string) bool) error {
	return ctx.Err()
}

// Remove implements Store.
func (s *S3Store) Remove(ctx context.Context, name string) error {
	if err := checkName(name); err != nil {
		return err
	}
	_, err := s.c.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: aws.String(s.bucket), Key: aws.String(s.Key(name))})
	if err != nil && !isNotFound(err) {
		return fmt.Errorf("store: removing %s from %s: %w", name, s.Location(), explain(err))
	}
	return nil
}

// Open implements Store.
func (s *S3Store) Open(ctx context.Context, name string) (io.ReadCloser, error) {
	if err := checkName(name); err != nil {
		return nil, err
	}
	return s.OpenKey(ctx, s.Key(name))
}

// OpenKey reads the object key of the store's bucket (any key, not only
// one under the prefix). The error wraps fs.ErrNotExist when it is absent.
func (s *S3Store) OpenKey(ctx context.Context, key string) (io.ReadCloser, error) {
	out, err := s.c.GetObject(ctx, &s3.GetObjectInput{Bucket: aws.String(s.bucket), Key: aws.String(key)})
	if err != nil {
		if isNotFound(err) {
			return nil, fmt.Errorf("store: s3://%s/%s: %w", s.bucket, key, fs.ErrNotExist)
		}
		return nil, fmt.Errorf("store: reading s3://%s/%s: %w", s.bucket, key, explain(err))
	}
	return out.Body, nil
}

// List implements Store: the names directly under the prefix (keys with
// a further "/" are left out), sorted.
func (s *S3Store) List(ctx context.Context) ([]string, error) {
	var names []string
	p := s3.NewListObjectsV2Paginator(s.c, &s3.ListObjectsV2Input{
		Bucket:    aws.String(s.bucket),
		Prefix:    aws.String(s.prefix),
		Delimiter: aws.String("/"),
	})
	for p.HasMorePages() {
		out, err := p.NextPage(ctx)
		if err != nil {
			return nil, fmt.Errorf("store: listing %s: %w", s.Location(), explain(err))
		}
		for _, o := range out.Contents {
			n := strings.TrimPrefix(aws.ToString(o.Key), s.prefix)
			if n != "" && !strings.Contains(n, "/") {
				names = append(names, n)
			}
		}
	}
	slices.Sort(names)
	return names, nil
}

// isNotFound reports whether err is S3's answer for a missing key or bucket.
func isNotFound(err error) bool {
	var nk *types.NoSuchKey
	var nf *types.NotFound
	if errors.As(err, &nk) || errors.As(err, &nf) {
		return true
	}
	var ae smithy.APIError
	return errors.As(err, &ae) && (ae.ErrorCode() == "NoSuchKey" || ae.ErrorCode() == "NotFound")
}

// explain adds what to do to the S3 errors a user can fix.
func explain(err error) error {
	var ae smithy.APIError
	if !errors.As(err, &ae) {
		return err
	}
	switch ae.ErrorCode() {
	case "NoSuchBucket":
		return fmt.Errorf("%w (create the bucket first, or check the endpoint: AWS_ENDPOINT_URL)", err)
	case "AccessDenied", "InvalidAccessKeyId", "SignatureDoesNotMatch":
		return fmt.Errorf("%w (check AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_REGION)", err)
	}
	return err
}
