package yours_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/andybalholm/brotli"

	"ratelab/grader/build"
	"ratelab/grader/buildcache"
	"ratelab/grader/sandbox"
	"ratelab/internal/yours"
)

func root(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// code is a learner's token bucket whose one line is line.
func code(line string) map[string]map[string][]byte {
	return map[string]map[string][]byte{"tokenbucket": {"tokenbucket.go": []byte("package tokenbucket\n\n// " + line + "\n")}}
}

// fake is a class whose learners' code is set by the test, built by a
// stand-in compiler that counts its builds.
type fake struct {
	mu     sync.Mutex
	code   map[int64]map[string]map[string][]byte
	built  []string // the first line of each build's tokenbucket.go comment
	fail   string   // the compiler's lines, if builds fail
	size   int      // the size of what builds write, if not 0
	hold   chan struct{}
	labs   []*build.Lab
	builds *yours.Builds
	cache  *buildcache.Cache
}

func newFake(t *testing.T, sb *sandbox.Sandbox) *fake {
	t.Helper()
	return newFakeWith(t, sb, nil)
}

// newFakeWith is newFake with the builds' Config changed by change first.
func newFakeWith(t *testing.T, sb *sandbox.Sandbox, change func(*yours.Config)) *fake {
	t.Helper()
	cache, err := buildcache.Open(t.TempDir(), 0)
	if err != nil {
		t.Fatal(err)
	}
	f := &fake{code: map[int64]map[string]map[string][]byte{}, cache: cache}
	cfg := yours.Config{
		Root: root(t), Cache: cache, Sandbox: sb, TempDir: t.TempDir(), Log: slog.New(slog.DiscardHandler),
		Sources: func(_ context.Context, user int64) (map[string]map[string][]byte, error) {
			f.mu.Lock()
			defer f.mu.Unlock()
			return f.code[user], nil
		},
	}
	if change != nil {
		change(&cfg)
	}
	f.builds = yours.New(yours.WithBuild(cfg, func(lb *build.Lab, ctx context.Context, out string) error {
		f.mu.Lock()
		hold := f.hold
		f.built = append(f.built, string(lb.Files["tokenbucket"]["tokenbucket.go"]))
		f.labs = append(f.labs, lb)
		fail, size := f.fail, f.size
		f.mu.Unlock()
		if hold != nil {
			select {
			case <-hold:
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		if fail != "" {
			return &build.Error{Lines: fail}
		}
		if size > 0 {
			return os.WriteFile(out, make([]byte, size), 0o644)
		}
		return os.WriteFile(out, append([]byte("\x00asm"), bytes.Repeat(lb.Files["tokenbucket"]["tokenbucket.go"], 100)...), 0o644)
	}))
	t.Cleanup(f.builds.Stop)
	return f
}

func (f *fake) set(user int64, c map[string]map[string][]byte) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.code[user] = c
}

func (f *fake) want(t *testing.T, user int64) yours.Status {
	t.Helper()
	st, err := f.builds.Want(t.Context(), user, 0)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// settled asks for the learner's build, waits for the builds, and returns
// the build's state then.
func (f *fake) settled(t *testing.T, user int64) yours.Status {
	t.Helper()
	f.want(t, user)
	f.wait(t)
	return f.want(t, user)
}

func (f *fake) wait(t *testing.T) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	if err := f.builds.Wait(ctx); err != nil {
		t.Fatal(err)
	}
}

func (f *fake) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.built)
}

func TestIdenticalCodeBuildsOnce(t *testing.T) {
	f := newFake(t, nil)
	f.hold = make(chan struct{}) // the build does not end before both have asked
	f.set(1, code("same"))
	f.set(2, code("same"))
	a, b := f.want(t, 1), f.want(t, 2)
	if a.State != yours.Building || b.State != yours.Building || a.Key != b.Key {
		t.Fatalf("two learners with the same code: %+v and %+v; want one build of one key, building", a, b)
	}
	f.mu.Lock()
	close(f.hold)
	f.hold = nil
	f.mu.Unlock()
	f.wait(t)
	if a, b = f.want(t, 1), f.want(t, 2); a.State != yours.Ready || b.State != yours.Ready {
		t.Fatalf("after the build: %+v and %+v; want both ready", a, b)
	}
	if n := f.count(); n != 1 {
		t.Errorf("identical code built %d times, want once", n)
	}
	raw, enc, ok := readBuild(f.builds, a.Key)
	if !ok || enc != "" || !bytes.HasPrefix(raw, []byte("\x00asm")) {
		t.Fatalf("Open(%s) = %d bytes, encoding %q, %v; want the build", a.Key, len(raw), enc, ok)
	}
	zipped, enc, ok := readBuild(f.builds, a.Key, "gzip")
	if !ok || enc != "gzip" {
		t.Fatalf("Open(%s, gzip) = encoding %q, %v; want the gzip copy", a.Key, enc, ok)
	}
	zr, err := gzip.NewReader(bytes.NewReader(zipped))
	if err != nil {
		t.Fatal(err)
	}
	if un, err := io.ReadAll(zr); err != nil || !bytes.Equal(un, raw) {
		t.Errorf("the gzip copy does not decode to the build (%v)", err)
	}
	// The Brotli copy, written after the build was ready (Wait waited for
	// it), is preferred where both are accepted.
	squeezed, enc, ok := readBuild(f.builds, a.Key, "gzip", "br")
	if !ok || enc != "br" {
		t.Fatalf("Open(%s, br or gzip) = encoding %q, %v; want the Brotli copy", a.Key, enc, ok)
	}
	if un, err := io.ReadAll(brotli.NewReader(bytes.NewReader(squeezed))); err != nil || !bytes.Equal(un, raw) {
		t.Errorf("the Brotli copy does not decode to the build (%v)", err)
	}

	// Other code builds again; the first stays kept.
	f.set(2, code("other"))
	if c := f.want(t, 2); c.State != yours.Building || c.Key == a.Key {
		t.Fatalf("new code: %+v; want a build of another key", c)
	}
	f.wait(t)
	if c := f.want(t, 2); c.State != yours.Ready {
		t.Errorf("new code after its build: %+v", c)
	}
	if a := f.want(t, 1); a.State != yours.Ready {
		t.Errorf("the first learner's build after another's: %+v", a)
	}
	if n := f.count(); n != 2 {
		t.Errorf("%d builds, want 2", n)
	}
	if _, _, ok := readBuild(f.builds, "not-a-key"); ok {
		t.Error("Wasm of a name that is no key served something")
	}
}

func TestFailingBuildReportsTheCompilersLines(t *testing.T) {
	f := newFake(t, nil)
	// Lines that tie no exercise's file (the lab's own code, calling the
	// learner's): the build fails whole.
	f.fail = "wasm/yours.go:18:11: undefined: tokenbucket.New"
	f.set(1, code("broken"))
	f.want(t, 1)
	f.wait(t)
	for range 2 {
		if st := f.want(t, 1); st.State != yours.Failed || st.Error != f.fail {
			t.Fatalf("a build that does not compile: %+v; want failed with the compiler's lines", st)
		}
	}
	if n := f.count(); n != 1 {
		t.Errorf("code that does not build was built %d times, want once", n)
	}
}

// A learner's newer code replaces their build still waiting for its turn:
// the older is never built.
func TestNewerCodeReplacesAWaitingBuild(t *testing.T) {
	f := newFake(t, nil)
	f.hold = make(chan struct{})
	f.set(1, code("first learner"))
	f.want(t, 1) // takes the one slot, held
	for deadline := time.Now().Add(time.Minute); f.count() == 0; {
		if time.Now().After(deadline) {
			t.Fatal("the first build never started")
		}
		time.Sleep(5 * time.Millisecond)
	}
	f.set(2, code("second, old"))
	f.want(t, 2) // waits
	f.set(2, code("second, new"))
	f.want(t, 2) // replaces it
	f.mu.Lock()
	close(f.hold)
	f.hold = nil
	f.mu.Unlock()
	f.wait(t)
	got := strings.Join(f.built, "|")
	if strings.Contains(got, "old") || !strings.Contains(got, "second, new") {
		t.Errorf("built %q; want the first learner's and the second's new code, not their old", got)
	}
	if st := f.want(t, 2); st.State != yours.Ready {
		t.Errorf("the second learner's new code: %+v", st)
	}
}

// Stop ends a build that is running and one still waiting for its turn,
// and returns: a waiting build dropped by Stop leaves no job for Wait to
// wait on again.
func TestStopEndsWaitingBuilds(t *testing.T) {
	f := newFake(t, nil)
	f.hold = make(chan struct{}) // never closed: only Stop ends the first build
	f.set(1, code("first learner"))
	f.want(t, 1) // takes the one slot, held
	for deadline := time.Now().Add(time.Minute); f.count() == 0; {
		if time.Now().After(deadline) {
			t.Fatal("the first build never started")
		}
		time.Sleep(5 * time.Millisecond)
	}
	f.set(2, code("second learner"))
	f.want(t, 2) // waits for the slot
	stopped := make(chan struct{})
	go func() {
		f.builds.Stop()
		close(stopped)
	}()
	select {
	case <-stopped:
	case <-time.After(time.Minute): // a hang, not a slow machine: Stop only cancels and waits
		t.Fatal("Stop did not return within a minute with a build waiting for its turn")
	}
}

// Builds are confined by the class's sandbox.
func TestBuildsUseTheSandbox(t *testing.T) {
	sb := &sandbox.Sandbox{Log: t.Logf}
	f := newFake(t, sb)
	f.set(1, code("confined"))
	f.want(t, 1)
	f.wait(t)
	if len(f.labs) != 1 || f.labs[0].Sandbox != sb {
		t.Fatalf("the build ran with sandbox %v, want the class's", f.labs)
	}
}

// The real build, confined: cold, then cached for a second learner with
// the same code.
func TestRealBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the lab's WebAssembly")
	}
	cache, err := buildcache.Open(t.TempDir(), 0)
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(filepath.Join(root(t), "solutions", "tokenbucket", "tokenbucket.go"))
	if err != nil {
		t.Fatal(err)
	}
	c := map[string]map[string][]byte{"tokenbucket": {"tokenbucket.go": append(src, "\n// TestRealBuild\n"...)}}
	b := yours.New(yours.Config{Root: root(t), Cache: cache, Sandbox: &sandbox.Sandbox{Log: t.Logf}, TempDir: t.TempDir(),
		Sources: func(context.Context, int64) (map[string]map[string][]byte, error) { return c, nil }})
	t.Cleanup(b.Stop)
	start := time.Now()
	if st, err := b.Want(t.Context(), 1, 0); err != nil || st.State != yours.Building {
		t.Fatalf("Want = %+v, %v", st, err)
	}
	if err := b.Wait(t.Context()); err != nil {
		t.Fatal(err)
	}
	t.Logf("built in %s", time.Since(start))
	start = time.Now()
	st, err := b.Want(t.Context(), 2, 0)
	if err != nil || st.State != yours.Ready {
		t.Fatalf("a second learner with the same code: %+v, %v; want ready at once", st, err)
	}
	t.Logf("ready for a second learner in %s", time.Since(start))
	raw, _, ok := readBuild(b, st.Key)
	gz, _, _ := readBuild(b, st.Key, "gzip")
	br, _, _ := readBuild(b, st.Key, "br")
	if !ok || !bytes.HasPrefix(raw, []byte("\x00asm")) {
		t.Fatalf("the build is %d bytes, not WebAssembly", len(raw))
	}
	t.Logf("%d bytes, %d gzipped, %d in Brotli", len(raw), len(gz), len(br))
	if s := cache.Stats(); s.Puts != 3 {
		t.Errorf("the cache stored %d entries, want 3 (the build, its gzip and its Brotli copies)", s.Puts)
	}
}

// An exercise whose code does not build for the browser runs as its stub;
// the learner's other code still runs, and the build says why.
func TestCodeThatDoesNotBuildForTheBrowserRunsAsItsStub(t *testing.T) {
	cache, err := buildcache.Open(t.TempDir(), 0)
	if err != nil {
		t.Fatal(err)
	}
	c := code("fine")
	c["gcra"] = map[string][]byte{"broken_js.go": []byte("package gcra\n")}
	var mu sync.Mutex
	var built [][]string
	b := yours.New(yours.WithBuild(yours.Config{Root: root(t), Cache: cache, TempDir: t.TempDir(),
		Sources: func(context.Context, int64) (map[string]map[string][]byte, error) { return c, nil },
	}, func(lb *build.Lab, _ context.Context, out string) error {
		mu.Lock()
		var ids []string
		for id := range lb.Files {
			ids = append(ids, id)
		}
		built = append(built, ids)
		mu.Unlock()
		if _, ok := lb.Files["gcra"]; ok {
			return &build.Error{Lines: "gcra/broken_js.go:3:18: cannot use \"not an int\" as int value"}
		}
		return os.WriteFile(out, []byte("\x00asm"), 0o644)
	}))
	t.Cleanup(b.Stop)
	b.Want(t.Context(), 1, 0)
	if err := b.Wait(t.Context()); err != nil {
		t.Fatal(err)
	}
	st, err := b.Want(t.Context(), 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	if st.State != yours.Ready || !strings.Contains(st.Note, "stub of gcra") || !strings.Contains(st.Note, "gcra/broken_js.go:3:18") {
		t.Errorf("a build with gcra's code broken for the browser: %+v; want ready, with a note naming gcra and the compiler's line", st)
	}
	if len(built) != 2 || len(built[1]) != 1 || built[1][0] != "tokenbucket" {
		t.Errorf("builds of %v; want all, then all but gcra", built)
	}

	// Lines that name no exercise's file fail the build.
	c = code("other")
	b2 := yours.New(yours.WithBuild(yours.Config{Root: root(t), Cache: cache, TempDir: t.TempDir(),
		Sources: func(context.Context, int64) (map[string]map[string][]byte, error) { return c, nil },
	}, func(*build.Lab, context.Context, string) error {
		return &build.Error{Lines: "wasm/main_js.go:1: something of the lab's"}
	}))
	t.Cleanup(b2.Stop)
	b2.Want(t.Context(), 1, 0)
	b2.Wait(t.Context())
	if st, _ := b2.Want(t.Context(), 1, 0); st.State != yours.Failed || st.Error != "wasm/main_js.go:1: something of the lab's" {
		t.Errorf("a build failing in no exercise's file: %+v; want failed with the lines", st)
	}
}

// New removes the build folders a killed server left, and nothing else;
// a build leaves nothing behind.
func TestLeftoverFoldersAreSwept(t *testing.T) {
	dir := t.TempDir()
	old := time.Now().Add(-2 * time.Hour)
	for _, name := range []string{"ratelab-yours-left", "ratelab-yours-fresh", "someone-else"} {
		if err := os.Mkdir(filepath.Join(dir, name), 0o700); err != nil {
			t.Fatal(err)
		}
		if name != "ratelab-yours-fresh" {
			os.Chtimes(filepath.Join(dir, name), old, old)
		}
	}
	cache, err := buildcache.Open(t.TempDir(), 0)
	if err != nil {
		t.Fatal(err)
	}
	b := yours.New(yours.WithBuild(yours.Config{Root: root(t), Cache: cache, TempDir: dir, Log: slog.New(slog.DiscardHandler),
		Sources: func(context.Context, int64) (map[string]map[string][]byte, error) { return code("swept"), nil },
	}, func(lb *build.Lab, _ context.Context, out string) error {
		if filepath.Dir(lb.TempDir) != dir {
			t.Errorf("the build works in %s, not in a folder of the builds' %s", lb.TempDir, dir)
		}
		return os.WriteFile(out, []byte("\x00asm"), 0o644)
	}))
	t.Cleanup(b.Stop)
	b.Want(t.Context(), 1, 0)
	if err := b.Wait(t.Context()); err != nil {
		t.Fatal(err)
	}
	var left []string
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		left = append(left, e.Name())
	}
	if strings.Join(left, " ") != "ratelab-yours-fresh someone-else" {
		t.Errorf("the folder holds %q; want the fresh build folder and someone else's, nothing of the finished build", left)
	}
}

// A process asked for a build another process made (pages served by two
// processes that do not share a cache) makes the learner's own build
// itself, and only theirs.
func TestEnsureBuildsTheLearnersOwnBuildHere(t *testing.T) {
	first, second := newFake(t, nil), newFake(t, nil)
	first.set(1, code("two processes"))
	second.set(1, code("two processes"))
	st := first.want(t, 1)
	first.wait(t)
	if _, _, ok := readBuild(second.builds, st.Key); ok {
		t.Fatal("the second process keeps a build it never made")
	}
	if second.builds.Ensure(t.Context(), 1, strings.Repeat("ab", 32)) {
		t.Error("Ensure of a build that is not the learner's = true")
	}
	if !second.builds.Ensure(t.Context(), 1, st.Key) {
		t.Fatal("Ensure of the learner's build = false")
	}
	if _, _, ok := readBuild(second.builds, st.Key); !ok {
		t.Error("after Ensure, the second process does not keep the build")
	}
	if second.count() != 1 {
		t.Errorf("the second process built %d times, want once", second.count())
	}
}

// readBuild reads the build named name through Open, as the server serves
// it to a browser that accepts the encodings accepted.
func readBuild(b *yours.Builds, name string, accepted ...string) (body []byte, encoding string, ok bool) {
	f, encoding, ok := b.Open(name, func(enc string) bool { return slices.Contains(accepted, enc) })
	if !ok {
		return nil, "", false
	}
	defer f.Close()
	body, err := io.ReadAll(f)
	return body, encoding, err == nil
}

// TestBuildsOverTheSizeOrTimeBoundFailOnce: a build larger than MaxBytes,
// or slower than Timeout, fails with a message saying so, and is not built
// again until the code changes.
func TestBuildsOverTheSizeOrTimeBoundFailOnce(t *testing.T) {
	t.Run("size", func(t *testing.T) {
		f := newFakeWith(t, nil, func(c *yours.Config) { c.MaxBytes = 1 << 20 })
		f.size = 1<<20 + 1
		f.set(1, code("a huge constant"))
		st := f.settled(t, 1)
		if st.State != yours.Failed || !strings.Contains(st.Error, "over the 1 MiB") {
			t.Fatalf("a build of 1 MiB and a byte: %+v; want failed, naming the bound", st)
		}
		if _, _, ok := readBuild(f.builds, st.Key); ok {
			t.Error("the build over the bound is served")
		}
		if st := f.settled(t, 1); st.State != yours.Failed {
			t.Errorf("asked again: %+v; want still failed", st)
		}
		if n := f.count(); n != 1 {
			t.Errorf("the code was built %d times; want once, until it changes", n)
		}
		f.mu.Lock()
		f.size = 1 << 20
		f.mu.Unlock()
		f.set(1, code("a smaller constant"))
		if st := f.settled(t, 1); st.State != yours.Ready || f.count() != 2 {
			t.Errorf("changed code of 1 MiB: %+v after %d builds; want ready after 2", st, f.count())
		}
	})
	t.Run("time", func(t *testing.T) {
		f := newFakeWith(t, nil, func(c *yours.Config) { c.Timeout = 50 * time.Millisecond })
		f.hold = make(chan struct{}) // never closed: every build runs until it is stopped
		f.set(1, code("a generic bomb"))
		st := f.settled(t, 1)
		if st.State != yours.Failed || !strings.Contains(st.Error, "stopped after 50ms") {
			t.Fatalf("a build past its time: %+v; want failed, naming the bound", st)
		}
		for range 3 {
			f.settled(t, 1)
		}
		if n := f.count(); n != 1 {
			t.Errorf("the code was built %d times; want once, until it changes", n)
		}
		f.set(1, code("a generic bomb, changed"))
		f.settled(t, 1)
		if n := f.count(); n != 2 {
			t.Errorf("changed code: %d builds; want a second", n)
		}
	})
}

// TestMine: a build is the learner's whose code it is, not another's who
// computes its key.
func TestMine(t *testing.T) {
	f := newFake(t, nil)
	f.set(1, code("ada's"))
	f.set(2, code("bob's"))
	ada := f.want(t, 1)
	f.wait(t)
	if !f.builds.Mine(t.Context(), 1, ada.Key) {
		t.Error("ada's build is not hers")
	}
	if f.builds.Mine(t.Context(), 2, ada.Key) {
		t.Error("ada's build is bob's too")
	}
	if f.builds.Mine(t.Context(), 1, "not-a-key") {
		t.Error("a name that is no key is ada's")
	}
	// Her older build stays hers while a page may still fetch it.
	f.set(1, code("ada's, changed"))
	if st := f.want(t, 1); st.Key == ada.Key || !f.builds.Mine(t.Context(), 1, ada.Key) || !f.builds.Mine(t.Context(), 1, st.Key) {
		t.Errorf("after a change, ada's builds %s and %s are not both hers", ada.Key[:8], st.Key[:8])
	}
	f.wait(t)
}

// A week's build (what its lesson runs) is built with the week's tags and
// the learner's code of the week's exercises alone: a change to another
// week's exercise leaves its key, and so its build, as it was. The build
// of every week has all of the code.
func TestAWeeksBuildHasItsWeeksCodeOnly(t *testing.T) {
	f := newFake(t, nil)
	both := func(line string) map[string]map[string][]byte {
		c := code(line)
		c["fairqueue"] = map[string][]byte{"fairqueue.go": []byte("package fairqueue\n")}
		return c
	}
	f.set(1, both("first"))
	week3, err := f.builds.Want(t.Context(), 1, 3)
	if err != nil {
		t.Fatal(err)
	}
	week1, _ := f.builds.Want(t.Context(), 1, 1)
	every, _ := f.builds.Want(t.Context(), 1, 0)
	f.wait(t)
	f.mu.Lock()
	got := map[string][]string{}
	for _, lb := range f.labs {
		ids := slices.Sorted(maps.Keys(lb.Files))
		got[lb.Tags] = ids
	}
	f.mu.Unlock()
	want := map[string][]string{"oneweek,week3": {"fairqueue"}, "oneweek,week1": {"tokenbucket"}, "": {"fairqueue", "tokenbucket"}}
	if !maps.EqualFunc(got, want, slices.Equal) {
		t.Errorf("builds made (tags: the exercises whose code they have) = %v; want %v", got, want)
	}

	f.set(1, both("second"))
	if st, _ := f.builds.Want(t.Context(), 1, 3); st.Key != week3.Key || st.State != yours.Ready {
		t.Errorf("week 3's build after a change to the token bucket: %+v; want its build as it was, %s, ready", st, week3.Key)
	}
	for _, c := range []struct {
		week int
		was  yours.Status
	}{{1, week1}, {0, every}} {
		if st, _ := f.builds.Want(t.Context(), 1, c.week); st.Key == c.was.Key {
			t.Errorf("week %d's build after a change to the token bucket keeps its key %s; want a new build", c.week, st.Key)
		}
	}
	f.wait(t)
	if _, err := f.builds.Want(t.Context(), 1, 9); err == nil || !strings.Contains(err.Error(), "no week 9") {
		t.Errorf("Want of week 9: %v; want an error saying the course has none", err)
	}
}
