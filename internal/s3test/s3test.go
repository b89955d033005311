// Package s3test gives tests an S3-compatible server: one moto_server per
// test binary, started on first use on a free port of 127.0.0.1, and a
// fresh bucket per test.
//
// Use it from a test package's TestMain:
//
//	func TestMain(m *testing.M) { s3test.Main(m) }
//
// and in a test:
//
//	loc, opts := s3test.Bucket(t) // "s3://s3test-…", store.S3Options for it
//	st, err := store.S3(loc+"/sitemaps", opts)
//
// or, for a test of the command, s3test.Env(t), which also sets the AWS_*
// environment variables for the test (not with t.Parallel).
//
// The server: when SITEMAP_TEST_S3_ENDPOINT holds a URL
// (http://127.0.0.1:9000), the tests use that service, with the credentials
// and region of AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_REGION; each
// test's bucket is emptied and removed when it ends. Otherwise the first call
// starts moto_server (Python's moto[server]) from PATH or ~/.pyenv/shims in its
// own process group, with a parent-death signal on Linux, and Main stops it
// after the tests. When no server can be had, the test is skipped, unless
// SITEMAP_REQUIRE_S3 is "1" (as `make test` sets it): then it fails, saying
// what to install. Nothing outside tests imports this package.
package s3test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"

	"github.com/sitemapkit/sitemap/internal/testproc"
	"github.com/sitemapkit/sitemap/store"
)

// Environment variables read by the package.
const (
	// EnvEndpoint points the tests at an existing service.
	EnvEndpoint = "SITEMAP_TEST_S3_ENDPOINT"
	// EnvRequire, when "1", turns a missing server into a failure.
	EnvRequire = "SITEMAP_REQUIRE_S3"
)

var (
	once     sync.Once
	srv      *server
	base     store.S3Options // endpoint, region and keys of the service
	external bool
	setErr   error
)

// Main runs the tests of m, stops the server if one was started, and exits
// with the tests' status.
func Main(m *testing.M) {
	code := m.Run()
	Stop()
	os.Exit(code)
}

// Stop stops the server started by this package, if any.
func Stop() {
	if srv != nil {
		srv.stop()
	}
}

// Bucket creates a new, empty bucket for t and returns its s3:// URL and
// the options that reach it. It skips t when no server can be had, or
// fails it when SITEMAP_REQUIRE_S3=1.
func Bucket(t testing.TB) (string, store.S3Options) {
	t.Helper()
	once.Do(setup)
	if setErr != nil {
		if os.Getenv(EnvRequire) == "1" {
			t.Fatalf("s3test: %v (%s=1)", setErr, EnvRequire)
		}
		t.Skipf("s3test: %v; set %s=http://… to use an existing service", setErr, EnvEndpoint)
	}
	name := "s3test-" + randomHex(8)
	c, err := store.NewS3Client(base)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if _, err := c.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: aws.String(name)}); err != nil {
		t.Fatalf("s3test: create bucket: %v", err)
	}
	if external {
		t.Cleanup(func() { dropBucket(t, c, name) })
	}
	return "s3://" + name, base
}

// Env is Bucket, and sets the AWS_* environment variables that reach the
// service for the rest of the test (t.Setenv: not for parallel tests).
func Env(t *testing.T) string {
	t.Helper()
	loc, o := Bucket(t)
	SetEnv(t, o)
	return loc
}

// SetEnv sets the AWS_* environment variables that reach the service of o
// (its endpoint, which may be a proxy in front of the test service) for
// the rest of the test.
func SetEnv(t *testing.T, o store.S3Options) {
	t.Helper()
	t.Setenv("AWS_ENDPOINT_URL", o.Endpoint)
	t.Setenv("AWS_ENDPOINT_URL_S3", "")
	t.Setenv("AWS_REGION", o.Region)
	t.Setenv("AWS_ACCESS_KEY_ID", o.AccessKeyID)
	t.Setenv("AWS_SECRET_ACCESS_KEY", o.SecretAccessKey)
	t.Setenv("AWS_SESSION_TOKEN", o.SessionToken)
}

// Client returns a client of the test service (to look at objects).
func Client(t testing.TB) *s3.Client {
	t.Helper()
	c, err := store.NewS3Client(base)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// dropBucket empties and removes a bucket of an existing service.
func dropBucket(t testing.TB, c *s3.Client, name string) {
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	p := s3.NewListObjectsV2Paginator(c, &s3.ListObjectsV2Input{Bucket: aws.String(name)})
	for p.HasMorePages() {
		out, err := p.NextPage(ctx)
		if err != nil {
			t.Logf("s3test: emptying %s: %v", name, err)
			return
		}
		var ids []types.ObjectIdentifier
		for _, o := range out.Contents {
			ids = append(ids, types.ObjectIdentifier{Key: o.Key})
		}
		if len(ids) > 0 {
			if _, err := c.DeleteObjects(ctx, &s3.DeleteObjectsInput{Bucket: aws.String(name), Delete: &types.Delete{Objects: ids}}); err != nil {
				t.Logf("s3test: emptying %s: %v", name, err)
				return
			}
		}
	}
	if _, err := c.DeleteBucket(ctx, &s3.DeleteBucketInput{Bucket: aws.String(name)}); err != nil {
		t.Logf("s3test: removing bucket %s: %v", name, err)
	}
}

func setup() {
	if ep := os.Getenv(EnvEndpoint); ep != "" {
		external = true
		base = store.S3Options{Endpoint: ep, Region: os.Getenv("AWS_REGION"),
			AccessKeyID: os.Getenv("AWS_ACCESS_KEY_ID"), SecretAccessKey: os.Getenv("AWS_SECRET_ACCESS_KEY"),
			SessionToken: os.Getenv("AWS_SESSION_TOKEN")}
		if base.Region == "" {
			base.Region = "us-east-1"
		}
		base.Getenv = func(string) string { return "" }
		return
	}
	s, err := start()
	if err != nil {
		setErr = err
		return
	}
	srv = s
	// moto accepts any credentials; the environment must not leak in.
	base = store.S3Options{Endpoint: s.url, Region: "us-east-1", AccessKeyID: "test", SecretAccessKey: "test",
		Getenv: func(string) string { return "" }}
}

// server is a moto_server started by this test binary.
type server struct {
	dir  string
	cmd  *exec.Cmd
	done chan struct{}
	url  string
}

const dirPrefix = "sitemap-s3test-"

var errMissing = errors.New("moto_server not found on PATH or in ~/.pyenv/shims; install it with `pip install 'moto[server]'` (or `make deps`)")

// motoPath finds moto_server.
func motoPath() (string, error) {
	if p, err := exec.LookPath("moto_server"); err == nil {
		return p, nil
	}
	if home, err := os.UserHomeDir(); err == nil {
		p := filepath.Join(home, ".pyenv", "shims", "moto_server")
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p, nil
		}
	}
	return "", errMissing
}

func start() (*server, error) {
	bin, err := motoPath()
	if err != nil {
		return nil, err
	}
	testproc.Sweep("", dirPrefix)
	dir, err := testproc.MkdirTemp("", dirPrefix)
	if err != nil {
		return nil, err
	}
	var lastErr error
	for attempt := 0; attempt < 5; attempt++ {
		port, err := testproc.FreePort()
		if err != nil {
			os.RemoveAll(dir)
			return nil, err
		}
		s := &server{dir: dir, done: make(chan struct{}), url: "http://127.0.0.1:" + strconv.Itoa(port)}
		logf, err := os.Create(filepath.Join(dir, "moto.log"))
		if err != nil {
			os.RemoveAll(dir)
			return nil, err
		}
		s.cmd = exec.Command(bin, "-H", "127.0.0.1", "-p", strconv.Itoa(port))
		s.cmd.SysProcAttr = testproc.Attr(nil)
		s.cmd.Dir = dir
		s.cmd.Stdout, s.cmd.Stderr = logf, logf
		if err := s.cmd.Start(); err != nil {
			logf.Close()
			os.RemoveAll(dir)
			return nil, fmt.Errorf("moto_server: %v", err)
		}
		logf.Close()
		go func() { s.cmd.Wait(); close(s.done) }()
		if err := s.wait(port); err != nil {
			s.kill()
			log, _ := os.ReadFile(filepath.Join(dir, "moto.log"))
			lastErr = fmt.Errorf("moto_server did not start: %v: %s", err, log)
			continue
		}
		return s, nil
	}
	os.RemoveAll(dir)
	return nil, lastErr
}

// wait waits until the server answers HTTP, or exits.
func (s *server) wait(port int) error {
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case <-s.done:
			return errors.New("moto_server exited")
		default:
		}
		if c, err := net.DialTimeout("tcp", "127.0.0.1:"+strconv.Itoa(port), time.Second); err == nil {
			c.Close()
			resp, err := http.Get(s.url + "/")
			if err == nil {
				resp.Body.Close()
				return nil
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	return errors.New("timed out after 60s")
}

func (s *server) stop() {
	s.kill()
	os.RemoveAll(s.dir)
}

func (s *server) kill() {
	if s.cmd.Process != nil {
		killGroup(s.cmd.Process.Pid)
		<-s.done
	}
}

func randomHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b)
}
