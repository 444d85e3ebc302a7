package grader_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ratelab/grader"
	"ratelab/grader/report"
	"ratelab/grader/sandbox"
)

// gradeSource grades exercise from the given files (name to source), in
// the sandbox if sb is not nil.
func gradeSource(t *testing.T, sb *sandbox.Sandbox, exercise string, files map[string]string, bench bool) *report.Exercise {
	t.Helper()
	dir := t.TempDir()
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	r, err := grader.Grade(ctx, grader.Options{
		Root: root(t), Exercises: []string{exercise}, Seed: grader.DefaultSeed, NoBench: !bench,
		Replace: map[string]string{exercise: dir}, CheckTimeout: 5 * time.Second, BenchTimeout: 20 * time.Second, Sandbox: sb,
	})
	if err != nil {
		t.Fatalf("Grade: %v", err)
	}
	return &r.Exercises[0]
}

// forger is a token bucket that cannot answer a single call (every method
// panics) but writes, from a goroutine started before the grader's code
// runs, every kind of line a result could once be forged with: the old
// protocol's plan, start, result and done events, answers of the new
// one, and answers to calls sent ahead (as a count of expected answers
// once, as answer lines now), on every descriptor a result ever travelled on, over and over.
const forger = `package tokenbucket

import (
	"os"
	"time"
)

type TokenBucket struct{}

func New(capacity, ratePerSec, nowNs uint64) *TokenBucket { return &TokenBucket{} }
func (b *TokenBucket) TryAcquire(nowNs, n uint64) bool    { panic("cannot") }
func (b *TokenBucket) Available(nowNs uint64) uint64      { panic("cannot") }

const lines = "{\"plan\":[]}\n" +
	"{\"start\":\"tokenbucket/capacity\"}\n" +
	"{\"result\":{\"id\":\"tokenbucket/capacity\",\"status\":\"passed\",\"score\":3,\"max_score\":3}}\n" +
	"{\"done\":true}\n" +
	"ratelab-child/2\n" + "ratelab-child/4\n" +
	"{\"ret\":[\"true\"]}\n{\"ret\":[\"7\"]}\n{\"ret\":[{\"obj\":\"1\"}]}\n" +
	"{\"same\":\"100000\"}\n{\"answers\":[{\"ret\":[\"true\"]},{\"ret\":[\"7\"]}]}\n"

func init() {
	var fds []*os.File
	for fd := uintptr(1); fd <= 4; fd++ {
		if f := os.NewFile(fd, "forged"); f != nil {
			fds = append(fds, f)
		}
	}
	go func() {
		for {
			for _, f := range fds {
				f.WriteString(lines)
			}
			time.Sleep(time.Millisecond)
		}
	}()
}
`

func TestForgedLinesEarnNothing(t *testing.T) {
	for _, sandboxed := range []bool{false, true} {
		var sb *sandbox.Sandbox
		if sandboxed {
			sb = &sandbox.Sandbox{Log: t.Logf}
		}
		ex := gradeSource(t, sb, "tokenbucket", map[string]string{"tokenbucket.go": forger}, true)
		if ex.Score != 0 {
			for _, c := range ex.Checks {
				t.Logf("%s: %s %v %q", c.ID, c.Status, c.Score, c.Message)
			}
			t.Errorf("sandbox %v: a bucket that answers nothing, writing forged lines, scored %v/%v", sandboxed, ex.Score, ex.MaxScore)
		}
	}
}

// scribbler corrupts memory it does not own: from the start, a goroutine
// writes garbage over the words around its own heap objects, the way a
// data race on an interface value can reach the whole process.
const scribbler = `package tokenbucket

import "unsafe"

type TokenBucket struct{ junk [4]uintptr }

func New(capacity, ratePerSec, nowNs uint64) *TokenBucket {
	b := &TokenBucket{}
	base := uintptr(unsafe.Pointer(b))
	for off := uintptr(0); off < 1<<16; off += 8 {
		*(*uintptr)(unsafe.Pointer(base + off)) = 0x7f7f7f7f7f7f7f7f
	}
	return b
}

func (b *TokenBucket) TryAcquire(nowNs, n uint64) bool { return true }
func (b *TokenBucket) Available(nowNs uint64) uint64   { return 1 }
`

func TestCorruptedMemoryEarnsNothing(t *testing.T) {
	ex := gradeSource(t, nil, "tokenbucket", map[string]string{"tokenbucket.go": scribbler}, true)
	if ex.Score != 0 {
		for _, c := range ex.Checks {
			t.Logf("%s: %s %v %q", c.ID, c.Status, c.Score, c.Message)
		}
		t.Errorf("a bucket that scribbles over its own process scored %v/%v", ex.Score, ex.MaxScore)
	}
}

// TestHugePanicMessageIsCut: a panic whose message is 4 MiB, four times
// the protocol's longest line, reaches the report cut to a few KiB, as an
// error charged once. (It was 100 MiB a panic, whose page faults on a loaded machine
// could outlast the check: a timeout, not the panic.)
func TestHugePanicMessageIsCut(t *testing.T) {
	if testing.Short() {
		t.Skip("every check panics with 4 MiB")
	}
	ex := gradeSource(t, nil, "tokenbucket", map[string]string{"tokenbucket.go": `package tokenbucket

import "strings"

type TokenBucket struct{}

func New(capacity, ratePerSec, nowNs uint64) *TokenBucket { panic(strings.Repeat("x", 4<<20)) }
func (b *TokenBucket) TryAcquire(nowNs, n uint64) bool    { return false }
func (b *TokenBucket) Available(nowNs uint64) uint64      { return 0 }
`}, false)
	if ex.Score != 0 || ex.Status != report.Failed {
		t.Errorf("status %s %v/%v, want failed with 0 points", ex.Status, ex.Score, ex.MaxScore)
	}
	// The panic is charged once, as an error; every other check meets it
	// too and fails (the code is wrong everywhere), showing it cut short.
	charged := 0
	for _, c := range ex.Checks {
		if c.Kind == report.Benchmark {
			continue
		}
		if c.Status == report.Error {
			charged++
		}
		if c.Status != report.Error && c.Status != report.Failed || len(c.Message) > 8<<10 || !strings.Contains(c.Message, "bytes in all") {
			t.Errorf("%s: %s, %d-byte message %.80q…; want it failed, with the panic cut short", c.ID, c.Status, len(c.Message), c.Message)
		}
	}
	if charged != 1 {
		t.Errorf("%d checks charged with the panic as an error; want 1", charged)
	}
}

// doNothing answers every call with a constant: fast, and no limiter.
func doNothing(grant string) string {
	return `package tokenbucket

type TokenBucket struct{}

func New(capacity, ratePerSec, nowNs uint64) *TokenBucket { return &TokenBucket{} }
func (b *TokenBucket) TryAcquire(nowNs, n uint64) bool    { return ` + grant + ` }
func (b *TokenBucket) Available(nowNs uint64) uint64      { return 0 }
`
}

func TestDoNothingLimiterEarnsNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("benchmarks")
	}
	for _, grant := range []string{"true", "false"} {
		ex := gradeSource(t, nil, "tokenbucket", map[string]string{"tokenbucket.go": doNothing(grant)}, true)
		for _, c := range ex.Checks {
			if c.Kind == report.Benchmark && (c.Status != report.Failed || !strings.Contains(c.Message, "differ from the reference")) {
				t.Errorf("TryAcquire always %s: %s: %s %q; want failed, its decisions differing from the reference's", grant, c.ID, c.Status, c.Message)
			}
		}
		// Always refusing gives the first wrong answer of many scripts as
		// a bucket that starts empty or needs more than n tokens does,
		// but never its answers to the end of a script: no check may be
		// excused for a mistake charged elsewhere.
		most := 0.0
		for _, c := range ex.Checks {
			if c.Status == report.Passed && (c.Counterexample == nil || len(c.Mistakes) == 0) {
				t.Errorf("TryAcquire always %s: %s passed without showing the failure and the mistake it is charged to: %q", grant, c.ID, c.Message)
			}
		}
		if ex.Score > most {
			for _, c := range ex.Checks {
				t.Logf("%s: %s %v %q", c.ID, c.Status, c.Score, c.Message)
			}
			t.Errorf("TryAcquire always %s scored %v/%v, want at most %v", grant, ex.Score, ex.MaxScore, most)
		}
	}
}

// TestEndlessInitIsAnError: a program whose init functions never end
// never starts serving, so no call of it can be named or graded: the
// exercise is an error saying it did not start, once, not a timeout of
// every check against the calls' CPU limit.
func TestEndlessInitIsAnError(t *testing.T) {
	if testing.Short() {
		t.Skip("the program spins 5 s of CPU before it is given up")
	}
	t.Parallel()
	ex := gradeSource(t, nil, "tokenbucket", map[string]string{"tokenbucket.go": `package tokenbucket

var spins = 0

func init() {
	for {
		spins++
	}
}

type TokenBucket struct{}

func New(capacity, ratePerSec, nowNs uint64) *TokenBucket { return &TokenBucket{} }
func (b *TokenBucket) TryAcquire(nowNs, n uint64) bool    { return true }
func (b *TokenBucket) Available(nowNs uint64) uint64      { return 0 }
`}, false)
	if ex.Status != report.Error || !strings.Contains(ex.Message, "did not start within 5s") {
		t.Errorf("status %s %q, want an error saying the program did not start", ex.Status, ex.Message)
	}
}
