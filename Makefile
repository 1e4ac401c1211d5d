# Makefile for acpgen.
#
# Build, generation and test targets (generate, test, check, bench, ...) go
# in the section below. The schema-pinning targets live at the bottom; they
# are the only ones that need node/npm and network access to the npm registry.

# ---------------------------------------------------------------------------
# Go targets
# ---------------------------------------------------------------------------

GO ?= go
FUZZTIME ?= 2m
# Each test binary's limit in make test: with an empty build cache,
# gen/pipeline's type checks of every published schema revision compile
# their dependencies first, which on a loaded 2-core machine passed go
# test's default of 10 minutes.
TESTTIMEOUT ?= 20m

# Regenerate generated/ from the pinned schema (the main job), with the API
# surface files under generated/api and the build-tag table in docs/generator.md.
.PHONY: generate
generate:
	@echo "== generating generated/ from the pinned schema"
	$(GO) run ./cmd/acpgen -out generated -tests
	@echo "== the API surface files and the build-tag table of docs/generator.md (type-checks each package under every build tag)"
	$(GO) run ./cmd/acpgen api -out generated/api -readme docs/generator.md generated/acpv1 generated/acpv2

# Fail, printing a diff, when generated/ is not what the generator makes.
.PHONY: check
check:
	$(GO) run ./cmd/acpgen -out generated -tests -check

# The unstable feature build tags, from the feature map; "unstable" enables them all.
FEATURE_TAGS := $(shell grep -o '"unstable_[a-z_]*"' schema/features.json | tr -d '"' | sort -u)

# The hand-written packages behind the unstable_mcp_over_acp tag (MCP over
# ACP on the Go MCP SDK, its example, and the composition matrix, whose
# client gives the agent an MCP tool): every file carries the tag, so the
# untagged runs skip them and the loop below tests them with the tags that
# enable the feature.
MCP_PKGS := ./acpmcp/... ./examples/mcp/... ./internal/composition/...

# The tests of acpconductor that the tag enables: its bridge of "acp" MCP
# servers for an agent that does not take them (the rest of the package
# runs untagged).
MCP_CONDUCTOR_TESTS := TestMCPBridge

# The tests of the generated packages that live outside generated/ (they
# need none of the packages' unexported names); they run under every tag
# set the generated packages do.
GENERATED_SUITES := ./internal/gentest/...

# The race detector, where cgo is there for it (a machine without a C
# compiler runs those tests without it).
RACE ?= $(shell [ "$$($(GO) env CGO_ENABLED)" = 1 ] && echo -race)

# Everything CI runs: the module downloads, formatting, vet and the tests,
# then the generated packages again with each feature tag alone, with all of
# them, and with the umbrella tag; the packages of MCP_PKGS run there too,
# under the tags that enable them, with the race detector where it can run.
# The tests that build modules with the go command run it offline
# (GOPROXY=off): go mod download and go list -m all put the modules of the
# build and the go.mod files of the module graph in the module cache for
# them first.
# make test installs the npm programs (interop, thirdparty) first, so their
# absence is a failure there, not the skip a plain go test ./... gives.
.PHONY: test
test: export ACPGEN_REQUIRE_NPM = 1
test: interop thirdparty haproxy chromium postgresql
	@echo "== go mod download and go list -m all: the modules of the build, and the go.mod files of its module graph, into the module cache for the tests that run the go command offline"
	$(GO) mod download
	$(GO) list -m all >/dev/null
	@echo "== gofmt"
	@unformatted=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$unformatted" ]; then echo "gofmt needed:"; echo "$$unformatted"; exit 1; fi
	@echo "== go vet"
	$(GO) vet ./...
	@echo "== go test ./... (the end-to-end tests build modules with the go command and run node: several minutes)"
	ACPGEN_REQUIRE_POSTGRES=$$($(HAVE_POSTGRES) && echo 1) $(GO) test -timeout $(TESTTIMEOUT) ./...
	@echo "== the generated packages with each feature tag, with all of them, and with the umbrella tag"
	@set -e; for tags in $(FEATURE_TAGS) $(shell echo $(FEATURE_TAGS) | tr ' ' ',') unstable; do \
		echo "== -tags $$tags"; \
		$(GO) vet -tags $$tags ./generated/... $(GENERATED_SUITES); \
		$(GO) test -tags $$tags ./generated/... $(GENERATED_SUITES); \
		case ",$$tags," in *,unstable_mcp_over_acp,*|*,unstable,*) \
			$(GO) vet -tags $$tags $(MCP_PKGS) ./acpconductor; \
			$(GO) test $(RACE) -tags $$tags $(MCP_PKGS); \
			$(GO) test $(RACE) -tags $$tags -run '$(MCP_CONDUCTOR_TESTS)' ./acpconductor;; \
		esac; \
	done
	@echo "== acpinspect with the umbrella tag, and its page in headless Chromium (acpinspect/browser, a module of its own); the browser test must run where make chromium could install it"
	$(GO) vet -tags unstable ./acpinspect/... ./cmd/acpinspect
	$(GO) test -tags unstable ./acpinspect/... ./cmd/acpinspect
	cd acpinspect/browser && $(GO) vet -tags unstable ./... && \
		ACPINSPECT_REQUIRE_BROWSER=$$([ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 && echo 1) \
		$(GO) test -tags unstable -timeout 10m ./...

# Install the pinned TypeScript SDK (interop/package-lock.json) for the tests
# that compare with it; without node those tests skip, so this does nothing.
.PHONY: interop
interop:
	@if command -v npm >/dev/null 2>&1; then \
		if ! cmp -s interop/package-lock.json interop/node_modules/.package-lock.json 2>/dev/null && \
		   ! [ interop/node_modules/.package-lock.json -nt interop/package-lock.json ]; then \
			echo "== installing the pinned TypeScript SDK (interop/package-lock.json) into interop/node_modules with npm ci,"; \
			echo "   for the tests that compare acpgen with it and drive the examples with it (needs the npm registry, once)"; \
			cd interop && npm ci --no-audit --no-fund; \
		fi; \
	else echo "npm not found: the tests against the TypeScript SDK will skip"; fi

# Install the pinned third-party ACP programs (interop/thirdparty/package-lock.json:
# codex-acp, an agent built on the Rust reference crate, with its binary for
# this platform, about 220 MB for linux-x64, and acpx, a command-line
# client) for the tests that run them in a sandbox with no network
# (acplaunch/codex_test.go, examples/internal/e2e/acpx_test.go); without npm those tests
# skip, so this does nothing. It is npm install --no-save, not npm ci: a
# dependency of acpx (@openclaw/fs-safe 0.12.0) names optional platform
# packages that were never published, which the lock file cannot list and
# npm ci takes for a lock out of sync; npm install installs the locked
# versions and leaves the lock file as it is. No install script runs.
.PHONY: thirdparty
thirdparty:
	@if command -v npm >/dev/null 2>&1; then \
		if ! cmp -s interop/thirdparty/package-lock.json interop/thirdparty/node_modules/.package-lock.json 2>/dev/null && \
		   ! [ interop/thirdparty/node_modules/.package-lock.json -nt interop/thirdparty/package-lock.json ]; then \
			echo "== installing the pinned third-party ACP programs (interop/thirdparty/package-lock.json) into interop/thirdparty/node_modules,"; \
			echo "   for the tests that run them with no network (needs the npm registry, once; about 220 MB)"; \
			cd interop/thirdparty && npm install --no-save --ignore-scripts --no-audit --no-fund; \
		fi; \
	else echo "npm not found: the tests of third-party ACP programs will skip"; fi

# Install HAProxy (Debian's haproxy) for the test that runs two examples/agent
# behind a load balancer (examples/internal/e2e/lb_test.go); as root with apt-get only,
# elsewhere that test skips and this says so.
.PHONY: haproxy
haproxy:
	@if ! command -v haproxy >/dev/null 2>&1; then \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
			echo "haproxy not found: installing Debian's haproxy for the load-balancer test (examples/internal/e2e/lb_test.go)"; \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq haproxy >/dev/null; \
		else echo "haproxy not found (and not root with apt-get): the load-balancer test will skip"; fi; \
	fi

# Install PostgreSQL (Debian's postgresql) for the tests of the Postgres
# session store (acpstore/pgstore, internal/pgtest): they start a throwaway
# server in a temporary directory. As root with apt-get only; elsewhere those
# tests skip and this says so. Where a server is installed, make test sets
# $ACPGEN_REQUIRE_POSTGRES, so that their skipping is a failure.
HAVE_POSTGRES = { command -v initdb || ls /usr/lib/postgresql/*/bin/initdb; } >/dev/null 2>&1
.PHONY: postgresql
postgresql:
	@if ! $(HAVE_POSTGRES); then \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
			echo "PostgreSQL not found: installing Debian's postgresql for the tests of the Postgres session store (acpstore/pgstore)"; \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null; \
		else echo "PostgreSQL not found (and not root with apt-get): the tests of the Postgres session store will skip"; fi; \
	fi

# Install Chromium (Debian's chromium) for the test that drives acpinspect's
# page in a headless browser (acpinspect/browser); as root with apt-get only,
# elsewhere that test skips and this says so.
.PHONY: chromium
chromium:
	@if ! command -v chromium >/dev/null 2>&1; then \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
			echo "chromium not found: installing Debian's chromium for the browser test of acpinspect (acpinspect/browser)"; \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
		else echo "chromium not found (and not root with apt-get): the browser test of acpinspect will skip"; fi; \
	fi

# The screenshots of docs/acpinspect.md, taken by the browser test.
.PHONY: screenshots
screenshots: chromium
	cd acpinspect/browser && $(GO) test -tags unstable -count 1 -run TestPage . -args -screenshots $(CURDIR)/docs/images

BENCHCOUNT ?= 6
BENCHTIME ?= 1s

# Benchmarks against github.com/coder/acp-go-sdk and encoding/json (bench/ is
# a module of its own, so the peer never becomes a dependency of acpgen).
# Each count runs every benchmark once, so that the contenders take turns
# and a change in the machine's load weighs on all of them alike.
.PHONY: bench
bench:
	cd bench && $(GO) test -c -o bench.test && for i in $$(seq $(BENCHCOUNT)); do \
		./bench.test -test.run '^$$' -test.bench . -test.benchmem -test.count 1 -test.benchtime $(BENCHTIME) || exit 1; \
	done | tee bench.out
	cd bench && $(GO) run golang.org/x/perf/cmd/benchstat@v0.0.0-20260908200009-22c9c6c9d4da bench.out
	cd bench && $(GO) run ./ratios < bench.out

SIZECOUNT ?= 3

# What a user compiles (bench/size): the compile CPU time of acpv1, in its
# default build and with -tags unstable, and of github.com/coder/acp-go-sdk,
# the first go vet of a minimal agent on each and the size of that agent's
# executable, with the ratios against the targets. Each of $(SIZECOUNT) counts
# compiles and vets each package once, the build cache bypassed for that
# package alone.
.PHONY: bench-size
bench-size:
	cd bench && $(GO) run ./size -count $(SIZECOUNT) -go $(GO)

NETCONNS ?= 1000
NETCOUNT ?= 1

# The network benchmarks (bench/network): $(NETCONNS) ACP connections to one
# agent over WebSocket and over Streamable HTTP, acpgen's against the
# TypeScript SDK's AcpServer (which needs node and `make interop`): memory
# per idle connection, notifications per second and p99 prompt round trip.
# Each run holds its connections for a few seconds; every step is bounded.
.PHONY: bench-net
bench-net: interop
	cd bench && $(GO) test ./network -run '^$$' -bench . -benchtime 3x -count $(NETCOUNT) -netconns $(NETCONNS) | tee network.out

# Run each fuzz target for $(FUZZTIME).
.PHONY: fuzz
fuzz:
	@set -e; for v in acpv1 acpv2; do \
		for target in FuzzSessionUpdate FuzzContentBlock FuzzDecodeMessage; do \
			$(GO) test ./internal/gentest/$${v}test -run '^$$' -fuzz "^$$target\$$" -fuzztime $(FUZZTIME); \
		done; \
		$(GO) test ./generated/$$v -run '^$$' -fuzz '^FuzzParseLine$$' -fuzztime $(FUZZTIME); \
	done
	$(GO) test ./gen/pipeline -run '^$$' -fuzz '^FuzzSchema$$' -fuzztime $(FUZZTIME)
	$(GO) test ./acprouter -run '^$$' -fuzz '^FuzzServe$$' -fuzztime $(FUZZTIME)
	$(GO) test -tags unstable_mcp_over_acp ./acpmcp -run '^$$' -fuzz '^FuzzEnvelope$$' -fuzztime $(FUZZTIME)
	$(GO) test -tags unstable ./acpinspect -run '^$$' -fuzz '^FuzzInspector$$' -fuzztime $(FUZZTIME)


# ---------------------------------------------------------------------------
# Upstream schema pinning (needs node + npm)
# ---------------------------------------------------------------------------

# Version of @agentclientprotocol/sdk whose schema files are pinned in schema/.
VERSION ?= 2.4.0

.PHONY: schema
schema:
	bash schema/refresh.sh $(VERSION)

# Every published schema layout, one archive (schema/testdata/revisions.tar.gz)
# for the tests that generate from each revision and compare revisions.
.PHONY: revisions-corpus
revisions-corpus:
	bash schema/revisions.sh schema/testdata/revisions.tar.gz
