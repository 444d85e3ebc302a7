package main

import (
	"database/sql"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"ratelab/internal/store/storetest"
)

// Postgres going away in the middle of a drain, as a restart does: every
// connection of the class's database cut and none let in for 2 s, then cut
// again. The server and the worker connect again, and every submission is
// graded exactly once, none lost; the dashboard says the database was
// away.
func TestPostgresAwayDuringADrain(t *testing.T) {
	if testing.Short() {
		t.Skip("grades a dozen submissions on Postgres")
	}
	names := []string{"ada", "bob", "cy", "dee"}
	db, tokens := setupClassOn(t, storetest.PostgresURL(t), names...)
	s := startClassServer(t, db, "--workers", "0", "--no-bench")
	_, workerLog := startWorker(t, db, "--no-bench")
	type sub struct {
		id  int64
		who string
	}
	var ids []sub
	for _, n := range names {
		for _, ex := range []string{"tokenbucket", "gcra", "slidingwindow"} {
			code, _, m := post(t, s, tokens[n], ex, solutionFiles(t, ex)...)
			if code != 202 && code != 201 {
				t.Fatalf("%s submitting %s: %d %v", n, ex, code, m)
			}
			ids = append(ids, sub{int64(m["id"].(float64)), n})
		}
	}
	sdb := openTestStore(t, db)
	// The cuts come from the server's maintenance database, as an
	// operator's would: a database cannot refuse connections to itself.
	admin, err := sql.Open("pgx", os.Getenv(storetest.URLEnv))
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	var name string
	if err := sdb.DB().QueryRow(`SELECT current_database()`).Scan(&name); err != nil {
		t.Fatal(err)
	}
	cut := func() int {
		t.Helper()
		var n int
		if err := admin.QueryRow(`SELECT COUNT(*) FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity
			WHERE datname = $1) AS cut`, name).Scan(&n); err != nil {
			t.Fatalf("cutting the database's connections: %v", err)
		}
		return n
	}
	allow := func(on bool) {
		t.Helper()
		if _, err := admin.Exec(fmt.Sprintf(`ALTER DATABASE %q WITH ALLOW_CONNECTIONS %v`, name, on)); err != nil {
			t.Fatalf("ALLOW_CONNECTIONS %v: %v", on, err)
		}
	}
	// Once the drain has begun, cut every connection; again a moment later.
	for deadline := time.Now().Add(2 * time.Minute); ; {
		var done int
		if err := sdb.DB().QueryRow(`SELECT COUNT(*) FROM jobs WHERE state = 'done'`).Scan(&done); err != nil {
			t.Fatal(err)
		}
		if done >= 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no grading done within 2 minutes:\n%s", workerLog.String())
		}
		time.Sleep(50 * time.Millisecond) // polling the store, with a deadline
	}
	// Away for two seconds: no connection is let in while it is down.
	allow(false)
	defer admin.Exec(fmt.Sprintf(`ALTER DATABASE %q WITH ALLOW_CONNECTIONS true`, name))
	first := cut()
	time.Sleep(2 * time.Second) // the database is away this long
	allow(true)
	time.Sleep(500 * time.Millisecond)
	second := cut()
	t.Logf("cut %d connections, the database away for 2 s, then %d", first, second)
	if first == 0 {
		t.Fatal("no connection was cut: the test would prove nothing")
	}
	for _, sb := range ids {
		if st := awaitGraded(t, s, tokens[sb.who], sb.id, 3*time.Minute); st.Result == nil || st.Error != "" {
			t.Errorf("submission %d: %+v; want graded, with a result", sb.id, st)
		}
	}
	// The dashboard says the database was away, and that the class went on.
	prof, _ := instructor(t, s)
	if code, page := get(t, prof, s.URL+"/class/dashboard"); code != 200 || !strings.Contains(page, `data-testid="db-away"`) || !strings.Contains(page, "The database was away from") {
		if i := strings.Index(page, "<main"); i >= 0 {
			t.Logf("dashboard: %.600s", page[i:])
		}
		t.Errorf("the dashboard after the database was away = %d, saying it: %v; want it to say when the database was away\nserver log:\n%s", code, strings.Contains(page, "The database was away"), s.log.String())
	}
	// One River job per submission, and one more for each time a worker
	// could not grade for the server's reasons and queued the job again
	// (the database away as it read the submission): those graded nothing.
	var done, results, runs, retries int
	if err := sdb.DB().QueryRow(`SELECT (SELECT COUNT(*) FROM jobs WHERE state = 'done'),
		(SELECT COUNT(*) FROM jobs WHERE result IS NOT NULL), (SELECT COUNT(*) FROM river_job WHERE kind = 'ratelab_grade'),
		(SELECT COALESCE(SUM(retries), 0) FROM jobs)`).Scan(&done, &results, &runs, &retries); err != nil {
		t.Fatal(err)
	}
	if done != len(ids) || results != len(ids) || runs != len(ids)+retries {
		t.Errorf("%d submissions: %d jobs done, %d results, %d River jobs with %d retried by the server; want each graded once\n%s\nworker log:\n%s\nserver log:\n%s",
			len(ids), done, results, runs, retries, queueRows(t, sdb.DB()), workerLog.String(), s.log.String())
	}
}

// queueRows lists the store's jobs and River's grading jobs, for a
// failure's message.
func queueRows(t *testing.T, db *sql.DB) string {
	t.Helper()
	var b strings.Builder
	for _, q := range []string{
		`SELECT 'job ' || id || ': ' || state || ', attempts ' || attempts || ', retries ' || retries FROM jobs ORDER BY id`,
		`SELECT 'river ' || id || ': job ' || (args->>'job') || ' attempt ' || COALESCE(args->>'attempt', '-') || ', ' || state || ', river attempt ' || attempt || ', errors ' || COALESCE(array_length(errors, 1), 0) FROM river_job WHERE kind = 'ratelab_grade' ORDER BY id`,
	} {
		rows, err := db.Query(q)
		if err != nil {
			fmt.Fprintf(&b, "%v\n", err)
			continue
		}
		for rows.Next() {
			var line string
			if rows.Scan(&line) == nil {
				b.WriteString(line + "\n")
			}
		}
		rows.Close()
	}
	return b.String()
}
