package watch

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// fakeTimers is an after func whose timers the test fires by hand: every
// call hands its channel to armed.
type fakeTimers struct{ armed chan chan time.Time }

func (f fakeTimers) after(time.Duration) <-chan time.Time {
	c := make(chan time.Time, 1)
	f.armed <- c
	return c
}

func start(t *testing.T) (in chan string, out chan []string, armed chan chan time.Time) {
	t.Helper()
	in, out = make(chan string), make(chan []string)
	f := fakeTimers{armed: make(chan chan time.Time, 16)}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	go Debounce(ctx, in, time.Second, f.after, out)
	return in, out, f.armed
}

func TestDebounceWaitsForQuietThenSendsEachOnce(t *testing.T) {
	in, out, armed := start(t)
	in <- "gcra"
	first := <-armed
	in <- "tokenbucket"
	second := <-armed
	in <- "gcra"
	third := <-armed
	// The burst's earlier timers firing changes nothing: only the last
	// one, armed by the last save, counts.
	first <- time.Time{}
	second <- time.Time{}
	select {
	case got := <-out:
		t.Fatalf("sent %q before the burst was quiet", got)
	default:
	}
	third <- time.Time{}
	if got := <-out; !slices.Equal(got, []string{"gcra", "tokenbucket"}) {
		t.Errorf("batch = %q, want [gcra tokenbucket]", got)
	}
}

func TestDebounceKeepsSavesWhileTheReaderIsBusy(t *testing.T) {
	in, out, armed := start(t)
	in <- "gcra"
	(<-armed) <- time.Time{}
	// Nobody reads out yet: more saves join the batch waiting.
	in <- "slidingwindow"
	(<-armed) <- time.Time{}
	if got := <-out; !slices.Equal(got, []string{"gcra", "slidingwindow"}) {
		t.Errorf("batch = %q, want both saves", got)
	}
	in <- "governor"
	(<-armed) <- time.Time{}
	if got := <-out; !slices.Equal(got, []string{"governor"}) {
		t.Errorf("next batch = %q, want only the new save", got)
	}
}

func TestDebounceFlushesWhenInputEnds(t *testing.T) {
	in, out, armed := start(t)
	in <- "gradient2"
	<-armed
	close(in)
	if got := <-out; !slices.Equal(got, []string{"gradient2"}) {
		t.Errorf("batch = %q, want the pending save", got)
	}
	if _, ok := <-out; ok {
		t.Error("out still open after the input ended")
	}
}

func TestExerciseOf(t *testing.T) {
	dir := filepath.FromSlash("/repo/exercises")
	for path, want := range map[string]string{
		"/repo/exercises/tokenbucket/tokenbucket.go": "tokenbucket",
		"/repo/exercises/gcra/gcra_test.go":          "gcra",
		"/repo/exercises/gcra/notes.txt":             "",
		"/repo/exercises/top.go":                     "",
		"/repo/solutions/gcra/gcra.go":               "",
		"/repo/exercises/.hidden/x.go":               "",
	} {
		got, ok := exerciseOf(dir, filepath.FromSlash(path))
		if got != want || ok != (want != "") {
			t.Errorf("exerciseOf(%s) = %q, %v; want %q", path, got, ok, want)
		}
	}
}

// TestTreeSeesASave writes a file under a watched tree and waits for the
// batch naming its exercise (bounded by a deadline: the watch is real).
func TestTreeSeesASave(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "tokenbucket"), 0o755); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	changes, err := Tree(ctx, dir)
	if err != nil {
		t.Skipf("no file watching here: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "tokenbucket", "tokenbucket.go"), []byte("package tokenbucket\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	select {
	case got := <-changes:
		if !slices.Equal(got, []string{"tokenbucket"}) {
			t.Errorf("batch = %q, want [tokenbucket]", got)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no batch within 10s of a save")
	}
}
