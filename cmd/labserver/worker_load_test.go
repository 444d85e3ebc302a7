package main

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"ratelab/internal/store"
	"ratelab/internal/store/storetest"
)

// envInt is the integer in $name, or def.
func envInt(t *testing.T, name string, def int) int {
	t.Helper()
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		t.Fatalf("$%s = %q: want a count", name, v)
	}
	return n
}

// TestWorkersLoad drains a Postgres class's burst through `labserver
// worker` processes while an instructor keeps reloading the dashboard: 50
// learners submit $RATELAB_LOAD_EACH exercises' stubs each (default 2, at
// most 10: one per exercise, so nothing supersedes), $RATELAB_LOAD_WORKERS
// workers grade (default 3); with three or more, the first is SIGKILLed
// once a quarter is graded and the last starts only once half is (fewer
// all start at once and none is killed: a throughput figure). Every
// submission must be graded exactly once: one result each, one River job
// each, completed. It logs the throughput and the dashboard's latency;
// $RATELAB_LOAD_CACHE=0 builds every time.
func TestWorkersLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("grades a class's burst")
	}
	learners, each, workers := 50, envInt(t, "RATELAB_LOAD_EACH", 2), envInt(t, "RATELAB_LOAD_WORKERS", 3)
	exercises := []string{"tokenbucket", "gcra", "slidingwindow", "governor", "gradient2", "hierarchy", "fairqueue", "gateway", "throttle", "breaker"}
	if each < 1 || each > len(exercises) || workers < 1 {
		t.Fatalf("RATELAB_LOAD_EACH %d, RATELAB_LOAD_WORKERS %d: want 1 to 10, and 1 or more", each, workers)
	}
	var names []string
	for i := range learners {
		names = append(names, fmt.Sprintf("learner%02d", i))
	}
	db, tokens := setupClassOn(t, storetest.PostgresURL(t), names...)
	s := startClassServer(t, db, "--workers", "0", "--no-bench", "--submit-burst", "1000")
	prof, _ := instructor(t, s)
	workerFlags := []string{"--no-bench", "--job-timeout", "20s", "--rescue-after", "30s"}
	if os.Getenv("RATELAB_LOAD_CACHE") == "0" {
		workerFlags = append(workerFlags, "--build-cache", "")
	}
	files := map[string][]upload{}
	for _, ex := range exercises[:each] {
		files[ex] = loadUploads(t, filepath.Join("..", "..", "exercises", ex))
	}

	st := openTestStore(t, db)
	start := time.Now()
	var wg sync.WaitGroup
	ids := make(chan int64, learners*each)
	for _, name := range names {
		wg.Go(func() {
			for _, ex := range exercises[:each] {
				code, _, body := post(t, s, tokens[name], ex, files[ex]...)
				if code != http.StatusAccepted {
					t.Errorf("%s: %d %v", name, code, body)
					return
				}
				ids <- int64(body["id"].(float64))
			}
		})
	}
	wg.Wait()
	close(ids)
	queuedIn := time.Since(start)
	total := learners * each

	started := workers
	if workers >= 3 {
		started = workers - 1 // the last starts late
	}
	var cmds []*os.Process
	for range started {
		cmd, _ := startWorker(t, db, workerFlags...)
		cmds = append(cmds, cmd.Process)
	}

	dash := pollDashboard(t, prof, s.URL+"/class/dashboard")
	killed, late := workers < 3, workers < 3
	deadline := time.Now().Add(20 * time.Minute)
	for {
		done, err := st.CountJobs(context.Background(), store.Done)
		if err != nil {
			t.Fatal(err)
		}
		if done == total {
			break
		}
		if !killed && done >= total/4 {
			killed = true
			cmds[0].Signal(syscall.SIGKILL)
			t.Logf("%s: first worker SIGKILLed, %d of %d graded", time.Since(start).Round(time.Millisecond), done, total)
		}
		if !late && done >= total/2 {
			late = true
			startWorker(t, db, workerFlags...)
			t.Logf("%s: last worker started, %d of %d graded", time.Since(start).Round(time.Millisecond), done, total)
		}
		if time.Now().After(deadline) {
			dash.stop()
			t.Fatalf("%d of %d graded after 20 minutes", done, total)
		}
		time.Sleep(200 * time.Millisecond) // polling the store, with a deadline
	}
	elapsed := time.Since(start)
	dash.stop()

	var want []int64
	for id := range ids {
		want = append(want, id)
	}
	slices.Sort(want)
	gs, err := st.Gradings(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var got []int64
	for _, g := range gs {
		got = append(got, g.SubmissionID)
		if g.State != store.Done || g.Status == "" {
			t.Errorf("job %d: %s %q; want done with a result", g.JobID, g.State, g.Status)
		}
	}
	slices.Sort(got)
	if len(want) != total || !slices.Equal(got, want) {
		t.Errorf("%d submissions accepted, %d jobs: want %d, one job each", len(want), len(got), total)
	}
	// River marks jobs completed in batches, shortly after they return; a
	// job whose worker was killed between writing its result and River's
	// batch is rescued (after --rescue-after, River looking every 30 s)
	// and completed by its retry, which finds the result written and
	// changes nothing.
	var riverJobs, completed, retried, firstClients, maxAttempt int
	for end := time.Now().Add(2 * time.Minute); ; {
		if err := st.DB().QueryRow(`SELECT COUNT(*), COUNT(*) FILTER (WHERE state = 'completed'), COUNT(*) FILTER (WHERE attempt > 1),
			COUNT(DISTINCT attempted_by[1]) FILTER (WHERE attempt > 1), COALESCE(MAX(attempt), 0) FROM river_job`).
			Scan(&riverJobs, &completed, &retried, &firstClients, &maxAttempt); err != nil {
			t.Fatal(err)
		}
		if completed == riverJobs || time.Now().After(end) {
			break
		}
		time.Sleep(100 * time.Millisecond) // polling River's table, with a deadline
	}
	// Each hand-over to River is one River job and one attempt of the
	// store job: a job whose worker was killed mid-grading is handed on
	// again once its lease runs out.
	var attempts int
	if err := st.DB().QueryRow(`SELECT COALESCE(SUM(attempts), 0) FROM jobs`).Scan(&attempts); err != nil {
		t.Fatal(err)
	}
	if riverJobs != attempts || completed != riverJobs || riverJobs < total || riverJobs > total+1 {
		t.Errorf("River jobs: %d, %d completed, for %d attempts of %d jobs; want one per attempt, all completed, and at most one job handed on again (the killed worker's)", riverJobs, completed, attempts, total)
	}
	// Only the killed worker's River jobs run twice: the one it was
	// grading, and those it had finished that River's batch had not yet
	// marked completed (how many depends on when the batch last ran). So
	// every retried job was first taken by one River client, and none
	// took more than two attempts; with no worker killed, none is retried.
	switch {
	case workers < 3 && retried != 0:
		t.Errorf("%d River jobs took more than one attempt, and no worker was killed; want none", retried)
	case firstClients > 1 || maxAttempt > 2:
		t.Errorf("%d River jobs took more than one attempt, first taken by %d River clients, up to %d attempts; want only the killed worker's jobs, each twice",
			retried, firstClients, maxAttempt)
	}
	t.Logf("%d submissions from %d learners queued in %s; all graded in %s: %.2f submissions/s with %d workers (cache %v); %d River jobs retried, first taken by %d River client(s), at most %d attempts",
		total, learners, queuedIn.Round(time.Millisecond), elapsed.Round(time.Millisecond), float64(total)/elapsed.Seconds(), workers,
		os.Getenv("RATELAB_LOAD_CACHE") != "0", retried, firstClients, maxAttempt)
	t.Logf("dashboard during the drain: %s", dash.summary())
}
