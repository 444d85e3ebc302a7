package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/coder/websocket/wsjson"

	"ratelab/internal/class"
	"ratelab/internal/store"
)

// classServer is the real labserver binary serving a class on a loopback
// port, with its own SQLite file.
type classServer struct {
	URL, DB string
	cmd     *exec.Cmd
	log     *syncBuffer
	done    chan struct{}
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

var listening = regexp.MustCompile(`the lab is at (http://\S+) `)

// startClassServer starts `labserver serve --class` on db with extra flags and
// waits until it listens. The test's cleanup kills it.
func startClassServer(t *testing.T, db string, extra ...string) *classServer {
	t.Helper()
	args := append([]string{"serve", "--class", "--addr", "127.0.0.1:0", "--db", db}, extra...)
	cmd := exec.Command(binary, args...)
	cmd.Dir = "../.."
	pr, pw := io.Pipe()
	s := &classServer{DB: db, cmd: cmd, log: &syncBuffer{}, done: make(chan struct{})}
	cmd.Stdout = s.log
	cmd.Stderr = io.MultiWriter(s.log, pw)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		cmd.Wait()
		pw.Close()
		close(s.done)
	}()
	t.Cleanup(func() {
		s.signal(syscall.SIGKILL)
		<-s.done
		if t.Failed() {
			t.Logf("server log:\n%s", s.log.String())
		}
	})
	url := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			if m := listening.FindStringSubmatch(sc.Text()); m != nil {
				url <- m[1]
			}
		}
	}()
	select {
	case s.URL = <-url:
	case <-s.done:
		t.Fatalf("the class server exited before listening:\n%s", s.log.String())
	case <-time.After(30 * time.Second):
		t.Fatalf("the class server did not listen within 30s:\n%s", s.log.String())
	}
	return s
}

func (s *classServer) signal(sig syscall.Signal) {
	if s.cmd.Process != nil {
		s.cmd.Process.Signal(sig)
	}
}

// labserver runs the binary with stdin and returns stdout, stderr, status.
func labserver(t *testing.T, stdin string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Dir = "../.."
	cmd.Stdin = strings.NewReader(stdin)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return o.String(), e.String(), code
}

// setupClass imports learners and an instructor "prof" into a new
// database and returns its path and the learners' tokens.
func setupClass(t *testing.T, learners ...string) (db string, tokens map[string]string) {
	t.Helper()
	return setupClassOn(t, filepath.Join(t.TempDir(), "class.db"), learners...)
}

// setupClassOn is setupClass on the database db (a path or a Postgres URL).
func setupClassOn(t *testing.T, db string, learners ...string) (string, map[string]string) {
	t.Helper()
	dir := t.TempDir()
	roster := filepath.Join(dir, "roster.csv")
	os.WriteFile(roster, []byte("name,email\n"+strings.Join(learners, ",x@example.org\n")+",x@example.org\n"), 0o644)
	out, stderr, code := labserver(t, "", "roster", "import", "--db", db, roster)
	if code != 0 {
		t.Fatalf("roster import: exit %d\n%s", code, stderr)
	}
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil || len(rows) != len(learners)+1 {
		t.Fatalf("roster import printed %q (%v); want a header and one token per learner", out, err)
	}
	tokens := map[string]string{}
	for _, r := range rows[1:] {
		tokens[r[0]] = r[1]
	}
	// Importing again gives no new token and keeps the old one.
	out, _, _ = labserver(t, "", "roster", "import", "--db", db, roster)
	if strings.Count(out, "rl_") != 0 {
		t.Errorf("a second import printed new tokens: %q", out)
	}
	if _, stderr, code := labserver(t, "correct horse battery\n", "instructor", "add", "--db", db, "prof"); code != 0 {
		t.Fatalf("instructor add: exit %d\n%s", code, stderr)
	}
	if _, _, code := labserver(t, "short\n", "instructor", "add", "--db", db, "prof2"); code != 2 {
		t.Errorf("instructor add with a 5-character password: exit %d, want 2", code)
	}
	return db, tokens
}

// browserless client helpers.

type upload struct {
	name    string
	content string
}

// post uploads files for exercise with a learner's token.
func post(t *testing.T, s *classServer, token, exercise string, files ...upload) (int, http.Header, map[string]any) {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	mw.WriteField("exercise", exercise)
	for _, f := range files {
		h := make(map[string][]string)
		h["Content-Disposition"] = []string{fmt.Sprintf(`form-data; name="files"; filename="%s"`, f.name)}
		h["Content-Type"] = []string{"text/plain"}
		w, _ := mw.CreatePart(h)
		w.Write([]byte(f.content))
	}
	mw.Close()
	return do(t, s, token, mw.FormDataContentType(), &body)
}

func do(t *testing.T, s *classServer, token, contentType string, body io.Reader) (int, http.Header, map[string]any) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, s.URL+"/class/submissions", body)
	req.Header.Set("Content-Type", contentType)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("POST /class/submissions: %v", err)
	}
	defer resp.Body.Close()
	var m map[string]any
	json.NewDecoder(resp.Body).Decode(&m)
	return resp.StatusCode, resp.Header, m
}

// awaitGraded polls a submission (as its learner) until it is done.
func awaitGraded(t *testing.T, s *classServer, token string, id int64, within time.Duration) SubmissionState {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		st := getSubmission(t, s, token, id)
		if st.State == store.Done {
			return st
		}
		if time.Now().After(deadline) {
			t.Fatalf("submission %d not graded within %s (state %s)", id, within, st.State)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// SubmissionState is GET /class/submissions/:id in JSON.
type SubmissionState struct {
	ID       int64          `json:"id"`
	Learner  string         `json:"learner"`
	Exercise string         `json:"exercise"`
	State    store.JobState `json:"state"`
	Error    string         `json:"error"`
	Result   *struct {
		Status   string  `json:"status"`
		Score    float64 `json:"score"`
		MaxScore float64 `json:"max_score"`
		Message  string  `json:"message"`
		Checks   []struct {
			ID, Status, Message string
			RefNsPerOp          *float64 `json:"ref_ns_per_op"`
		} `json:"checks"`
	} `json:"result"`
}

func getSubmission(t *testing.T, s *classServer, token string, id int64) SubmissionState {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, fmt.Sprintf("%s/class/submissions/%d", s.URL, id), nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var st SubmissionState
	if resp.StatusCode != http.StatusOK {
		return SubmissionState{State: store.JobState(resp.Status)}
	}
	json.NewDecoder(resp.Body).Decode(&st)
	return st
}

// instructor signs prof in and returns a client holding the session.
func instructor(t *testing.T, s *classServer) (*http.Client, string) {
	t.Helper()
	return signedIn(t, s, url.Values{"name": {"prof"}, "password": {"correct horse battery"}})
}

// signedIn signs in with the login page's form (a learner's token, or an
// instructor's name and password) as a browser does, and returns a client
// holding the session and the page's CSRF token.
func signedIn(t *testing.T, s *classServer, form url.Values) (*http.Client, string) {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, Transport: pageOrigin{s.URL}, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Get(s.URL + "/class/login")
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	m := regexp.MustCompile(`name="_csrf" value="([^"]+)"`).FindSubmatch(page)
	if m == nil {
		t.Fatalf("no CSRF token on the login page")
	}
	csrf := string(m[1])
	form.Set("_csrf", csrf)
	resp, err = c.PostForm(s.URL+"/class/login", form)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("signing in: %s, want 303", resp.Status)
	}
	return c, csrf
}

// pageOrigin sends requests as a browser on the class's pages does: a
// POST or PUT names the page's origin (the class accepts a signed-in
// browser's writes from its own origin only).
type pageOrigin struct{ url string }

func (o pageOrigin) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Method != http.MethodGet && req.Method != http.MethodHead {
		req = req.Clone(req.Context())
		req.Header.Set("Origin", o.url)
	}
	return http.DefaultTransport.RoundTrip(req)
}

func get(t *testing.T, c *http.Client, u string) (int, string) {
	t.Helper()
	resp, err := c.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func dialDashboard(t *testing.T, s *classServer, c *http.Client) *websocket.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(s.URL, "http")+"/class/dashboard/live", &websocket.DialOptions{HTTPClient: c})
	if err != nil {
		t.Fatalf("dashboard websocket: %v", err)
	}
	conn.SetReadLimit(16 << 20)
	t.Cleanup(func() { conn.CloseNow() })
	var hello class.Event
	if err := wsjson.Read(ctx, conn, &hello); err != nil || hello.Type != "hello" {
		t.Fatalf("dashboard websocket: first event %+v, %v; want hello", hello, err)
	}
	return conn
}

func solutionFiles(t *testing.T, exercise string) []upload {
	t.Helper()
	return loadUploads(t, filepath.Join("..", "..", "solutions", exercise))
}

// loadUploads reads the non-test .go files of dir.
func loadUploads(t *testing.T, dir string) []upload {
	t.Helper()
	names, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	var out []upload
	for _, n := range names {
		if strings.HasSuffix(n, "_test.go") {
			continue
		}
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, upload{filepath.Base(n), string(b)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}
