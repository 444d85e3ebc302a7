# ratelab: every command a learner, an instructor or CI needs. `make help`
# lists them.

GO ?= go
GOROOT := $(shell $(GO) env GOROOT)
EXE := $(shell $(GO) env GOEXE)
STATIC := web/static
GRADE_FLAGS ?=
EXERCISE ?=
MUTATE_FLAGS ?=

.DEFAULT_GOAL := help
.PHONY: help run serve grade test test-go test-race-beside check test-race lint lint-js generate check-generated editor npm-ci wasm lab-wasm labserver-bin test-wasm test-browser bench cross mutate

help: ## list the targets
	@awk 'BEGIN {FS = ":.*## "} /^[a-z-]+:.*## / {printf "  make %-16s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

# make run builds the server and the WebAssembly lab at once (each build
# leaves a core idle much of the time), then serves. The templ output and
# the API blocks are committed, so it does not regenerate them: after
# editing a .templ or a stub's API, run make generate (make test checks
# that they are current).
run: ## build the lab (the server and its WebAssembly, at once) and serve it at http://localhost:8080
	@$(MAKE) --no-print-directory -j2 lab-wasm labserver-bin
	.ratelab/bin/labserver$(EXE) serve

labserver-bin:
	$(GO) build -o .ratelab/bin/labserver$(EXE) ./cmd/labserver

serve: ## serve the lab as it is built (no templ or WebAssembly rebuild); SERVE_FLAGS="--addr :9090" and so on
	$(GO) run ./cmd/labserver serve $(SERVE_FLAGS)

grade: ## grade your exercises/ (GRADE_FLAGS="--exercise tokenbucket --watch" and so on)
	$(GO) run ./cmd/labserver grade $(GRADE_FLAGS)

# TIMED_TESTS are the tests that time code (benchmark budgets), found by
# their name's prefix, TestTimed, wherever they are: make test runs them
# alone, after everything else, so that nothing else shares the cores while
# they measure.
TIMED_TESTS := ^TestTimed
TIMED_PKGS := $(sort $(dir $(shell grep -rl --include='*_test.go' '^func TestTimed' .)))

# SLOW_TESTS are the packages whose tests take longest, slowest first.
SLOW_TESTS := ./grader ./internal/browsertest ./cmd/labserver ./grader/suite/throttle

test: ## everything: vet, gofmt, JavaScript types, generated code, unit, grader, WebAssembly, browser and race-detector tests
	@$(MAKE) --no-print-directory check-generated
	@# Then in three steps, each filling both cores: the checks that need
	@# no test binary and the WebAssembly build at once; every test at
	@# once, the race detector's beside the others; the timing tests alone.
	@$(MAKE) --no-print-directory -j3 lint lint-js wasm
	@$(MAKE) --no-print-directory -j3 test-wasm test-go test-race-beside
	$(GO) test -count=1 -timeout 15m -run '$(TIMED_TESTS)' $(TIMED_PKGS)

test-go:
	@# Three test binaries at a time (go test's default is one a core):
	@# the grader's fixture gradings, the browser tests' waits and the
	@# builds of the others fill the cores. The timeout is about three times the slowest package (the
	@# grader's) on a busy machine: a slow run names the test it was in.
	@# GOGC=200, as labserver sets for itself: the gradings take a fifth
	@# less CPU. The timed tests measure with Go's default.
	@# The slowest packages are named first: go test starts packages in the
	@# order given, so they start at once and the short ones fill the
	@# cores beside them, instead of one of them running alone at the end.
	GOGC=200 $(GO) test -p 3 -count=1 -timeout 30m -skip '$(TIMED_TESTS)' $(SLOW_TESTS) ./...

# test-race-beside is make test's race detector run: beside the other
# tests, its output held until it ends so that the two runs' lines do not
# mix. It needs a C compiler: without one it says so and skips, except in
# CI.
test-race-beside:
	@mkdir -p .ratelab
	@if ! command -v "$$($(GO) env CC)" >/dev/null 2>&1; then 		if [ "$${CI:-}" = true ]; then echo "no C compiler ($$($(GO) env CC)): CI must run the race detector (apt-get install gcc)"; exit 1; fi; 		echo "no C compiler ($$($(GO) env CC)): skipping the race detector's tests (install gcc to run them)"; 	elif $(MAKE) --no-print-directory test-race >.ratelab/race.log 2>&1; then 		echo "the race detector's tests:"; cat .ratelab/race.log; 	else 		echo "the race detector's tests FAILED:"; cat .ratelab/race.log; exit 1; 	fi

check: lint ## the inner loop: vet, gofmt and the short tests (no fixture gradings; the browser tests are make test's)
	GOGC=200 $(GO) test -short -count=1 -timeout 5m $$($(GO) list ./... | grep -v '^ratelab/internal/browsertest$$')

# RACE_FREE are the folders whose code, tests included, starts no goroutine
# and shares nothing (pure simulations, suites and references, called one
# call at a time): the race detector has nothing to find in them, and they
# are half of what it would cost. test-race fails if one of them starts
# to use goroutines, sync or sync/atomic, so that the list cannot go stale.
RACE_FREE := lab grader/suite solutions exercises
empty :=
space := $(empty) $(empty)

test-race: ## the short tests under the race detector, where there is concurrency (not RACE_FREE; not the browser tests: make test runs them; under -race they outgrow go test's 10 minutes)
	@found="$$(grep -rlE --include='*.go' '(^|[^a-zA-Z_.])go (func|[a-zA-Z_.]+\()|"sync"|"sync/atomic"' $(RACE_FREE))"; \
	if [ -n "$$found" ]; then echo "these files of RACE_FREE folders use goroutines or sync: take their folder out of RACE_FREE"; echo "$$found"; exit 1; fi
	CGO_ENABLED=1 GOGC=200 $(GO) test -race -short -count=1 -timeout 15m $$($(GO) list ./... | grep -vE '^ratelab/(internal/browsertest|$(subst $(space),|,$(RACE_FREE)))(/|$$)')

cross: ## build and vet everything for Windows and macOS, where learners grade too
	GOOS=windows GOARCH=amd64 $(GO) build ./...
	GOOS=windows GOARCH=amd64 $(GO) vet ./...
	GOOS=darwin GOARCH=arm64 $(GO) build ./...
	GOOS=darwin GOARCH=arm64 $(GO) vet ./...

lint: ## go vet, and gofmt must have nothing to say
	$(GO) vet ./...
	@out="$$(gofmt -l $$(git ls-files '*.go'; git ls-files --others --exclude-standard '*.go'))"; \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

lint-js: npm-ci ## type-check the visualizations' and the editor's JavaScript (tsc --noEmit, pinned in package.json; skipped without node and npm, except in CI)
	@if command -v npx >/dev/null 2>&1 && [ -d node_modules/typescript ]; then \
		echo 'npx tsc --noEmit -p tsconfig.json'; \
		npx --no-install tsc --noEmit -p tsconfig.json; \
	fi

# npm-ci brings node_modules up to package-lock.json (the TypeScript checker,
# axe-core, the editor's CodeMirror packages) when node and npm are here;
# without them it says so, and CI=true makes that an error.
npm-ci: ## bring node_modules up to package-lock.json (TypeScript, axe-core, CodeMirror); skipped without node and npm, except in CI
	@if command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1; then \
		[ node_modules/.package-lock.json -nt package-lock.json ] || npm ci --no-audit --no-fund --loglevel=error; \
	elif [ "$${CI:-}" = true ]; then \
		echo "node or npm not found: CI must type-check the JavaScript and rebuild the editor (apt-get install nodejs npm)"; exit 1; \
	else \
		echo "node or npm not found: skipping the JavaScript type check and the editor's bundle (apt-get install nodejs npm to run them)"; \
	fi

# EDITOR is the editor's bundle, committed: web/editor/*.js and its
# stylesheet with CodeMirror 6 (node_modules, as package-lock.json pins it),
# bundled and minified by esbuild run as a Go tool (go.mod's tool
# directive), so nothing but Go and npm ci is needed to rebuild it, and the
# same inputs give the same bytes. make generate rebuilds it only when
# node_modules has CodeMirror: make run needs Go alone.
EDITOR_OUT := web/static/editor
EDITOR_BANNER := Code generated by make editor (go tool esbuild web/editor, with the CodeMirror 6 packages of package-lock.json); DO NOT EDIT. CodeMirror and Lezer: MIT licence, (c) Marijn Haverbeke and others.

editor: ## rebuild the editor's bundle (web/static/editor) from web/editor and node_modules (npm ci first)
	@if [ ! -d node_modules/@codemirror/view ]; then \
		echo "node_modules has no CodeMirror: the committed editor bundle stays as it is (npm ci, then make editor, to rebuild it)"; \
		[ "$${REQUIRE_EDITOR:-}" != 1 ] || exit 1; \
	else \
		echo 'go tool esbuild web/editor/editor.js web/editor/editor.css --bundle --minify --outdir=$(EDITOR_OUT)'; \
		$(GO) tool esbuild web/editor/editor.js web/editor/editor.css --bundle --format=esm --minify --target=es2020 \
			--legal-comments=eof --charset=utf8 --log-level=warning \
			'--banner:js=// $(EDITOR_BANNER)' '--banner:css=/* $(EDITOR_BANNER) */' --outdir=$(EDITOR_OUT); \
	fi

generate: ## regenerate the templ components (*_templ.go), the exercise pages' API blocks (web/page/api_gen.go), the grader's list of suites (grader/suites_gen.go) and the suites' reference adapters (grader/suite/*/reference_gen.go), the stubs' Grading sections, the lists of exercises in CONTRIBUTING.md, README.md and classroom.yml, and the editor's bundle if node_modules has CodeMirror, all committed
	$(GO) tool templ generate
	$(GO) generate ./web/page ./grader
	$(GO) run ./internal/stubdoc/write
	$(GO) run ./internal/courselists/write
	@$(MAKE) --no-print-directory editor

check-generated: npm-ci ## fail if the committed generated files (the editor's bundle too: npm ci first) differ from what make generate writes
	@if command -v npm >/dev/null 2>&1; then $(MAKE) --no-print-directory generate REQUIRE_EDITOR=1; else $(MAKE) --no-print-directory generate; fi
	@git diff --exit-code -- '*_templ.go' web/page/api_gen.go grader/suites_gen.go && git diff --exit-code --stat -- $(EDITOR_OUT) && test -z "$$(git status --porcelain -- '*_templ.go' web/page/api_gen.go grader/suites_gen.go $(EDITOR_OUT))" \
		|| (echo "run 'make generate' and commit the generated files"; exit 1)

# The WebAssembly is three kinds of build of ./wasm (internal/weekbuild):
# week-N.wasm, one week's simulations with the reference only, which a
# lesson's page draws from; yours-week-N.wasm, the same with that week's
# exercises from exercises/ as "Yours", which it runs the learner's code
# from; and lab.wasm, every simulation with exercises/ as Yours, which the
# exercise pages replay counterexamples with. A Yours build whose exercises
# do not compile is built with the reference only, and says so.
#
# The server sends NAME.br (Brotli) or NAME.gz in place of each to a
# browser that accepts them, once it has checked that they hold the file
# served; precompress rewrites them only when the file changed. gzip takes
# a fraction of a second, Brotli up to 2 s: make run writes only the gzip
# copies (lab-wasm), and the server the Brotli ones in the background once
# it serves.
WASM_FILES = $(STATIC)/lab.wasm $(STATIC)/week-*.wasm $(STATIC)/yours-week-*.wasm

wasm: lab-wasm ## build the lab's WebAssembly (each week's, and lab.wasm), and its Brotli and gzip copies; a build whose exercises do not compile is built with the reference only
	$(GO) run ./internal/precompress/write -only br $(WASM_FILES)

lab-wasm:
	cp "$(GOROOT)/lib/wasm/wasm_exec.js" $(STATIC)/wasm_exec.js
	$(GO) run ./internal/weekbuild/write $(STATIC)
	$(GO) run ./internal/precompress/write -only gzip $(WASM_FILES)

# WASM_TESTS are the packages whose tests run compiled to WebAssembly too:
# the shell over syscall/js, which runs nowhere else, and lab/replay, whose
# replays the browser must compute exactly as the grader does. The rest of
# lab/ is plain Go, tested natively by make test.
WASM_TESTS := ./wasm/... ./lab/replay

test-wasm: ## run the wasm/ shell's and lab/replay's tests compiled to WebAssembly under Node (skipped without node, except in CI)
	@if command -v node >/dev/null 2>&1; then \
		echo 'GOOS=js GOARCH=wasm $(GO) test -count=1 -timeout 5m -exec go_js_wasm_exec $(WASM_TESTS)'; \
		GOOS=js GOARCH=wasm $(GO) test -count=1 -timeout 5m -exec "$(GOROOT)/lib/wasm/go_js_wasm_exec" $(WASM_TESTS); \
	elif [ "$${CI:-}" = true ]; then \
		echo "node not found: CI must run the WebAssembly tests (apt-get install nodejs)"; exit 1; \
	else \
		echo "node not found: skipping the WebAssembly tests (apt-get install nodejs to run them)"; \
	fi

test-browser: ## the browser tests alone, the lab's and class mode's (headless Chromium; skipped if it is not installed, unless RATELAB_REQUIRE_BROWSER=1), with their screenshots in .ratelab/screenshots (make test takes none)
	RATELAB_SCREENSHOTS=$(CURDIR)/.ratelab/screenshots $(GO) test -count=1 -timeout 15m -v ./internal/browsertest/
	RATELAB_SCREENSHOTS=$(CURDIR)/.ratelab/screenshots $(GO) test -count=1 -timeout 15m -v -run 'InBrowser' ./cmd/labserver/

bench: ## benchmark the reference solutions beside golang.org/x/time/rate (benchstat), then the grader's codec, the gradings of the references (calls, round trips, time), a learner's Yours build in class mode, the lab's WebAssembly size, each lesson's first frame and a save's way to the page in Chromium
	@mkdir -p .ratelab
	$(GO) test -run '^$$' -bench . -benchmem -count 6 -timeout 20m ./solutions/... | tee .ratelab/bench.txt
	$(GO) tool benchstat -col /impl .ratelab/bench.txt
	@echo; echo "x/time/rate AllowN vs ratelab TryAcquire (mean ns/op over the runs above; budget 40 ns):"
	@awk '/^pkg:/ { pkg = $$2; sub(/.*\//, "", pkg) } \
		/^Benchmark.*impl=/ { name = $$1; sub(/-[0-9]+$$/, "", name); impl = name; sub(/.*impl=/, "", impl); \
			base = pkg " " name; sub(/\/?impl=[a-z]+/, "", base); sum[base, impl] += $$3; n[base, impl]++; seen[base] = 1 } \
		END { for (b in seen) if (n[b, "ratelab"] && n[b, "xtimerate"]) { r = sum[b, "ratelab"] / n[b, "ratelab"]; x = sum[b, "xtimerate"] / n[b, "xtimerate"]; \
			printf "  %-46s ratelab %6.2f ns  x/time/rate %6.2f ns  ratio %5.1fx\n", b, r, x, x / r } }' .ratelab/bench.txt | sort
	@echo; echo "the grader-child protocol's codec: a call's result and a call's arguments, encoded and decoded, as every call of a grading is"
	$(GO) test -run '^$$' -bench RoundTrip -benchmem -count 6 ./grader/wire | tee .ratelab/wirebench.txt
	$(GO) tool benchstat .ratelab/wirebench.txt
	@echo
	$(GO) run ./cmd/gradebench -runs 5 -bench | tee .ratelab/gradebench.txt
	@echo; echo "a learner's Yours in class mode: the lab's WebAssembly built with new code in the sandbox (week 1's build, what its lesson runs; every week's, what a Replay runs), then its gzip and Brotli copies (ms, bytes); load: $$(cat /proc/loadavg 2>/dev/null || echo unknown)"
	$(GO) test -run '^$$' -bench YoursBuild -benchtime 3x -count 3 -timeout 20m ./grader/build 2>/dev/null | tee .ratelab/yoursbench.txt
	$(GO) tool benchstat .ratelab/yoursbench.txt
	@echo; echo "the lab's WebAssembly, raw, gzip and Brotli (bytes): lab.wasm (every simulation and Yours: a replay loads it), each week's reference build (what its lesson draws from), then each week's Yours build (what its lesson runs Yours from)"
	@$(MAKE) --no-print-directory wasm >/dev/null && for f in $(WASM_FILES); do wc -c $$f $$f.gz $$f.br | sed '$$d'; done
	@echo; echo "each lesson's first frame, cache empty (ms from navigation start), its bytes on the wire and its WebAssembly's share, in Chromium; load: $$(cat /proc/loadavg 2>/dev/null || echo unknown)"
	$(GO) test -run '^$$' -bench LessonFirstFrame -benchtime 3x -count 3 -timeout 20m ./internal/browsertest | tee .ratelab/pagebench.txt
	$(GO) tool benchstat .ratelab/pagebench.txt
	@echo; echo "the live loop, from saving exercises/tokenbucket (the reference, new each time) to the page: the first check shown, the grade, the grade with the benchmarks (ms), in Chromium; load: $$(cat /proc/loadavg 2>/dev/null || echo unknown)"
	$(GO) test -run '^$$' -bench SaveToPage -benchtime 4x -count 3 -timeout 20m ./internal/browsertest 2>/dev/null | tee .ratelab/savebench.txt
	$(GO) tool benchstat .ratelab/savebench.txt

mutate: ## the suites' mutation score: grade mutants of solutions/, hunt those that live (EXERCISE=tokenbucket for one; MUTATE_FLAGS="--full" and so on)
	$(GO) run ./cmd/labserver mutate $(if $(EXERCISE),--exercise $(EXERCISE)) $(MUTATE_FLAGS)
