package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"ratelab/internal/store"
)

// tokenbucketWith returns the reference token bucket with one method's
// body replaced, or with extra code appended.
func tokenbucketWith(t *testing.T, replace, with, extra string) []upload {
	t.Helper()
	files := solutionFiles(t, "tokenbucket")
	for i := range files {
		if files[i].name != "tokenbucket.go" {
			continue
		}
		if replace != "" {
			if !strings.Contains(files[i].content, replace) {
				t.Fatalf("the reference has no %q to replace", replace)
			}
			files[i].content = strings.Replace(files[i].content, replace, with, 1)
		}
		files[i].content += extra
	}
	return files
}

// TestClassHostileSubmissions sends broken and hostile code: each is
// refused or graded with a clear message, the server stays up, and another
// learner's result is untouched. Each is also saved as a draft and checked
// (POST /class/api/checks): a draft is refused as its submission is, and a
// check goes through the same workers and sandbox, so it is confined
// exactly as its submission: the same status, the same message.
func TestClassHostileSubmissions(t *testing.T) {
	if testing.Short() {
		t.Skip("grades a dozen hostile submissions")
	}
	t.Parallel() // a server and a database of its own
	db, tokens := setupClass(t, "good", "mallory")
	// A call may take 250ms of CPU, not 2s: the infinite loop spins that
	// long in each check that calls Available, a dozen.
	s := startClassServer(t, db, "--no-bench", "--check-timeout", "2s", "--call-cpu", "250ms", "--submit-burst", "100", "--check-burst", "100")
	code, _, body := post(t, s, tokens["good"], "tokenbucket", solutionFiles(t, "tokenbucket")...)
	if code != http.StatusAccepted {
		t.Fatalf("good's submission: %d %v", code, body)
	}
	goodID := int64(body["id"].(float64))
	good := awaitGraded(t, s, tokens["good"], goodID, time.Minute)
	if good.Result == nil || good.Result.Score != 31 {
		t.Fatalf("good's reference submission: %+v, want 31 points without benchmarks", good)
	}
	mal := tokens["mallory"]

	refused := []struct {
		name  string
		files []upload
		code  int
		want  string
		// badName: refused for its file names, which a draft's save
		// judges too; the others for their source, which Check judges.
		badName bool
	}{
		{"fork attempt", tokenbucketWith(t, "", "", "\nfunc init() { exec.Command(\"/bin/sh\", \"-c\", \":(){ :|:& };:\").Start() }\n"), 422, "", false},
		{"forbidden import", []upload{{"tokenbucket.go", "package tokenbucket\n\nimport \"unsafe\"\n\nvar _ = unsafe.Sizeof(0)\n"}}, 422, `import "unsafe" is not allowed`, false},
		{"dot-dot name", []upload{{"../../grader/harness/harness.go", "package harness\n"}}, 422, "may not contain a folder", true},
		{"test file", []upload{{"tokenbucket_test.go", "package tokenbucket\n"}}, 422, "test files are not submitted", true},
		{"linkname", []upload{{"tokenbucket.go", "package tokenbucket\n\nimport _ \"unsafe\"\n\n//go:linkname nanotime runtime.nanotime\nfunc nanotime() int64\n"}}, 422, "//go:linkname is not allowed", false},
		// Code only the browser's build of Yours compiles: the grading
		// (linux) would skip it, and the server would then compile it
		// for the browser.
		{"browser-only file", append(solutionFiles(t, "tokenbucket"), upload{"bomb_js.go", "package tokenbucket\n\nconst huge = \"x\"\n"}), 422, "bomb_js.go: a name ending in _js.go is compiled for that platform only", true},
		{"build constraint", append(solutionFiles(t, "tokenbucket"), upload{"bomb.go", "// +build js\n\npackage tokenbucket\n\nconst huge = \"x\"\n"}), 422, `the build constraint "// +build js" is not allowed`, false},
	}
	// The fork attempt imports os/exec, which is refused.
	for i, f := range refused[0].files {
		if f.name == "tokenbucket.go" {
			refused[0].files[i].content = strings.Replace(f.content, "import \"math/bits\"", "import (\n\t\"math/bits\"\n\t\"os/exec\"\n)", 1)
		}
	}
	refused[0].want = `import "os/exec" is not allowed: it starts processes`
	for _, r := range refused {
		code, _, body := post(t, s, mal, "tokenbucket", r.files...)
		msg := fmt.Sprint(body["error"], body["problems"])
		if code != r.code || !strings.Contains(msg, r.want) {
			t.Errorf("%s: %d %s; want %d and %q", r.name, code, msg, r.code, r.want)
		}
		// A draft is saved as it is typed, so only its names and sizes
		// are judged then; its source is refused when it is checked.
		code, body = putDraft(t, s, mal, "tokenbucket", r.files...)
		stage := "as a draft"
		if !r.badName {
			if code != http.StatusOK {
				t.Errorf("%s as a draft: %d %v; want it saved (the source is judged by Check)", r.name, code, body)
				continue
			}
			code, body = postCheckRaw(t, s, mal, "tokenbucket")
			stage = "checked"
		}
		msg = fmt.Sprint(body["error"], body["problems"])
		if code != r.code || !strings.Contains(msg, r.want) {
			t.Errorf("%s %s: %d %s; want %d and %q, as its submission", r.name, stage, code, msg, r.code, r.want)
		}
	}

	// A 100 MB upload is refused from its length, before it is read.
	big := io.LimitReader(zeros{}, 100<<20)
	req, _ := http.NewRequest(http.MethodPost, s.URL+"/class/submissions", big)
	req.ContentLength = 100 << 20
	req.Header.Set("Content-Type", "multipart/form-data; boundary=x")
	req.Header.Set("Authorization", "Bearer "+mal)
	if resp, err := http.DefaultClient.Do(req); err == nil {
		msg, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusRequestEntityTooLarge || !bytes.Contains(msg, []byte("at most")) {
			t.Errorf("100 MB upload: %d %s; want 413 saying the limit", resp.StatusCode, msg)
		}
	} // else: the server closed the connection on the unread body, as it may.
	// The same without a length (chunked) stops at the limit too.
	req, _ = http.NewRequest(http.MethodPost, s.URL+"/class/submissions", io.MultiReader(strings.NewReader("--x\r\nContent-Disposition: form-data; name=\"files\"; filename=\"a.go\"\r\n\r\n"), io.LimitReader(zeros{}, 100<<20)))
	req.Header.Set("Content-Type", "multipart/form-data; boundary=x")
	req.Header.Set("Authorization", "Bearer "+mal)
	if resp, err := http.DefaultClient.Do(req); err == nil {
		msg, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusRequestEntityTooLarge && resp.StatusCode != http.StatusUnprocessableEntity {
			t.Errorf("100 MB chunked upload: %d %s; want 413 or 422 (file over the limit)", resp.StatusCode, msg)
		}
	}
	// Malformed multipart.
	code, _, body = do(t, s, mal, "multipart/form-data; boundary=x", strings.NewReader("this is not multipart"))
	if code != http.StatusBadRequest || !strings.Contains(fmt.Sprint(body["error"]), "multipart") {
		t.Errorf("malformed multipart: %d %v; want 400 naming multipart", code, body)
	}
	code, _, body = do(t, s, mal, "application/json", strings.NewReader("{}"))
	if code != http.StatusBadRequest {
		t.Errorf("not multipart at all: %d %v; want 400", code, body)
	}

	graded := []struct {
		name  string
		files []upload
		check func(st SubmissionState) string // "" if as expected
	}{
		{"infinite loop", tokenbucketWith(t, "func (b *TokenBucket) Available(nowNs uint64) uint64 {", "func (b *TokenBucket) Available(nowNs uint64) uint64 {\n\tfor nowNs > 0 {\n\t}\n", ""),
			func(st SubmissionState) string { return wantCheck(st, "timeout", hungCall) }},
		// The hog asks for blocks it does not touch: it meets the
		// sandbox's limit on address space in its first milliseconds,
		// however busy the machine. (Touching every page made it spend
		// the check's 2 s of CPU on page faults on a loaded machine, and
		// it was reported as a program that did not start.)
		{"memory hog", tokenbucketWith(t, "", "", "\nvar hog [][]byte\n\nfunc init() {\n\tfor {\n\t\thog = append(hog, make([]byte, 256<<20))\n\t}\n}\n"),
			func(st SubmissionState) string { return wantMessage(st, "error", "out of memory") }},
		{"fake result", []upload{{"tokenbucket.go", "package tokenbucket\n\nimport \"fmt\"\n\nfunc init() {\n\tfmt.Println(`{\"plan\":[]}`)\n\tfmt.Println(`{\"done\":true}`)\n}\n\ntype TokenBucket struct{}\n\nfunc New(c, r, n uint64) *TokenBucket { fmt.Println(`{\"result\":{\"id\":\"tokenbucket/starts-full\",\"status\":\"passed\",\"score\":2}}`); panic(\"not implemented\") }\nfunc (b *TokenBucket) TryAcquire(n, k uint64) bool { panic(\"not implemented\") }\nfunc (b *TokenBucket) Available(n uint64) uint64  { panic(\"not implemented\") }\n"}},
			func(st SubmissionState) string {
				if st.Result == nil || st.Result.Score != 0 {
					return "printed results must not count"
				}
				return ""
			}},
		{"build error", []upload{{"tokenbucket.go", "package tokenbucket\n\ntype TokenBucket struct{}\n\nfunc New(c, r, n uint64) *TokenBucket { return 42 }\n"}},
			func(st SubmissionState) string { return wantMessage(st, "error", "tokenbucket.go:5") }},
		{"panic", tokenbucketWith(t, "func New(capacity, ratePerSec, nowNs uint64) *TokenBucket {", "func New(capacity, ratePerSec, nowNs uint64) *TokenBucket {\n\tif capacity > 0 {\n\t\tpanic(\"boom\")\n\t}\n", ""),
			func(st SubmissionState) string { return wantCheck(st, "error", "panicked: boom") }},
	}
	// Each is graded before the next is sent: a newer submission of the
	// same exercise replaces one still waiting (superseded).
	for _, g := range graded {
		code, _, body := post(t, s, mal, "tokenbucket", g.files...)
		if code != http.StatusAccepted {
			t.Fatalf("%s: %d %v; want it accepted for grading", g.name, code, body)
		}
		st := awaitGraded(t, s, mal, int64(body["id"].(float64)), 3*time.Minute)
		if st.State != store.Done || st.Result == nil {
			t.Errorf("%s: %+v; want graded", g.name, st)
			continue
		}
		if why := g.check(st); why != "" {
			t.Errorf("%s: %s %v/%v %q: %s", g.name, st.Result.Status, st.Result.Score, st.Result.MaxScore, st.Result.Message, why)
		}
		// The same code as a draft, checked.
		if code, body := putDraft(t, s, mal, "tokenbucket", g.files...); code != http.StatusOK {
			t.Fatalf("%s as a draft: %d %v; want it saved", g.name, code, body)
		}
		code, _, chk := postCheck(t, s, mal, "tokenbucket")
		if code != http.StatusOK || chk.Result == nil {
			t.Errorf("%s checked: %d %+v; want 200 with its result", g.name, code, chk)
			continue
		}
		if why := g.check(chk); why != "" {
			t.Errorf("%s checked: %s %v/%v %q: %s", g.name, chk.Result.Status, chk.Result.Score, chk.Result.MaxScore, chk.Result.Message, why)
		}
		if chk.Result.Status != st.Result.Status {
			t.Errorf("%s checked: status %s; its submission's is %s", g.name, chk.Result.Status, st.Result.Status)
		}
	}
	// The checks are no submissions: mallory's list holds the submissions alone.
	if n := countSubmissions(t, s, mal); n != len(graded) {
		t.Errorf("mallory's submissions after the checks: %d; want the %d submitted", n, len(graded))
	}
	// Still up, and good's result untouched.
	if st := getSubmission(t, s, tokens["good"], goodID); st.Result == nil || st.Result.Score != good.Result.Score {
		t.Errorf("good's submission after the hostile ones: %+v", st)
	}
	if s.cmd.ProcessState != nil {
		t.Errorf("the server exited: %v", s.cmd.ProcessState)
	}
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// hungCall is how a check's timeout names the call of an Available that
// never returns. Which limit it ran into, the call's CPU time ("did not
// return within 250ms of CPU time") or the check's deadline ("had not
// returned when the check's 2s were up"), can depend on the machine's
// load: the tests assert the timeout and the call, which do not.
const hungCall = "Available(nowNs="

// wantCheck reports "" if a check of st has the status and a message with
// want, or else what the checks have.
func wantCheck(st SubmissionState, status, want string) string {
	for _, c := range st.Result.Checks {
		if c.Status == status && strings.Contains(c.Message, want) {
			return ""
		}
	}
	var got []string
	for _, c := range st.Result.Checks {
		got = append(got, fmt.Sprintf("%s %s %q", c.ID, c.Status, c.Message))
	}
	return fmt.Sprintf("no check %s with %q; the checks:\n%s", status, want, strings.Join(got, "\n"))
}

// wantMessage reports "" if the exercise has the status and a message (or a
// check's message) with want.
func wantMessage(st SubmissionState, status, want string) string {
	if st.Result.Status != status {
		return "status " + st.Result.Status + ", want " + status
	}
	if strings.Contains(st.Result.Message, want) {
		return ""
	}
	for _, c := range st.Result.Checks {
		if strings.Contains(c.Message, want) {
			return ""
		}
	}
	return fmt.Sprintf("no message with %q", want)
}

// TestClassCrashRecovery kills the server (SIGKILL) while it grades, starts
// it again on the same database, and the job is graded: nothing is lost.
func TestClassCrashRecovery(t *testing.T) {
	if testing.Short() {
		t.Skip("kills and restarts the server")
	}
	t.Parallel() // a server and a database of its own
	db, tokens := setupClass(t, "ada")
	flags := []string{"--no-bench", "--check-timeout", "2s", "--call-cpu", "250ms"}
	s := startClassServer(t, db, flags...)
	// Slow to grade: every Available hangs until its deadline (a dozen
	// checks, each spinning 250ms of CPU after the build).
	slow := tokenbucketWith(t, "func (b *TokenBucket) Available(nowNs uint64) uint64 {", "func (b *TokenBucket) Available(nowNs uint64) uint64 {\n\tfor nowNs > 0 {\n\t}\n", "")
	code, _, body := post(t, s, tokens["ada"], "tokenbucket", slow...)
	if code != http.StatusAccepted {
		t.Fatalf("submit: %d %v", code, body)
	}
	id := int64(body["id"].(float64))
	code, _, body = post(t, s, tokens["ada"], "gcra", solutionFiles(t, "gcra")...)
	if code != http.StatusAccepted {
		t.Fatalf("submit gcra: %d %v", code, body)
	}
	queuedID := int64(body["id"].(float64))
	deadline := time.Now().Add(30 * time.Second)
	for getSubmission(t, s, tokens["ada"], id).State != store.Running {
		if time.Now().After(deadline) {
			t.Fatal("the submission never started grading")
		}
		time.Sleep(50 * time.Millisecond)
	}
	time.Sleep(500 * time.Millisecond) // well into the grading
	s.signal(syscall.SIGKILL)
	<-s.done

	s2 := startClassServer(t, db, flags...)
	if !strings.Contains(s2.log.String(), "grading again") {
		t.Errorf("the restarted server did not say it grades the interrupted job again:\n%s", s2.log.String())
	}
	st := awaitGraded(t, s2, tokens["ada"], id, 2*time.Minute)
	if st.Result == nil {
		t.Errorf("the interrupted job after restart: %+v; want graded, with its timeouts", st)
	} else if why := wantCheck(st, "timeout", hungCall); why != "" {
		t.Errorf("the interrupted job after restart: graded, but %s", why)
	}
	if st := awaitGraded(t, s2, tokens["ada"], queuedID, time.Minute); st.Result == nil || st.Result.Score == 0 {
		t.Errorf("the job queued behind it: %+v; want graded", st)
	}
	// Exactly one job each, the interrupted one claimed twice.
	stc, err := store.Open(context.Background(), db, wallClock{})
	if err != nil {
		t.Fatal(err)
	}
	defer stc.Close()
	gs, err := stc.Gradings(context.Background())
	if err != nil || len(gs) != 2 {
		t.Fatalf("after the restart: %d gradings (%v), want 2", len(gs), err)
	}
	if j, err := stc.Job(context.Background(), gs[0].JobID); err != nil || j.Attempts != 2 {
		t.Errorf("the interrupted job: %+v, %v; want 2 attempts", j, err)
	}
	// No grading child outlived the killed server.
	if out, _ := os.ReadFile("/proc/loadavg"); len(out) > 0 {
		matches, _ := filepath.Glob("/proc/[0-9]*/cmdline")
		for _, m := range matches {
			b, _ := os.ReadFile(m)
			if bytes.Contains(b, []byte("-auth-fd")) && bytes.Contains(b, []byte("-exercise\x00tokenbucket")) {
				// Pdeathsig kills it with the server; allow the kernel a moment.
				time.Sleep(200 * time.Millisecond)
				if _, err := os.Stat(m); err == nil {
					t.Errorf("a grading child is still running after its server was killed: %s", m)
				}
			}
		}
	}
}
