// Package yours builds each learner's "Yours" in class mode: the lab's
// WebAssembly (./wasm) with the learner's own code in place of the stubs,
// which the lesson pages' visualizations run in a Web Worker beside the
// reference, as `make run` does with exercises/ on a learner's machine.
//
// Which code: for each exercise, the files of the learner's latest
// submission (checks included: they are rows of submissions) whose grading
// compiled; the stub for an exercise with none. A learner who has
// submitted nothing gets the stubs' build, which every such learner
// shares.
//
// How: grader.LabBuild, confined as a grading's build is (the sandbox's
// limits, its user, no module proxy, its own Go build cache), and kept by
// content in a buildcache.Cache: the key is the hash of the toolchain, the
// checkout's sources ./wasm links and the learner's files, so identical
// code builds once, whoever submitted it, and a server restart keeps what
// was built. The cache's size cap bounds the builds kept (about 7 MB each:
// the WebAssembly and its gzip copy, made once when it is stored, at the
// default level; Brotli's best quality would take 10 s of a core per
// build).
//
// An exercise whose code compiles for grading but not for the browser (a
// file only GOOS=js builds) runs as its stub, and the build says so with
// the compiler's lines; code the compiler's lines do not tie to one
// exercise fails the build.
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
	"bytes"
	"compress/gzip"
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"ratelab/grader"
	"ratelab/grader/buildcache"
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
	Sandbox *grader.Sandbox
	// Cache keeps the builds by key; its cap bounds them.
	Cache *buildcache.Cache
	// Parallel is how many builds run at once; 0 means 1.
	Parallel int
	// Timeout bounds one build; 0 means 5 minutes.
	Timeout time.Duration
	// TempDir is where each build works (a folder removed after it); ""
	// means the system's temporary folder.
	TempDir string
	Log     *slog.Logger

	// build builds lb into out: (*grader.LabBuild).Build; tests swap it.
	build func(lb *grader.LabBuild, ctx context.Context, out string) error
}

// Builds builds and keeps the learners' Yours. Its methods are safe for
// concurrent use.
type Builds struct {
	cfg  Config
	slot chan struct{} // a token per build that may run at once
	base context.Context
	stop context.CancelFunc // ends every build (Stop)

	mu      sync.Mutex
	jobs    map[buildcache.Key]*job   // waiting or running
	wanted  map[int64]buildcache.Key  // each learner's latest request
	failed  map[buildcache.Key]string // code that does not build, with the compiler's lines
	failAge []buildcache.Key          // failed's keys, oldest first
	once    map[buildcache.Key]string // the server's failures: told once, then built again
}

// job is one build, waiting for a slot or running.
type job struct {
	wanters map[int64]bool // the learners whose latest request it is
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

// sweep removes the build folders under dir (the system's temporary
// folder if "") last changed before cutoff.
func sweep(dir string, cutoff time.Time) {
	if dir == "" {
		dir = os.TempDir()
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), tempPrefix) {
			continue
		}
		if fi, err := e.Info(); err == nil && fi.ModTime().Before(cutoff) {
			os.RemoveAll(filepath.Join(dir, e.Name()))
		}
	}
}

// maxFailed bounds the failed builds remembered (the next request of
// code forgotten builds it again, and fails again).
const maxFailed = 512

// New returns Builds; nothing runs until a learner's page asks.
func New(cfg Config) *Builds {
	if cfg.Parallel <= 0 {
		cfg.Parallel = 1
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 5 * time.Minute
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	if cfg.build == nil {
		cfg.build = (*grader.LabBuild).Build
	}
	sweep(cfg.TempDir, time.Now().Add(-staleAfter))
	base, stop := context.WithCancel(context.Background())
	return &Builds{
		cfg: cfg, slot: make(chan struct{}, cfg.Parallel), base: base, stop: stop,
		jobs: map[buildcache.Key]*job{}, wanted: map[int64]buildcache.Key{},
		failed: map[buildcache.Key]string{}, once: map[buildcache.Key]string{},
	}
}

// Want returns the state of the learner's build of their code as it is
// in the store now, and starts building it if it is neither kept nor
// known not to build. Its error is the server's (the store, go list).
func (b *Builds) Want(ctx context.Context, userID int64) (Status, error) {
	files, err := b.cfg.Sources(ctx, userID)
	if err != nil {
		return Status{}, err
	}
	lb := &grader.LabBuild{Root: b.cfg.Root, Files: files, Sandbox: b.cfg.Sandbox, TempDir: b.cfg.TempDir}
	key, err := lb.Key()
	if err != nil {
		return Status{}, fmt.Errorf("the build's key: %w", err)
	}
	st := Status{Key: key.String()}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.want(userID, key)
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
		b.start(key, lb).wanters[userID] = true
	}
	return st, nil
}

// want records key as the learner's latest request: a build of their
// older code that has not started, and that nobody else waits for, is
// dropped. Called with mu held.
func (b *Builds) want(userID int64, key buildcache.Key) {
	old, ok := b.wanted[userID]
	b.wanted[userID] = key
	if !ok || old == key {
		return
	}
	if j := b.jobs[old]; j != nil {
		delete(j.wanters, userID)
		if len(j.wanters) == 0 && !j.started {
			j.cancel()
			delete(b.jobs, old)
		}
	}
}

// start returns the job building key, starting one if none is. Called
// with mu held.
func (b *Builds) start(key buildcache.Key, lb *grader.LabBuild) *job {
	if j := b.jobs[key]; j != nil {
		return j
	}
	ctx, cancel := context.WithCancel(b.base)
	j := &job{wanters: map[int64]bool{}, cancel: cancel, done: make(chan struct{})}
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
		var be *grader.BuildError
		switch {
		case err == nil:
		case errors.As(err, &be):
			b.fail(key, be.Lines)
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
func (b *Builds) run(ctx context.Context, key buildcache.Key, lb *grader.LabBuild) error {
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
			return fmt.Errorf("the build took longer than %s", b.cfg.Timeout)
		}
		var be *grader.BuildError
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
	raw, err := os.ReadFile(out)
	if err != nil {
		return err
	}
	// The copy first: once the WebAssembly is in, the build is ready.
	if gz, err := gzipped(raw); err == nil && len(gz) < len(raw) {
		gzPath := out + ".gz"
		if err := os.WriteFile(gzPath, gz, 0o600); err == nil {
			b.cfg.Cache.Put(gzipKey(key), gzPath)
		}
	}
	if err := b.cfg.Cache.Put(key, out); err != nil {
		return err
	}
	b.cfg.Log.Info("yours: built a learner's WebAssembly", "key", key.String()[:12], "took", took.Round(time.Millisecond), "bytes", len(raw))
	return nil
}

// gzipped is raw gzipped at the default level: for the lab's 5.5 MB,
// 0.44 s and 1.51 MB on the development machine, where the best level
// takes 1.3 s for 1.50 MB (and Brotli's best, 10 s), while the learner
// waits for the build.
func gzipped(raw []byte) ([]byte, error) {
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	if _, err := w.Write(raw); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// blame returns the exercises of files the compiler's lines name
// (grader.BuildError names a learner's file exercise/file.go).
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

// gzipKey is the cache's key of the gzip copy of the build key.
func gzipKey(key buildcache.Key) buildcache.Key {
	h := buildcache.NewHasher()
	h.Add("gzip of", key[:])
	return h.Sum()
}

// Wasm returns the WebAssembly of the build named name (a Status.Key),
// gzipped if gzip and a copy is kept (then gzipped reports it), and
// whether there is such a build.
func (b *Builds) Wasm(name string, gzip bool) (body []byte, gzipped, ok bool) {
	raw, err := hex.DecodeString(name)
	var key buildcache.Key
	if err != nil || len(raw) != len(key) {
		return nil, false, false
	}
	copy(key[:], raw)
	if gzip {
		if gz, ok := b.cfg.Cache.Read(gzipKey(key)); ok {
			return gz, true, true
		}
	}
	body, ok = b.cfg.Cache.Read(key)
	return body, false, ok
}

// Ensure makes sure the build named name (a Status.Key) is kept here, if
// it is the learner's current build: one asked for from another process
// of the class (pages served by several processes, on machines that do
// not share the cache), built here then, while the request waits. It
// reports whether the build is kept now.
func (b *Builds) Ensure(ctx context.Context, userID int64, name string) bool {
	st, err := b.Want(ctx, userID)
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
		if st, err = b.Want(ctx, userID); err != nil || st.Key != name {
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

// Wait waits until no build is waiting or running, or ctx ends.
func (b *Builds) Wait(ctx context.Context) error {
	for {
		b.mu.Lock()
		var j *job
		for _, j = range b.jobs {
			break
		}
		b.mu.Unlock()
		if j == nil {
			return nil
		}
		select {
		case <-j.done:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}
