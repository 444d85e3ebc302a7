package class_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"ratelab/grader"
	"ratelab/grader/buildcache"
	"ratelab/grader/report"
	"ratelab/grader/sandbox"
	"ratelab/internal/class"
	"ratelab/internal/event"
	"ratelab/internal/store"
	"ratelab/internal/store/storetest"
)

type wall struct{}

func (wall) Now() time.Time { return time.Now() }

type fixture struct {
	c    *class.Class
	st   *store.Store
	db   string
	ada  store.User
	bob  store.User
	done *class.Subscription
}

// newClass starts a class on a fresh store whose gradings grade calls
// instead of the grader.
func newClass(t *testing.T, cfg class.Config, grade func(context.Context, grader.Options) (*report.Report, error)) *fixture {
	t.Helper()
	return newClassOn(t, filepath.Join(t.TempDir(), "lab.db"), cfg, grade)
}

// newClassOn is newClass on the database db (a SQLite path or a Postgres
// URL, see storetest).
func newClassOn(t *testing.T, db string, cfg class.Config, grade func(context.Context, grader.Options) (*report.Report, error)) *fixture {
	t.Helper()
	st, err := store.Open(t.Context(), db, wall{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	f := &fixture{st: st, db: db}
	for _, n := range []string{"ada", "bob"} {
		u, err := st.AddLearner(t.Context(), n, []byte(n))
		if err != nil {
			t.Fatal(err)
		}
		if n == "ada" {
			f.ada = u
		} else {
			f.bob = u
		}
	}
	cfg.Store, cfg.Clock, cfg.Root = st, wall{}, "../.."
	if cfg.TempDir == "" {
		cfg.TempDir = filepath.Join(t.TempDir(), "tmp")
	}
	f.c = class.New(cfg)
	class.SetGradeForTest(f.c, grade)
	f.done = f.c.Subscribe(0)
	ctx, cancel := context.WithCancel(context.Background())
	if err := f.c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); f.c.Wait() })
	return f
}

// waitDone waits for the Grade event of a submission.
func (f *fixture) waitDone(t *testing.T, sub int64) class.Event {
	t.Helper()
	return f.wait(t, sub, event.Grade)
}

// wait waits for an event of a submission.
func (f *fixture) wait(t *testing.T, sub int64, typ event.Type) class.Event {
	t.Helper()
	timeout := time.After(20 * time.Second)
	for {
		select {
		case e, ok := <-f.done.C:
			if !ok {
				t.Fatal("subscription dropped")
			}
			if e.Type == typ && e.Submission == sub {
				return e
			}
		case <-timeout:
			t.Fatalf("submission %d: no %s event", sub, typ)
		}
	}
}

func (f *fixture) submit(t *testing.T, u store.User, src string) store.Submission {
	t.Helper()
	sub, err := f.c.Submit(t.Context(), u, "tokenbucket", []store.File{{Name: "tokenbucket.go", Content: []byte(src)}})
	if err != nil {
		t.Fatal(err)
	}
	return sub
}

func result(status report.Status, msg string) *report.Report {
	return &report.Report{Exercises: []report.Exercise{{ID: "tokenbucket", Status: status, Message: msg, Score: 1, MaxScore: 2,
		Checks: []report.Check{{ID: "tokenbucket/x", Pitfall: "fractional-tokens", Status: report.Failed}}}}}
}

// notBuilt is the grader's report of code that does not build, lines the
// compiler's.
func notBuilt(lines string) *report.Report {
	r := result("", "")
	grader.SetCompileError(&r.Exercises[0], lines)
	return r
}

// notStarted is the grader's report of a grading program that could not
// start (the server's fault), msg its message.
func notStarted(msg string) *report.Report {
	r := result(report.Error, msg)
	r.Exercises[0].Fault = report.FaultServer
	return r
}

// A grading that fails for the server's reasons is retried, and reported
// as the server's problem if it keeps failing: never as the learner's result.
func TestServerFailuresAreRetriedNotStored(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db string) {
		fails := []func() (*report.Report, error){
			func() (*report.Report, error) { return nil, errors.New("fork/exec /usr/bin/go: too many open files") },
			func() (*report.Report, error) { return notBuilt(""), nil },
			func() (*report.Report, error) {
				return notStarted("the grading program stopped before running any check: pipe2: too many open files"), nil
			},
		}
		var calls atomic.Int32
		f := newClassOn(t, db, class.Config{Retries: 3, RetryDelay: time.Nanosecond}, func(ctx context.Context, o grader.Options) (*report.Report, error) {
			n := calls.Add(1)
			if n < 0 {
				return fails[0]()
			}
			if int(n) <= len(fails) {
				return fails[n-1]()
			}
			return result(report.Failed, ""), nil
		})
		sub := f.submit(t, f.ada, okSource)
		e := f.waitDone(t, sub.ID)
		if e.Summary == nil || e.Status != report.Failed || calls.Load() != 4 {
			t.Fatalf("done after %d gradings: %+v; want the fourth's result", calls.Load(), e)
		}
		got, _ := f.st.Submission(t.Context(), sub.ID)
		if got.Job.Retries != 3 || got.Job.Error != "" || got.Job.ServerFault {
			t.Errorf("job = %+v; want 3 retries and the result", got.Job)
		}

		// One that never stops failing is the server's problem, said so.
		calls.Store(-100)
		sub = f.submit(t, f.bob, okSource)
		e = f.waitDone(t, sub.ID)
		got, _ = f.st.Submission(t.Context(), sub.ID)
		if e.Summary != nil || !got.Job.ServerFault || !strings.Contains(got.Job.Error, "the server's problem") || got.Job.Result != nil {
			t.Errorf("job = %+v; want no result, the server's fault", got.Job)
		}
	})
}

// A grading that finds the disk full empties the build caches (the built
// programs and the sandbox's Go build cache) and is retried, so the class
// goes on once there is room; the learner's result is the retry's. One that
// never finds room says so, as the server's problem.
func TestDiskFullEmptiesTheBuildCaches(t *testing.T) {
	dir := t.TempDir()
	cache, err := buildcache.Open(filepath.Join(dir, "programs"), 1<<30)
	if err != nil {
		t.Fatal(err)
	}
	program := filepath.Join(dir, "program")
	if err := os.WriteFile(program, make([]byte, 4096), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := cache.Put(buildcache.Key{1}, program); err != nil {
		t.Fatal(err)
	}
	sb := &sandbox.Sandbox{Log: t.Logf, Build: sandbox.BuildLimits{Cache: filepath.Join(dir, "gocache")}}
	if err := os.MkdirAll(filepath.Join(sb.Build.Cache, "00"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(sb.Build.Cache, "00", "a-d"), make([]byte, 4096), 0o644); err != nil {
		t.Fatal(err)
	}
	full := "go: writing stat cache: open /tmp/ratelab-build-cache/00/x: no space left on device"
	var calls atomic.Int32
	f := newClass(t, class.Config{Retries: 2, RetryDelay: time.Nanosecond, BuildCache: cache, Sandbox: sb}, func(ctx context.Context, o grader.Options) (*report.Report, error) {
		if n := calls.Add(1); n == 1 || n < 0 {
			return notBuilt(full), nil
		}
		return result(report.Failed, ""), nil
	})
	sub := f.submit(t, f.ada, okSource)
	e := f.waitDone(t, sub.ID)
	if e.Summary == nil || e.Status != report.Failed || calls.Load() != 2 {
		t.Fatalf("done after %d gradings: %+v; want the retry's result", calls.Load(), e)
	}
	if cache.Get(buildcache.Key{1}, filepath.Join(dir, "got"), 0o755) {
		t.Error("the build cache still holds its program after the disk was full; want it emptied")
	}
	if _, err := os.Stat(filepath.Join(sb.Build.Cache, "00", "a-d")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the sandbox's Go build cache still holds its file after the disk was full (%v); want it emptied", err)
	}

	// A disk that stays full: the server's problem, said with the reason.
	calls.Store(-100)
	sub = f.submit(t, f.bob, okSource)
	f.waitDone(t, sub.ID)
	got, _ := f.st.Submission(t.Context(), sub.ID)
	if !got.Job.ServerFault || !strings.Contains(got.Job.Error, "no space left on device") || !strings.Contains(got.Job.Error, "the server's problem") {
		t.Errorf("a disk that stays full: job error %q, server fault %v; want the server's problem, naming no space left on device", got.Job.Error, got.Job.ServerFault)
	}
}

// A busy database is retried until the write goes through.
func TestBusyStoreIsRetried(t *testing.T) {
	f := newClass(t, class.Config{}, nil)
	var n int
	err := class.RetryStoreForTest(f.c, time.Millisecond, t.Context(), func(context.Context) error {
		if n++; n < 4 {
			return errors.New("store: database is locked (5) (SQLITE_BUSY)")
		}
		return nil
	})
	if err != nil || n != 4 {
		t.Errorf("retryStore = %v after %d writes; want nil after 4", err, n)
	}
	n = 0
	err = class.RetryStoreForTest(f.c, time.Millisecond, t.Context(), func(context.Context) error { n++; return store.ErrNotRunning })
	if !errors.Is(err, store.ErrNotRunning) || n != 1 {
		t.Errorf("retryStore of a job not running = %v after %d writes; want ErrNotRunning after 1", err, n)
	}
}

// A result is stored even when the database stays locked past its busy
// timeout (5 s) when the grading finishes.
func TestLockedDatabaseKeepsTheResult(t *testing.T) {
	if testing.Short() {
		t.Skip("holds the database's lock for 6 s")
	}
	graded := make(chan struct{})
	release := make(chan struct{})
	f := newClass(t, class.Config{}, func(ctx context.Context, o grader.Options) (*report.Report, error) {
		close(graded)
		<-release
		return result(report.Failed, ""), nil
	})
	sub := f.submit(t, f.ada, okSource)
	<-graded
	db, err := sql.Open("sqlite", "file:"+f.db+"?_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	conn, err := db.Conn(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(t.Context(), "BEGIN EXCLUSIVE"); err != nil {
		t.Fatal(err)
	}
	close(release)
	time.Sleep(6 * time.Second) // past the store's busy timeout: the first write fails
	if _, err := conn.ExecContext(t.Context(), "COMMIT"); err != nil {
		t.Fatal(err)
	}
	e := f.waitDone(t, sub.ID)
	got, _ := f.st.Submission(t.Context(), sub.ID)
	if e.Summary == nil || got.Job.State != store.Done || got.Job.Result == nil {
		t.Errorf("after the lock: job %+v; want done with its result", got.Job)
	}
}

// The class's temporary folders: a previous run's leftovers are removed at
// start (only its own), each grading's when it ends, and compile errors name
// the learner's files, not the server's folders.
func TestTemporaryFolders(t *testing.T) {
	tmp := filepath.Join(t.TempDir(), "tmp")
	leftover := filepath.Join(tmp, "job-7-123", "tokenbucket")
	if err := os.MkdirAll(leftover, 0o755); err != nil {
		t.Fatal(err)
	}
	keep := filepath.Join(tmp, "notes")
	os.WriteFile(keep, nil, 0o644)
	dirs := make(chan string, 2)
	f := newClass(t, class.Config{TempDir: tmp, JobTimeout: 50 * time.Millisecond}, func(ctx context.Context, o grader.Options) (*report.Report, error) {
		dir := o.Replace["tokenbucket"]
		dirs <- dir
		if _, err := os.Stat(filepath.Join(dir, "tokenbucket.go")); err != nil {
			return nil, err
		}
		if strings.Contains(string(must(os.ReadFile(filepath.Join(dir, "tokenbucket.go")))), "spin") {
			<-ctx.Done() // times out
			return nil, ctx.Err()
		}
		return notBuilt(dir + "/tokenbucket.go:3:12: undefined: y"), nil
	})
	if _, err := os.Stat(filepath.Join(tmp, "job-7-123")); !os.IsNotExist(err) {
		t.Errorf("a previous run's folder is still there: %v", err)
	}
	if _, err := os.Stat(keep); err != nil {
		t.Errorf("Start removed a file that is not a grading's: %v", err)
	}
	sub := f.submit(t, f.ada, okSource)
	e := f.waitDone(t, sub.ID)
	if e.Summary == nil || e.Summary.Message != "does not build:\ntokenbucket.go:3:12: undefined: y" || e.Summary.Compiler != "tokenbucket.go:3:12: undefined: y" {
		t.Errorf("compile error = %+v; want it to name tokenbucket.go only", e.Summary)
	}
	spin := f.submit(t, f.bob, okSource+"// spin\n")
	if e := f.waitDone(t, spin.ID); !strings.Contains(e.Message, "longer than") {
		t.Errorf("spinning submission: %+v; want a timeout", e)
	}
	for range 2 {
		d := <-dirs
		if !strings.HasPrefix(d, tmp+string(filepath.Separator)+"job-") {
			t.Errorf("graded in %s; want a job- folder of %s", d, tmp)
		}
		if _, err := os.Stat(filepath.Dir(d)); !os.IsNotExist(err) {
			t.Errorf("a grading's folder is left: %s (%v)", filepath.Dir(d), err)
		}
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// A learner's newer submission of an exercise supersedes the one still
// waiting: it is not graded, and its page is told.
// A full queue still takes a submission that only replaces the learner's
// waiting one of the same exercise: it adds nothing to the queue. Anyone
// else's is refused until there is room.
func TestFullQueueTakesASupersedingSubmission(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db string) {
		block := make(chan struct{})
		f := newClassOn(t, db, class.Config{MaxQueue: 1}, func(ctx context.Context, o grader.Options) (*report.Report, error) {
			<-block
			return result(report.Failed, ""), nil
		})
		defer close(block)
		first := f.submit(t, f.ada, okSource+"//1") // claimed at once, blocks the worker
		f.wait(t, first.ID, event.Running)
		second := f.submit(t, f.ada, okSource+"//2") // waits: the queue is full
		files := []store.File{{Name: "tokenbucket.go", Content: []byte(okSource + "//b")}}
		if _, err := f.c.Submit(t.Context(), f.bob, "tokenbucket", files); !errors.Is(err, class.ErrQueueFull) {
			t.Fatalf("bob's submission to a full queue = %v; want ErrQueueFull", err)
		}
		third, err := f.c.Submit(t.Context(), f.ada, "tokenbucket", []store.File{{Name: "tokenbucket.go", Content: []byte(okSource + "//3")}})
		if err != nil {
			t.Fatalf("ada's submission replacing her waiting one, the queue full = %v; want it taken", err)
		}
		if got, _ := f.st.Submission(t.Context(), second.ID); got.Job.State != store.Superseded {
			t.Errorf("the replaced submission: state %q; want superseded", got.Job.State)
		}
		if n, err := f.st.CountJobs(t.Context(), store.Queued); err != nil || n != 1 {
			t.Errorf("jobs queued after the replacement = %d, %v; want 1 (the third, %d)", n, err, third.ID)
		}
	})
}

// One learner's submissions to all ten exercises at once do not crowd out
// another learner: the other's first submission is graded after at most
// one more of theirs than the one already running. On SQLite the queue
// serves learners in turn; on Postgres the dispatcher also keeps River's
// queue short (Config.DispatchDepth), since River serves its jobs in the
// order they came.
func TestOneLearnerCannotCrowdOutAnother(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db string) {
		release := make(chan struct{})
		var (
			mu    sync.Mutex
			order []string
		)
		f := newClassOn(t, db, class.Config{}, func(ctx context.Context, o grader.Options) (*report.Report, error) {
			ex := o.Exercises[0]
			src := string(must(os.ReadFile(filepath.Join(o.Replace[ex], ex+".go"))))
			mu.Lock()
			order = append(order, src)
			mu.Unlock()
			select {
			case <-release:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			return result(report.Failed, ""), nil
		})
		submitTo := func(u store.User, ex string) store.Submission {
			t.Helper()
			sub, err := f.c.Submit(t.Context(), u, ex, []store.File{{Name: ex + ".go", Content: []byte(u.Name + " " + ex)}})
			if err != nil {
				t.Fatal(err)
			}
			return sub
		}
		exercises := []string{"tokenbucket", "gcra", "slidingwindow", "hierarchy", "fairqueue", "gateway", "governor", "gradient2", "throttle", "breaker"}
		first := submitTo(f.ada, exercises[0])
		f.wait(t, first.ID, event.Running)
		for _, ex := range exercises[1:] {
			submitTo(f.ada, ex)
		}
		// Time for Postgres's dispatcher to hand ada's jobs to River, as
		// it would before bob's came (it runs on every submission's
		// notification); the verdict below holds however long it had.
		time.Sleep(time.Second)
		submitTo(f.bob, "tokenbucket")
		// Let the gradings go one at a time until bob's has started.
		for {
			mu.Lock()
			started := slices.Contains(order, "bob tokenbucket")
			mu.Unlock()
			if started {
				break
			}
			select {
			case release <- struct{}{}:
			case <-time.After(20 * time.Second):
				mu.Lock()
				t.Fatalf("no grading took its release within 20s; graded so far %q", order)
			}
		}
		mu.Lock()
		defer mu.Unlock()
		at := slices.Index(order, "bob tokenbucket")
		if at < 0 || at > 2 {
			t.Errorf("gradings in order %q: bob's first submission was graded %d-th; want it within the first three (ada's running one, at most one more of hers, then bob's)", order, at+1)
		}
	})
}

func TestNewerSubmissionSupersedes(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db string) {
		block := make(chan struct{})
		var graded []string
		f := newClassOn(t, db, class.Config{}, func(ctx context.Context, o grader.Options) (*report.Report, error) {
			<-block
			src := string(must(os.ReadFile(filepath.Join(o.Replace["tokenbucket"], "tokenbucket.go"))))
			graded = append(graded, src[len(src)-2:])
			return result(report.Failed, ""), nil
		})
		first := f.submit(t, f.ada, okSource+"//1") // claimed at once, blocks the worker
		f.wait(t, first.ID, event.Running)
		second := f.submit(t, f.ada, okSource+"//2") // waits
		third := f.submit(t, f.ada, okSource+"//3")  // supersedes the second
		if e := f.waitDone(t, second.ID); e.Summary != nil || !strings.Contains(e.Message, fmt.Sprint(third.ID)) {
			t.Errorf("second submission's done event = %+v; want superseded by %d", e, third.ID)
		}
		close(block)
		f.waitDone(t, first.ID)
		f.waitDone(t, third.ID)
		if got, _ := f.st.Submission(t.Context(), second.ID); got.Job.State != store.Superseded {
			t.Errorf("second submission: state %q; want superseded", got.Job.State)
		}
		if strings.Join(graded, ",") != "/1,/3" {
			t.Errorf("graded %q; want the first and the third", graded)
		}
	})
}
