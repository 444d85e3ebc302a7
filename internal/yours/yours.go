// Package yours builds each learner's "Yours" in class mode: the lab's
// WebAssembly (./wasm) with the learner's own code in place of the stubs,
// which the lesson pages' visualizations run in a Web Worker beside the
// reference, as `make run` does with exercises/ on a learner's machine.
// As there, a lesson's is its week's build (internal/weekbuild: that
// week's simulations and exercises alone, about half the bytes), and the
// exercise pages' replays run the build of every week (week 0).
//
// Which code: for each exercise the build compiles, the files of the
// learner's latest submission (checks included: they are rows of
// submissions) whose grading compiled; the stub for an exercise with
// none. A learner who has submitted nothing gets the stubs' build, which
// every such learner shares.
//
// How: build.Lab, confined as a grading's build is (the sandbox's
// limits, its user, no module proxy, its own Go build cache), and kept by
// content in a buildcache.Cache: the key is the hash of the toolchain, the
// checkout's sources ./wasm links and the learner's files, so identical
// code builds once, whoever submitted it, and a server restart keeps what
// was built. The cache's size cap bounds the builds kept (about 3.5 MB a
// week's, 8.5 MB every week's: the WebAssembly; its gzip copy, made at the
// default level when it is stored; and its Brotli copy, at the lab's own
// quality, written after it is ready, one at a time, which the learner
// does not wait for).
//
// An exercise whose code compiles for grading but not for the browser runs
// as its stub, and the build says so with the compiler's lines; code the
// compiler's lines do not tie to one exercise fails the build. (Uploads
// hold no file that only one platform builds, nor build constraints, see
// class.Validate: both builds compile the same files.) A build is bounded
// by Config.Timeout and Config.MaxBytes; code that does not build, or
// passes a bound, is remembered by its key and not built again until it
// changes.
//
// A build is served from its file in the cache (Open), to the learner
// whose code it is (Mine).
//
// Where: in the process serving the pages, on demand (the learner's page
// asks; see Builds.Want), at most Config.Parallel builds at once (one by
// default: a build takes a core for seconds, beside the gradings). Each
// learner has at most one build waiting: a newer request for other code
// replaces their waiting one, and requests for code already building join
// it. A Postgres class served with --workers 0 builds in its pages process
// too, which has the checkout the build needs (serve runs in one).
package yours

import (
	"compress/gzip"
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/andybalholm/brotli"

	"ratelab/grader/build"
	"ratelab/grader/buildcache"
	"ratelab/grader/sandbox"
	"ratelab/internal/precompress"
	"ratelab/internal/weekbuild"
)

// State is where a learner's build is.
type State string

// The states of a build.
const (
	Ready    State = "ready"    // built and kept: served under its key
	Building State = "building" // waiting for its turn or being built
	Failed   State = "failed"   // the code does not build for the browser, or the server could not build it
)

// Status is a learner's build as their page sees it.
type Status struct {
	State State
	// Key names the build (hex): its WebAssembly is Wasm(Key).
	Key string
	// Error says why a build failed: the compiler's lines, or the
	// server's problem.
	Error string
	// Note says, of a ready build, which exercises it runs as their stub
	// because the learner's code of them does not build for the browser
	// (a file only GOOS=js compiles, say), with the compiler's lines.
	Note string
}

// Sources returns a learner's code, by exercise: file name → content.
// An exercise absent keeps its stub.
type Sources func(ctx context.Context, userID int64) (map[string]map[string][]byte, error)

// Config is what New needs. Root, Sources and Cache are required.
type Config struct {
	Root    string // the ratelab module (holding go.mod)
	Sources Sources
	// Sandbox confines the builds (nil: unconfined, for tests only).
	Sandbox *sandbox.Sandbox
	// Cache keeps the builds by key; its cap bounds them.
	Cache *buildcache.Cache
	// Parallel is how many builds run at once; 0 means 1.
	Parallel int
	// Timeout bounds one build; 0 means DefaultTimeout.
	Timeout time.Duration
	// MaxBytes bounds the WebAssembly a build may make; 0 means MaxWasm.
	MaxBytes int64
	// TempDir is where each build works (a folder removed after it); ""
	// means the system's temporary folder.
	TempDir string
	Log     *slog.Logger

	// build builds lb into out: (*build.Lab).Build; tests swap it.
	build func(lb *build.Lab, ctx context.Context, out string) error
}

// Builds builds and keeps the learners' Yours. Its methods are safe for
// concurrent use.
type Builds struct {
	cfg  Config
	slot chan struct{} // a token per build that may run at once
	base context.Context
	stop context.CancelFunc // ends every build (Stop)

	squeezing chan struct{}  // a token while a Brotli copy is written (squeeze)
	bg        sync.WaitGroup // the Brotli copies being written

	mu      sync.Mutex
	jobs    map[buildcache.Key]*job    // waiting or running
	wanted  map[wanter]buildcache.Key  // each learner's latest request, by week
	recent  map[int64][]buildcache.Key // each learner's latest keys, newest last (Mine)
	failed  map[buildcache.Key]string  // code that does not build (or too large, or too slow), with why
	failAge []buildcache.Key           // failed's keys, oldest first
	once    map[buildcache.Key]string  // the server's failures: told once, then built again
}

// wanter is a learner asking for a week's build (0: every week's).
type wanter struct {
	userID int64
	week   int
}

// job is one build, waiting for a slot or running.
type job struct {
	wanters map[wanter]bool // the learners whose latest request it is
	started bool
	cancel  context.CancelFunc
	done    chan struct{}
}

// tempPrefix names the folders builds work in, under Config.TempDir.
const tempPrefix = "ratelab-yours-"

// staleAfter is the age past which a build's folder is one a killed
// server left (a build takes at most Config.Timeout, 5 minutes by
// default): New removes those, whichever server of the machine left them.
const staleAfter = time.Hour

// sweep removes the build folders, and the Brotli copies being written,
// under dir (the system's temporary folder if "") last changed before
// cutoff.
func sweep(dir string, cutoff time.Time) {
	if dir == "" {
		dir = os.TempDir()
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), tempPrefix) {
			continue
		}
		if fi, err := e.Info(); err == nil && fi.ModTime().Before(cutoff) {
			os.RemoveAll(filepath.Join(dir, e.Name()))
		}
	}
}

// DefaultTimeout is Config.Timeout's default: a build takes about a second,
// 20 s for the first on an empty Go build cache; one that takes longer
// than this is stopped, and is the code's failure (see Builds.Want).
const DefaultTimeout = 2 * time.Minute

// MaxWasm is Config.MaxBytes's default: three times the lab's own build
// (5.5 MB). A learner's build past it (a huge constant compiled in) fails,
// so that no build served, or kept, is larger: the largest a learner can
// make the server send.
const MaxWasm = 16 << 20

// recentKeys is how many of a learner's latest builds Builds remembers as
// theirs (see Mine): the pages they have open may still fetch them, two
// for each week's and every week's build.
const recentKeys = 12

// maxFailed bounds the failed builds remembered (the next request of
// code forgotten builds it again, and fails again).
const maxFailed = 512

// New returns Builds; nothing runs until a learner's page asks.
func New(cfg Config) *Builds {
	if cfg.Parallel <= 0 {
		cfg.Parallel = 1
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.MaxBytes <= 0 {
		cfg.MaxBytes = MaxWasm
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	if cfg.build == nil {
		cfg.build = (*build.Lab).Build
	}
	sweep(cfg.TempDir, time.Now().Add(-staleAfter))
	base, stop := context.WithCancel(context.Background())
	return &Builds{
		cfg: cfg, slot: make(chan struct{}, cfg.Parallel), squeezing: make(chan struct{}, 1), base: base, stop: stop,
		jobs: map[buildcache.Key]*job{}, wanted: map[wanter]buildcache.Key{}, recent: map[int64][]buildcache.Key{},
		failed: map[buildcache.Key]string{}, once: map[buildcache.Key]string{},
	}
}

// Want returns the state of the learner's build of week (0: every week)
// with their code as it is in the store now, and starts building it if it
// is neither kept nor known not to build. Its error is the server's (the
// store, go list).
func (b *Builds) Want(ctx context.Context, userID int64, week int) (Status, error) {
	files, err := b.cfg.Sources(ctx, userID)
	if err != nil {
		return Status{}, err
	}
	lb, key, err := b.build(ctx, files, week)
	if err != nil {
		return Status{}, err
	}
	st := Status{Key: key.String()}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.want(wanter{userID, week}, key)
	switch {
	case b.base.Err() != nil:
		st.State, st.Error = Failed, "the server is stopping"
	case b.cfg.Cache.Has(key):
		st.State = Ready
		if b.cfg.Cache.Has(noteKey(key)) {
			note, _ := b.cfg.Cache.Read(noteKey(key))
			st.Note = string(note)
		}
	case b.failed[key] != "":
		st.State, st.Error = Failed, b.failed[key]
	case b.once[key] != "":
		st.State, st.Error = Failed, b.once[key]
		delete(b.once, key)
	default:
		st.State = Building
		b.start(key, lb).wanters[wanter{userID, week}] = true
	}
	return st, nil
}

// build returns the build of week (0: every week) with the learner's
// files (Sources'), and its key: of their files, those of the exercises
// the week's build compiles.
func (b *Builds) build(ctx context.Context, files map[string]map[string][]byte, week int) (*build.Lab, buildcache.Key, error) {
	if week != 0 && !weekbuild.IsWeek(week) {
		return nil, buildcache.Key{}, fmt.Errorf("the course has no week %d", week)
	}
	ids, err := weekbuild.YoursExercises(ctx, b.cfg.Root, week)
	if err != nil {
		return nil, buildcache.Key{}, err
	}
	mine := map[string]map[string][]byte{}
	for id, f := range files {
		if slices.Contains(ids, id) {
			mine[id] = f
		}
	}
	lb := &build.Lab{Root: b.cfg.Root, Tags: weekbuild.YoursTags(week), Files: mine, Sandbox: b.cfg.Sandbox, TempDir: b.cfg.TempDir}
	key, err := lb.Key()
	if err != nil {
		return nil, buildcache.Key{}, fmt.Errorf("the build's key: %w", err)
	}
	return lb, key, nil
}

// want records key as the learner's latest request of a week's build: a
// build of their older code that has not started, and that nobody else
// waits for, is dropped. Called with mu held.
func (b *Builds) want(w wanter, key buildcache.Key) {
	old, ok := b.wanted[w]
	b.wanted[w] = key
	r := slices.DeleteFunc(b.recent[w.userID], func(k buildcache.Key) bool { return k == key })
	if r = append(r, key); len(r) > recentKeys {
		r = r[len(r)-recentKeys:]
	}
	b.recent[w.userID] = r
	if !ok || old == key {
		return
	}
	if j := b.jobs[old]; j != nil {
		delete(j.wanters, w)
		if len(j.wanters) == 0 && !j.started {
			j.cancel()
			delete(b.jobs, old)
		}
	}
}

// start returns the job building key, starting one if none is. Called
// with mu held.
func (b *Builds) start(key buildcache.Key, lb *build.Lab) *job {
	if j := b.jobs[key]; j != nil {
		return j
	}
	ctx, cancel := context.WithCancel(b.base)
	j := &job{wanters: map[wanter]bool{}, cancel: cancel, done: make(chan struct{})}
	b.jobs[key] = j
	go func() {
		defer close(j.done)
		defer cancel()
		// However it ends (built, failed, dropped while it waited, or
		// stopped), the job leaves jobs, or Wait would wait on it again.
		defer func() {
			b.mu.Lock()
			if b.jobs[key] == j {
				delete(b.jobs, key)
			}
			b.mu.Unlock()
		}()
		select {
		case b.slot <- struct{}{}:
		case <-ctx.Done():
			return // dropped while it waited
		}
		defer func() { <-b.slot }()
		b.mu.Lock()
		if ctx.Err() != nil { // dropped (see want) as it got its turn
			b.mu.Unlock()
			return
		}
		j.started = true
		b.mu.Unlock()
		err := b.run(ctx, key, lb)
		b.mu.Lock()
		defer b.mu.Unlock()
		var be *build.Error
		switch {
		case err == nil:
		case errors.As(err, &be):
			b.fail(key, be.Lines)
		case errors.Is(err, errTooLong) && len(lb.Files) > 0:
			// The learner's code made the compiler work that long: not
			// tried again until it changes. (The stubs' build, which
			// no learner's code slows, is the server's problem.)
			b.fail(key, err.Error())
		case ctx.Err() != nil: // stopping
		default:
			b.cfg.Log.Error("yours: building a learner's WebAssembly", "key", key.String()[:12], "err", err)
			b.once[key] = "the server could not build your code (" + err.Error() + "): reload the page to try again."
		}
	}()
	return j
}

// fail remembers that the code of key does not build, forgetting the
// oldest such code beyond maxFailed. Called with mu held.
func (b *Builds) fail(key buildcache.Key, lines string) {
	if _, ok := b.failed[key]; !ok {
		b.failAge = append(b.failAge, key)
	}
	b.failed[key] = lines
	for len(b.failAge) > maxFailed {
		delete(b.failed, b.failAge[0])
		b.failAge = b.failAge[1:]
	}
}

// run builds lb and keeps the WebAssembly and its gzip copy in the cache.
// An exercise whose code the compiler blames is left out (its stub is
// built instead), and the build keeps a note saying so: one exercise's
// code that compiles for grading and not for the browser does not take
// the learner's other exercises' Yours away.
func (b *Builds) run(ctx context.Context, key buildcache.Key, lb *build.Lab) error {
	ctx, cancel := context.WithTimeout(ctx, b.cfg.Timeout)
	defer cancel()
	tmp, err := os.MkdirTemp(b.cfg.TempDir, tempPrefix)
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	// The build's own folder goes in this one, which the sandbox's user,
	// if the build drops to it, passes through.
	if err := os.Chmod(tmp, 0o711); err != nil {
		return err
	}
	next := *lb
	next.TempDir = tmp
	lb = &next
	out := filepath.Join(tmp, "lab.wasm")
	start := time.Now()
	var left []string // exercises left out: their code does not build for the browser
	var lines string  // and the compiler's lines about them
	for {
		err := b.cfg.build(lb, ctx, out)
		if err == nil {
			break
		}
		if ctx.Err() == context.DeadlineExceeded {
			return fmt.Errorf("%w: it was stopped after %s, the most a build may take (the lab builds in seconds: code that makes the compiler work that long, a huge constant or a generic type instantiated over and over, cannot run in the browser); change your code, and its next build starts afresh", errTooLong, b.cfg.Timeout)
		}
		var be *build.Error
		if !errors.As(err, &be) {
			return err
		}
		blamed := blame(be.Lines, lb.Files)
		if len(blamed) == 0 {
			return err // not one exercise's code: nothing to leave out
		}
		left, lines = append(left, blamed...), lines+be.Lines+"\n"
		rest := map[string]map[string][]byte{}
		for id, files := range lb.Files {
			if !slices.Contains(blamed, id) {
				rest[id] = files
			}
		}
		next := *lb
		next.Files = rest
		lb = &next
	}
	took := time.Since(start)
	if len(left) > 0 {
		// Kept before the build, which makes it ready.
		slices.Sort(left)
		note := filepath.Join(tmp, "note")
		stubs := "the stub of " + left[0]
		if len(left) > 1 {
			stubs = "the stubs of " + strings.Join(left[:len(left)-1], ", ") + " and " + left[len(left)-1]
		}
		text := "Yours runs " + stubs + " in place of your code, which does not build for the browser:\n" + strings.TrimRight(lines, "\n")
		if err := os.WriteFile(note, []byte(text), 0o600); err != nil {
			return err
		}
		if err := b.cfg.Cache.Put(noteKey(key), note); err != nil {
			return err
		}
	}
	fi, err := os.Stat(out)
	if err != nil {
		return err
	}
	if fi.Size() > b.cfg.MaxBytes {
		return &build.Error{Lines: fmt.Sprintf("the build of your code is %.1f MiB, over the %.0f MiB a build for the browser may be (the lab alone is about 5 MiB): "+
			"something in your code is huge once compiled (a long constant, a large array); make it smaller, and its next build starts afresh", float64(fi.Size())/(1<<20), float64(b.cfg.MaxBytes)/(1<<20))}
	}
	// The copy first: once the WebAssembly is in, the build is ready.
	gzPath := out + ".gz"
	if n, err := gzipFile(out, gzPath); err == nil && n < fi.Size() {
		b.cfg.Cache.Put(gzipKey(key), gzPath)
	}
	if err := b.cfg.Cache.Put(key, out); err != nil {
		return err
	}
	b.cfg.Log.Info("yours: built a learner's WebAssembly", "key", key.String()[:12], "took", took.Round(time.Millisecond), "bytes", fi.Size())
	b.squeezeLater(key)
	return nil
}

// squeezeLater has the Brotli copy of the ready build key written in the
// background, one at a time, beside the builds' own turns (see squeeze):
// gzip is served until it is kept. Stop ends it, Wait waits for it.
func (b *Builds) squeezeLater(key buildcache.Key) {
	b.bg.Add(1)
	go func() {
		defer b.bg.Done()
		select {
		case b.squeezing <- struct{}{}:
		case <-b.base.Done():
			return
		}
		defer func() { <-b.squeezing }()
		if err := b.squeeze(b.base, key); err != nil && b.base.Err() == nil {
			b.cfg.Log.Warn("yours: the Brotli copy of a build was not kept (its gzip copy is served)", "key", key.String()[:12], "err", err)
		}
	}()
}

// squeeze keeps the Brotli copy of the build key in the cache, at the
// quality the lab's own WebAssembly is served in (precompress.BrotliQuality:
// one to two seconds of a core for the lab's 5.5 MB, a fifth smaller than
// gzip), streaming from the cache's file; nothing if the build is gone or
// the copy would be no smaller.
func (b *Builds) squeeze(ctx context.Context, key buildcache.Key) error {
	in, ok := b.cfg.Cache.Open(key)
	if !ok {
		return nil // removed to make room meanwhile
	}
	defer in.Close()
	raw, err := in.Seek(0, io.SeekEnd)
	if err != nil {
		return err
	}
	if _, err := in.Seek(0, io.SeekStart); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(b.cfg.TempDir, tempPrefix+"br-")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	defer tmp.Close()
	w := brotli.NewWriterLevel(tmp, precompress.BrotliQuality)
	if _, err := io.Copy(w, ctxReader{ctx, in}); err != nil {
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	fi, err := tmp.Stat()
	if err != nil || fi.Size() >= raw {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return b.cfg.Cache.Put(compressed{"br"}.key(key), tmp.Name())
}

// ctxReader reads r until ctx ends.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}

// errTooLong is the error of a build stopped at Config.Timeout.
var errTooLong = errors.New("the build took too long")

// gzipFile writes src gzipped at the default level to dst, streaming, and
// returns dst's size: for the lab's 5.5 MB, 0.44 s and 1.51 MB on the
// development machine, where the best level takes 1.3 s for 1.50 MB (and
// Brotli's best, 10 s), while the learner waits for the build.
func gzipFile(src, dst string) (int64, error) {
	in, err := os.Open(src)
	if err != nil {
		return 0, err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return 0, err
	}
	defer out.Close()
	w := gzip.NewWriter(out)
	if _, err := io.Copy(w, in); err != nil {
		return 0, err
	}
	if err := w.Close(); err != nil {
		return 0, err
	}
	fi, err := out.Stat()
	if err != nil {
		return 0, err
	}
	return fi.Size(), out.Close()
}

// blame returns the exercises of files the compiler's lines name
// (build.Error names a learner's file exercise/file.go).
func blame(lines string, files map[string]map[string][]byte) []string {
	var ids []string
	for _, l := range strings.Split(lines, "\n") {
		id, _, ok := strings.Cut(l, "/")
		if _, replaced := files[id]; ok && replaced && !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	return ids
}

// noteKey is the cache's key of what a build left out (see run), kept
// beside the build of key.
func noteKey(key buildcache.Key) buildcache.Key {
	h := buildcache.NewHasher()
	h.Add("note of", key[:])
	return h.Sum()
}

// compressed is a kind of copy of a build kept beside it: its encoding,
// as HTTP names it, and where the cache keeps it.
type compressed struct{ encoding string }

// copies are the copies Open looks for, the smallest first: Brotli, made
// after the build is ready (see squeeze), then gzip, made with it.
var copies = []compressed{{"br"}, {"gzip"}}

// key is the cache's key of this copy of the build key.
func (c compressed) key(key buildcache.Key) buildcache.Key {
	h := buildcache.NewHasher()
	h.Add(c.encoding+" of", key[:])
	return h.Sum()
}

// gzipKey is the cache's key of the gzip copy of the build key.
func gzipKey(key buildcache.Key) buildcache.Key { return compressed{"gzip"}.key(key) }

// Open returns the WebAssembly of the build named name (a Status.Key) as
// its file in the cache, to serve from disk (never a copy in memory), and
// whether there is such a build. Where accept takes an encoding that a
// copy of the build is kept in ("br", then "gzip"), it is that copy, and
// encoding names it ("" for the WebAssembly itself). The caller closes it.
func (b *Builds) Open(name string, accept func(encoding string) bool) (f io.ReadSeekCloser, encoding string, ok bool) {
	key, ok := parseKey(name)
	if !ok {
		return nil, "", false
	}
	for _, c := range copies {
		if accept(c.encoding) {
			if f, ok := b.cfg.Cache.Open(c.key(key)); ok {
				return f, c.encoding, true
			}
		}
	}
	e, ok := b.cfg.Cache.Open(key)
	if !ok {
		return nil, "", false
	}
	return e, "", true
}

// parseKey is the key named name (a Status.Key), if it is one.
func parseKey(name string) (buildcache.Key, bool) {
	var key buildcache.Key
	raw, err := hex.DecodeString(name)
	if err != nil || len(raw) != len(key) {
		return key, false
	}
	copy(key[:], raw)
	return key, true
}

// Mine reports whether name (a Status.Key) is a build of the learner's
// code: one of the last builds Want told them of in this process, or, if
// none is, that of their code as the store has it now, of some week (a
// page another process of the class answered). A build is fetched only by
// the learner whose code it is: its key is a hash of the code, which
// anyone holding the code can compute, and must not tell them whether
// someone else built that code.
func (b *Builds) Mine(ctx context.Context, userID int64, name string) bool {
	key, ok := parseKey(name)
	if !ok {
		return false
	}
	b.mu.Lock()
	told := slices.Contains(b.recent[userID], key)
	b.mu.Unlock()
	if told {
		return true
	}
	_, ok = b.weekOf(ctx, userID, name)
	return ok
}

// weekOf returns the week whose build of the learner's current code is
// named name, and whether there is one. It starts no build.
func (b *Builds) weekOf(ctx context.Context, userID int64, name string) (int, bool) {
	files, err := b.cfg.Sources(ctx, userID)
	if err != nil {
		return 0, false
	}
	for _, week := range weekbuild.YoursWeeks() {
		if _, key, err := b.build(ctx, files, week); err == nil && key.String() == name {
			return week, true
		}
	}
	return 0, false
}

// Ensure makes sure the build named name (a Status.Key) is kept here, if
// it is the learner's current build of some week: one asked for from
// another process of the class (pages served by several processes, on
// machines that do not share the cache), built here then, while the
// request waits. It reports whether the build is kept now.
func (b *Builds) Ensure(ctx context.Context, userID int64, name string) bool {
	week, ok := b.weekOf(ctx, userID, name)
	if !ok {
		return false
	}
	st, err := b.Want(ctx, userID, week)
	if err != nil || st.Key != name {
		return false
	}
	for st.State == Building {
		b.mu.Lock()
		var done chan struct{}
		for key, j := range b.jobs {
			if key.String() == name {
				done = j.done
			}
		}
		b.mu.Unlock()
		if done != nil {
			select {
			case <-done:
			case <-ctx.Done():
				return false
			}
		}
		if st, err = b.Want(ctx, userID, week); err != nil || st.Key != name {
			return false
		}
	}
	return st.State == Ready
}

// Stop ends every build, killing the compilers, and waits for them.
func (b *Builds) Stop() {
	b.stop()
	b.Wait(context.Background())
}

// Wait waits until no build is waiting or running and no Brotli copy is
// being written, or ctx ends.
func (b *Builds) Wait(ctx context.Context) error {
	for {
		b.mu.Lock()
		var j *job
		for _, j = range b.jobs {
			break
		}
		b.mu.Unlock()
		if j == nil {
			squeezed := make(chan struct{})
			go func() { b.bg.Wait(); close(squeezed) }()
			select {
			case <-squeezed:
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		select {
		case <-j.done:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}
