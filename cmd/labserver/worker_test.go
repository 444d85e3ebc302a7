package main

import (
	"context"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket/wsjson"

	"ratelab/internal/class"
	"ratelab/internal/event"
	"ratelab/internal/store"
	"ratelab/internal/store/storetest"
)

// startWorker starts `labserver worker` on db; the process is killed when
// the test ends.
func startWorker(t *testing.T, db string, extra ...string) (*exec.Cmd, *syncBuffer) {
	t.Helper()
	cmd := exec.Command(binary, append([]string{"worker", "--db", db, "--build-cache", t.TempDir()}, extra...)...)
	cmd.Dir = "../.."
	log := &syncBuffer{}
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-done
		if t.Failed() {
			t.Logf("worker %d log:\n%s", cmd.Process.Pid, log.String())
		}
	})
	return cmd, log
}

// A class on Postgres: the server serves pages only (--workers 0), a
// worker grades; killed (SIGKILL) mid-grading, its job goes to a worker
// started after it once its lease runs out (3 s here; River's rescuer,
// the backstop, is set to 10 minutes, past the test's end), the learner's
// page says it is graded again, and the result is written once, which the
// dashboard hears through Postgres. Before the lease, the job waited for
// the rescuer: the job timeout plus up to 35 s.
func TestWorkersOnPostgres(t *testing.T) {
	if testing.Short() {
		t.Skip("kills a worker mid-grading")
	}
	db, tokens := setupClassOn(t, storetest.PostgresURL(t), "ada")
	s := startClassServer(t, db, "--workers", "0", "--no-bench")
	prof, _ := instructor(t, s)
	dash := dialDashboard(t, s, prof)

	first, firstLog := startWorker(t, db, "--no-bench", "--job-timeout", "20s", "--rescue-after", "10m", "--lease", "3s")
	code, _, m := post(t, s, tokens["ada"], "tokenbucket", solutionFiles(t, "tokenbucket")...)
	if code != 202 && code != 201 {
		t.Fatalf("submit: %d %v", code, m)
	}
	id := int64(m["id"].(float64))

	// Kill the first worker once it grades (the dashboard hears queued,
	// running and done, not the checks).
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	var (
		ev   class.Event
		seen []event.Type
	)
	for ev.Type != event.Running {
		ev = class.Event{}
		if err := wsjson.Read(ctx, dash, &ev); err != nil {
			t.Fatalf("dashboard websocket after %v: %v\nworker log:\n%s", seen, err, firstLog.String())
		}
		seen = append(seen, ev.Type)
	}
	first.Process.Signal(syscall.SIGKILL)
	startWorker(t, db, "--no-bench", "--job-timeout", "20s", "--rescue-after", "10m", "--lease", "3s")

	var regrading bool
	for ev.Type != event.Grade {
		ev = class.Event{} // a message absent is not the last event's
		if err := wsjson.Read(ctx, dash, &ev); err != nil {
			t.Fatalf("dashboard websocket after the kill: %v", err)
		}
		if ev.Type == event.Running && strings.Contains(ev.Message, "regrading after a worker stopped") {
			regrading = true
		}
	}
	if ev.Submission != id || ev.Cell == nil || !ev.Cell.Graded || ev.Summary == nil || ev.Score < 31 {
		t.Errorf("done event %+v; want submission %d graded (31 points or more without benchmarks), with a graded cell", ev, id)
	}
	if !regrading {
		t.Error(`no running event said "regrading after a worker stopped"`)
	}
	st := getSubmission(t, s, tokens["ada"], id)
	if st.State != store.Done || st.Result == nil {
		t.Errorf("submission %d: %+v; want done with a result", id, st)
	}
	sdb := openTestStore(t, db)
	var jobs, riverJobs int
	if err := sdb.DB().QueryRow(`SELECT (SELECT COUNT(*) FROM jobs WHERE state = 'done'), (SELECT COUNT(*) FROM river_job)`).Scan(&jobs, &riverJobs); err != nil {
		t.Fatal(err)
	}
	// One store job, one result; two River jobs, one per attempt handed
	// on (the killed worker's stays River's until its rescuer, whose
	// retry then finds the job no longer its own).
	if jobs != 1 || riverJobs != 2 {
		t.Errorf("%d jobs done, %d River jobs; want one job, and a River job for each of its two attempts", jobs, riverJobs)
	}
}

// A worker refuses to start, saying why, on a SQLite database and when its
// suites are not the server's.
func TestWorkerRefuses(t *testing.T) {
	if _, stderr, code := labserver(t, "", "worker", "--db", "class.db"); code != 2 || !strings.Contains(stderr, "Postgres URL") {
		t.Errorf("worker on a SQLite path: exit %d\n%s\nwant 2, asking for a Postgres URL", code, stderr)
	}
	db := storetest.PostgresURL(t)
	if _, stderr, code := labserver(t, "", "worker", "--db", db); code != 2 || !strings.Contains(stderr, "no class server has started") {
		t.Errorf("worker before any server: exit %d\n%s\nwant 2, saying no server started", code, stderr)
	}
	st := openTestStore(t, db)
	if err := st.SetSetting(t.Context(), "suites", "0123456789abcdef"); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := labserver(t, "", "worker", "--db", db); code != 2 || !strings.Contains(stderr, "differ from the server's (0123456789ab)") {
		t.Errorf("worker with other suites: exit %d\n%s\nwant 2, saying they differ", code, stderr)
	}
	if _, stderr, code := labserver(t, "", "serve", "--class", "--workers", "0", "--addr", "127.0.0.1:0", "--db", t.TempDir()+"/class.db"); code != 2 || !strings.Contains(stderr, "needs a Postgres --db") {
		t.Errorf("serve --workers 0 on SQLite: exit %d\n%s\nwant 2, asking for Postgres", code, stderr)
	}
}

// labserver migrate brings a database to the schema, River's tables
// included on Postgres, and a second run changes nothing.
func TestMigrate(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db string) {
		for run := 1; run <= 2; run++ {
			_, stderr, code := labserver(t, "", "migrate", "--db", db)
			if code != 0 || !strings.Contains(stderr, "schema version") {
				t.Fatalf("migrate (run %d): exit %d\n%s", run, code, stderr)
			}
			if strings.HasPrefix(db, "postgres") != strings.Contains(stderr, "River's tables up to date") {
				t.Errorf("migrate (run %d) said %q; River's tables are Postgres's only", run, stderr)
			}
		}
		st := openTestStore(t, db)
		if st.Backend() == store.Postgres {
			var n int
			if err := st.DB().QueryRow(`SELECT COUNT(*) FROM river_job`).Scan(&n); err != nil || n != 0 {
				t.Errorf("river_job after migrate: %d rows, %v; want an empty table", n, err)
			}
		}
	})
}
