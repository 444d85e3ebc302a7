package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/csv"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"sort"
	"strings"
	"time"
	"unicode"

	"github.com/coder/websocket"
	"github.com/coder/websocket/wsjson"
	"golang.org/x/crypto/bcrypt"

	"ratelab/grader"
	"ratelab/grader/buildcache"
	"ratelab/grader/console"
	"ratelab/grader/report"
	"ratelab/internal/class"
	"ratelab/internal/event"
	"ratelab/internal/store"
)

// dbUsage describes every class command's --db.
const dbUsage = "the class database: a SQLite file's path, or a Postgres URL (postgres://user@host/db; the database must exist, its tables are made)"

// openClassStore opens a class's store: a SQLite file (durable commits) or a
// Postgres database, by the form of path (store.IsPostgresURL).
func openClassStore(ctx context.Context, path string) (*store.Store, error) {
	return store.OpenWith(ctx, path, wallClock{}, store.Options{Durable: true})
}

// withClassStore runs do with the class's store at path, open, and closes
// it after: a command's work on the store.
func withClassStore(path string, do func(context.Context, *store.Store) error) error {
	ctx := context.Background()
	st, err := openClassStore(ctx, path)
	if err != nil {
		return err
	}
	defer st.Close()
	return do(ctx, st)
}

// newToken returns a fresh learner token: 32 random bytes, URL-safe.
func newToken() string {
	b := make([]byte, 32)
	rand.Read(b)
	return "rl_" + base64.RawURLEncoding.EncodeToString(b)
}

// validName reports whether a learner or instructor name is usable: 1 to
// 64 printable characters, no commas or quotes (it appears in CSV and URLs).
func validName(n string) bool {
	if n == "" || len(n) > 64 || strings.ContainsAny(n, ",\"'/\\") {
		return false
	}
	for _, r := range n {
		if !unicode.IsPrint(r) {
			return false
		}
	}
	return true
}

// rosterUsage is runRoster's usage line.
const rosterUsage = "usage: labserver roster import [--db PATH|URL] [--reissue] roster.csv\n       labserver roster remove [--db PATH|URL] NAME"

// runRoster is `labserver roster import [--db PATH|URL] [--reissue] roster.csv`
// and `labserver roster remove [--db PATH|URL] NAME`.
func runRoster(args []string) error {
	if len(args) > 0 && args[0] == "remove" {
		return runRosterRemove(args[1:])
	}
	if len(args) == 0 || args[0] != "import" {
		fmt.Fprintln(os.Stderr, rosterUsage)
		return exitError{2}
	}
	fs := flag.NewFlagSet("roster import", flag.ContinueOnError)
	db := fs.String("db", dbDefault(), dbUsage+" (created if missing)")
	reissue := fs.Bool("reissue", false, "give learners already on the roster a new token (the old one, and every session signed in with it, stop working)")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: labserver roster import [flags] roster.csv\n\nCreates a learner per line of roster.csv (first column: the name; a header line \"name,...\" is skipped)\nand prints each new learner's token, once: hand them out, they are stored only hashed.\nEvery name is checked before anyone is created; if the import stops later, the tokens\ncreated until then are still printed, and the line it stopped at is named.\n\nflags:")
		fs.PrintDefaults()
	}
	if done, err := parseFlags(fs, args[1:]); done {
		return err
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return exitError{2}
	}
	f, err := os.Open(fs.Arg(0))
	if err != nil {
		return err
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.FieldsPerRecord = -1
	r.TrimLeadingSpace = true
	rows, err := r.ReadAll()
	if err != nil {
		return fmt.Errorf("%s: %w", fs.Arg(0), err)
	}
	// Every line is checked before anyone is created.
	type entry struct {
		line int
		name string
	}
	var entries []entry
	seen := map[string]int{}
	for i, row := range rows {
		if len(row) == 0 {
			continue
		}
		name := strings.TrimSpace(row[0])
		if (i == 0 && strings.EqualFold(name, "name")) || name == "" {
			continue
		}
		if !validName(name) {
			return fmt.Errorf("%s line %d: %q is not a usable name (1 to 64 printable characters, no commas, quotes or slashes); nobody was created", fs.Arg(0), i+1, name)
		}
		if prev, ok := seen[name]; ok {
			return fmt.Errorf("%s line %d: %q is on line %d already; nobody was created", fs.Arg(0), i+1, name, prev)
		}
		seen[name] = i + 1
		entries = append(entries, entry{i + 1, name})
	}
	return withClassStore(*db, func(ctx context.Context, st *store.Store) error {
		out := csv.NewWriter(os.Stdout)
		out.Write([]string{"name", "token"})
		created, skipped := 0, 0
		// Whatever stops the import, the tokens created so far are printed:
		// they are stored only hashed and would be lost.
		defer func() {
			out.Flush()
			fmt.Fprintf(os.Stderr, "%d learners given a token, %d skipped; the tokens above are shown this once (database %s)\n", created, skipped, store.Redact(*db))
		}()
		for _, e := range entries {
			stopped := func(err error) error {
				return fmt.Errorf("%s line %d: %s: %w; stopped there: the lines before it were imported", fs.Arg(0), e.line, e.name, err)
			}
			tok := newToken()
			_, err := st.AddLearner(ctx, e.name, store.Hash(tok))
			switch {
			case errors.Is(err, store.ErrExists) && *reissue:
				if err := st.SetLearnerToken(ctx, e.name, store.Hash(tok)); errors.Is(err, store.ErrNotFound) {
					return stopped(errors.New("the name is an instructor's"))
				} else if err != nil {
					return stopped(err)
				}
			case errors.Is(err, store.ErrExists):
				skipped++
				fmt.Fprintf(os.Stderr, "%s: already on the roster, token unchanged (--reissue gives a new one)\n", e.name)
				continue
			case err != nil:
				return stopped(err)
			}
			created++
			out.Write([]string{e.name, tok})
			out.Flush() // each token is out before the next learner is created
		}
		out.Flush()
		return out.Error()
	})
}

// runRosterRemove is `labserver roster remove [--db PATH|URL] NAME`.
func runRosterRemove(args []string) error {
	fs := flag.NewFlagSet("roster remove", flag.ContinueOnError)
	db := fs.String("db", dbDefault(), dbUsage)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: labserver roster remove [flags] NAME\n\nTakes a learner off the roster: their token stops working and their sessions end at once\n(on a running server too). Their submissions and gradings are kept for the gradebook, under\n\"NAME (removed DATE #ID)\"; the name is free for a new learner.\n\nflags:")
		fs.PrintDefaults()
	}
	if done, err := parseFlags(fs, args); done {
		return err
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return exitError{2}
	}
	return withClassStore(*db, func(ctx context.Context, st *store.Store) error {
		name := fs.Arg(0)
		r, err := st.RemoveLearner(ctx, name)
		if errors.Is(err, store.ErrNotFound) {
			return fmt.Errorf("%s: no learner of that name (database %s)", name, store.Redact(*db))
		}
		if err != nil {
			return err
		}
		if r.Submissions == 0 {
			fmt.Fprintf(os.Stderr, "%s removed: token and sessions ended; no submissions to keep\n", name)
			return nil
		}
		fmt.Fprintf(os.Stderr, "%s removed: token and sessions ended; their %d submissions are kept in the gradebook as %q\n", name, r.Submissions, r.KeptAs)
		return nil
	})
}

// runInstructor is `labserver instructor add [--db PATH|URL] NAME`; the
// password is read from standard input (prompted for, unechoed, on a
// terminal), never from the command line.
func runInstructor(args []string) error {
	if len(args) == 0 || args[0] != "add" {
		fmt.Fprintln(os.Stderr, "usage: labserver instructor add [--db PATH|URL] NAME   (the password is read from stdin)")
		return exitError{2}
	}
	fs := flag.NewFlagSet("instructor add", flag.ContinueOnError)
	db := fs.String("db", dbDefault(), dbUsage+" (created if missing)")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: labserver instructor add [flags] NAME\n\nCreates an instructor (or sets the password of an existing one). The password is read from\nstandard input: typed at a prompt, or piped (one line).\n\nflags:")
		fs.PrintDefaults()
	}
	if done, err := parseFlags(fs, args[1:]); done {
		return err
	}
	if fs.NArg() != 1 || !validName(fs.Arg(0)) {
		fs.Usage()
		return exitError{2}
	}
	pw, err := readPassword()
	if err != nil {
		return err
	}
	if len(pw) < 8 {
		return errors.New("the password must be at least 8 characters")
	}
	hash, err := bcrypt.GenerateFromPassword([]byte(pw), bcrypt.DefaultCost)
	if err != nil {
		return err
	}
	return withClassStore(*db, func(ctx context.Context, st *store.Store) error {
		name := fs.Arg(0)
		_, err = st.AddInstructor(ctx, name, string(hash))
		if errors.Is(err, store.ErrExists) {
			if err := st.SetInstructorPassword(ctx, name, string(hash)); err != nil {
				return fmt.Errorf("%s: %w (is it a learner's name?)", name, err)
			}
			fmt.Fprintf(os.Stderr, "instructor %s: password changed\n", name)
			return nil
		}
		if err != nil {
			return err
		}
		fmt.Fprintf(os.Stderr, "instructor %s added (database %s)\n", name, store.Redact(*db))
		return nil
	})
}

// readPassword reads one line from stdin; on a terminal it prompts and
// turns echo off while the password is typed.
func readPassword() (string, error) {
	if isTerminal(os.Stdin) {
		fmt.Fprint(os.Stderr, "password: ")
		if exec.Command("stty", "-F", "/dev/tty", "-echo").Run() == nil {
			defer func() {
				exec.Command("stty", "-F", "/dev/tty", "echo").Run()
				fmt.Fprintln(os.Stderr)
			}()
		}
	}
	line, err := bufio.NewReader(os.Stdin).ReadString('\n')
	if err != nil && !(errors.Is(err, io.EOF) && line != "") {
		return "", fmt.Errorf("reading the password from stdin: %w", err)
	}
	return strings.TrimRight(line, "\r\n"), nil
}

// runSubmit is `labserver submit`: upload exercises/<name> to a class
// server and follow its grading live.
func runSubmit(args []string) error {
	fs := flag.NewFlagSet("submit", flag.ContinueOnError)
	server := fs.String("server", os.Getenv("RATELAB_SERVER"), "the class server's URL, e.g. http://class.example:8080; default $RATELAB_SERVER")
	token := fs.String("token", os.Getenv("RATELAB_TOKEN"), "your token from the instructor; default $RATELAB_TOKEN")
	var exercises listFlag
	fs.Var(&exercises, "exercise", "submit this exercise (repeatable); default every exercise")
	dir := fs.String("dir", "", "submit the .go files of this folder instead of exercises/<name> (one --exercise)")
	noFollow := fs.Bool("no-follow", false, "queue the submission and return without following its grading")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: labserver submit --server URL --token TOKEN [--exercise NAME]\n\nUploads your exercise files (exercises/<name>/*.go, not the tests) to the class server and\nfollows the grading live. Exit status: 0 full marks, 1 graded without full marks, 2 not graded.\n\nflags:")
		fs.PrintDefaults()
	}
	if done, err := parseFlags(fs, args); done {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q (flags start with --)", fs.Arg(0))
	}
	if *server == "" || *token == "" {
		return errors.New("--server and --token are required (or $RATELAB_SERVER and $RATELAB_TOKEN)")
	}
	base, err := url.Parse(strings.TrimRight(*server, "/"))
	if err != nil || (base.Scheme != "http" && base.Scheme != "https") {
		return fmt.Errorf("--server %q: want an http:// or https:// URL", *server)
	}
	if len(exercises) == 0 {
		for _, e := range grader.Gradable() {
			exercises = append(exercises, e.ID)
		}
	}
	if *dir != "" && len(exercises) != 1 {
		return errors.New("--dir needs exactly one --exercise")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	worst := 0
	for _, ex := range exercises {
		src, shown := *dir, filepath.Clean(*dir)
		if src == "" {
			root, err := moduleRoot()
			if err != nil {
				return err
			}
			src, shown = filepath.Join(root, "exercises", ex), filepath.Join("exercises", ex)
		}
		code, err := submitOne(ctx, base, *token, ex, src, shown, !*noFollow)
		if err != nil {
			return err
		}
		worst = max(worst, code)
	}
	return exitError{worst}
}

// submitOne uploads one exercise's files from dir and, if follow, prints
// its grading, naming the folder as shown; it returns the exit status it
// deserves.
func submitOne(ctx context.Context, base *url.URL, token, exercise, dir, shown string, follow bool) (int, error) {
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return 2, err
	}
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	mw.WriteField("exercise", exercise)
	n := 0
	sort.Strings(names)
	for _, p := range names {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return 2, err
		}
		w, err := mw.CreateFormFile("files", filepath.Base(p))
		if err != nil {
			return 2, err
		}
		w.Write(data)
		n++
	}
	mw.Close()
	if n == 0 {
		return 2, fmt.Errorf("%s: no .go files to submit", dir)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, base.String()+"/class/submissions", &body)
	if err != nil {
		return 2, err
	}
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Accept", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 2, err
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if resp.StatusCode != http.StatusAccepted {
		var e struct {
			Error    string   `json:"error"`
			Problems []string `json:"problems"`
		}
		if json.Unmarshal(raw, &e) != nil || e.Error == "" {
			e.Error = strings.TrimSpace(string(raw))
		}
		fmt.Fprintf(os.Stderr, "%s: not accepted (%s): %s\n", exercise, resp.Status, e.Error)
		for _, p := range e.Problems {
			fmt.Fprintf(os.Stderr, "  - %s\n", p)
		}
		if ra := resp.Header.Get("Retry-After"); ra != "" {
			fmt.Fprintf(os.Stderr, "  try again in %ss\n", ra)
		}
		return 2, nil
	}
	var reply struct {
		ID     int64  `json:"id"`
		Number int    `json:"number"` // the learner's count of her submissions of the exercise
		URL    string `json:"url"`
		Live   string `json:"live"`
		Late   string `json:"late"` // "late by 5 h …" when after its due date
	}
	if err := json.Unmarshal(raw, &reply); err != nil {
		return 2, fmt.Errorf("the server's reply: %w", err)
	}
	fmt.Fprintf(os.Stderr, "%s: submitted %d files as your submission %d: %s%s\n", exercise, n, reply.Number, base, reply.URL)
	if reply.Late != "" {
		fmt.Fprintf(os.Stderr, "%s: after its due date: %s\n", exercise, reply.Late)
	}
	if !follow {
		return 0, nil
	}
	return follow1(ctx, base, token, reply.Live, shown)
}

// follow1 prints a submission's grading events until it is done.
func follow1(ctx context.Context, base *url.URL, token, live, shown string) (int, error) {
	u := *base
	u.Scheme = map[string]string{"http": "ws", "https": "wss"}[base.Scheme]
	u.Path = strings.TrimRight(base.Path, "/") + live
	conn, _, err := websocket.Dial(ctx, u.String(), &websocket.DialOptions{
		HTTPHeader: http.Header{"Authorization": {"Bearer " + token}},
	})
	if err != nil {
		return 2, fmt.Errorf("following the grading: %w", err)
	}
	defer conn.CloseNow()
	conn.SetReadLimit(16 << 20)
	progress := console.Printer{W: os.Stderr, Color: isTerminal(os.Stderr)}
	var state event.Type
	for {
		var e class.Event
		if err := wsjson.Read(ctx, conn, &e); err != nil {
			return 2, fmt.Errorf("the server stopped sending the grading: %w", err)
		}
		switch e.Type {
		case event.Queued, event.Running:
			if e.Type != state || e.Message != "" {
				line := map[event.Type]string{event.Queued: "queued: waiting for a grader", event.Running: "grading"}[e.Type]
				if e.Message != "" { // "regrading after a worker stopped"
					line += ": " + e.Message
				}
				fmt.Fprintln(os.Stderr, line)
			}
			state = e.Type
		case event.Build, event.Start, event.Check:
			phase, _ := class.Phase(e.Type)
			progress.Progress(grader.Event{Exercise: e.Exercise, Phase: phase, Check: e.Check, Result: e.Result})
		case event.Resync:
			return 2, errors.New("fell behind the server's events: see the submission's page")
		case event.Grade:
			if e.Summary == nil {
				fmt.Fprintf(os.Stderr, "not graded: %s\n", e.Message)
				return 2, nil
			}
			// The report's target is the folder submitted, which the
			// printed report names (--dir's, not exercises/).
			r := &report.Report{Schema: report.Schema, Target: shown, Seed: e.Seed, Exercises: []report.Exercise{*e.Summary}}
			r.Total()
			console.Printer{W: os.Stdout, Color: isTerminal(os.Stdout)}.Report(r)
			return grader.ExitCode(r), nil
		}
	}
}

// classOptions are serve's class-mode flags.
type classOptions struct {
	enabled       bool
	workers       int
	queue         int
	burst         uint
	every         time.Duration
	checkBurst    uint
	checkEvery    time.Duration
	secureCookies bool
	gradingFlags  // serve's build cache is off by default: a single machine's class as before
	yoursFlags
	ltiFlags
}

func (o *classOptions) flags(fs *flag.FlagSet) {
	fs.BoolVar(&o.enabled, "class", false, "class mode: learners submit (labserver submit), the server grades in a sandbox, instructors watch /class/dashboard")
	fs.IntVar(&o.workers, "workers", class.DefaultConfig.Workers, "class mode: gradings at once (1 keeps benchmark figures comparable); 0 with a Postgres --db: pages only, labserver worker processes grade")
	fs.IntVar(&o.queue, "queue", class.DefaultConfig.MaxQueue, "class mode: most jobs waiting; submissions beyond are refused (503)")
	fs.UintVar(&o.burst, "submit-burst", uint(class.DefaultConfig.SubmitBurst), "class mode: submissions a learner may make at once...")
	fs.DurationVar(&o.every, "submit-every", class.DefaultConfig.SubmitEvery, "class mode: ...then one more every this long (429 with Retry-After beyond)")
	fs.UintVar(&o.checkBurst, "check-burst", uint(class.DefaultConfig.CheckBurst), "class mode: checks of a draft a learner may make at once (a budget apart from submissions')...")
	fs.DurationVar(&o.checkEvery, "check-every", class.DefaultConfig.CheckEvery, "class mode: ...then one more every this long (429 with Retry-After beyond)")
	fs.BoolVar(&o.secureCookies, "secure-cookies", false, "class mode: the class is served over HTTPS (a TLS proxy in front): __Host- cookies, Secure, and writes only from an https:// origin")
	o.gradingFlags.register(fs, "class mode: ", "", `"" (the default) builds every time`)
	o.yoursFlags.register(fs)
	o.ltiFlags.register(fs)
}

// openBuildCache opens the build cache of --build-cache dir and
// --build-cache-max maxMiB (serve's and worker's): nil when dir is "".
func openBuildCache(dir string, maxMiB int64) (*buildcache.Cache, error) {
	if maxMiB < 0 {
		return nil, fmt.Errorf("--build-cache-max %d: want 0 (the default, %d MiB) or more MiB", maxMiB, buildcache.DefaultMax>>20)
	}
	if dir == "" {
		return nil, nil
	}
	return buildcache.Open(dir, maxMiB<<20)
}
