# The one command for tests is `make test` (docs/CONVENTIONS.md): it installs what
# the tests need when it is missing, then runs vet, staticcheck, the race-enabled tests
# (XSD conformance through xmllint included), and a short fuzz run of every
# fuzz target.

GO      ?= go
# staticcheck is taken from the module proxy at a pinned version (go run
# builds and caches it; go.mod stays free of tool dependencies).
STATICCHECK ?= $(GO) run honnef.co/go/tools/cmd/staticcheck@v0.8.2
# A count, not a duration: Go 1.26's fuzz coordinator can report a bogus
# "context deadline exceeded" failure when a -fuzztime duration runs out
# mid-run (golang/go#75804, fixed in Go 1.27); a count has no deadline.
FUZZTIME ?= 3000x
export SITEMAP_REQUIRE_XMLLINT = 1
export SITEMAP_REQUIRE_BROWSER = 1
export SITEMAP_REQUIRE_POSTGRES = 1
export SITEMAP_REQUIRE_MYSQL = 1
export SITEMAP_REQUIRE_S3 = 1
# The browser tests' screenshots are kept here (a plain go test writes them
# into each test's temporary directory, removed when it ends).
export SITEMAP_ARTIFACTS ?= $(CURDIR)/test-artifacts

.PHONY: all build test deps fmt vet staticcheck unit fuzz bench install clean

all: build

build:
	$(GO) build ./...

# A static binary (CGO_ENABLED=0: Go's own DNS resolver and user lookup, no
# dynamic loader) starts about a fifth faster than a cgo one.
install:
	CGO_ENABLED=0 $(GO) install ./cmd/sitemap

# deps installs the tools the tests shell out to: xmllint (libxml2-utils)
# for XSD conformance, Chromium for the browser tests, PostgreSQL for the
# state tests, MariaDB for the MySQL source tests and moto_server for the S3 store tests.
deps:
	@sh scripts/deps.sh

test: deps fmt vet staticcheck unit fuzz

# fmt fails when a Go file is not gofmt-formatted (and names the files).
fmt:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt -w these files:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...

staticcheck:
	$(STATICCHECK) ./...

unit:
	$(GO) test -race -count=1 -timeout 15m ./...

fuzz:
	@sh scripts/fuzz.sh $(FUZZTIME)

# bench runs the Go benchmarks and the peer comparisons under bench/.
bench:
	@sh bench/run.sh

clean:
	rm -rf bench/out
