package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"time"

	"ratelab/grader"
	"ratelab/grader/report"
	"ratelab/grader/sandbox"
	"ratelab/internal/class"
	"ratelab/internal/live"
	"ratelab/internal/precompress"
	"ratelab/internal/server"
	"ratelab/internal/store"
	"ratelab/internal/watch"
	"ratelab/internal/weekbuild"
	"ratelab/web"
)

// defaultDBPath is where the lab keeps its database, relative to the
// repository root (serve: the working directory).
const defaultDBPath = ".ratelab/lab.db"

// dbDefault is $RATELAB_DB if set, else defaultDBPath.
func dbDefault() string {
	if p := os.Getenv("RATELAB_DB"); p != "" {
		return p
	}
	return defaultDBPath
}

// wallClock is the real clock, read only here in cmd/.
type wallClock struct{}

func (wallClock) Now() time.Time { return time.Now() }

// storeReport saves a grade report in the lab database under root (or at
// $RATELAB_DB, as tests do), where
// the web pages read it. It has saveReport's signature in grade.go: failing
// to save is reported on stderr and never fails the grading.
func storeReport(root string, r *report.Report) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	err := func() error {
		path := os.Getenv("RATELAB_DB")
		if path == "" {
			path = filepath.Join(root, defaultDBPath)
		}
		st, err := store.Open(ctx, path, wallClock{})
		if err != nil {
			return err
		}
		defer st.Close()
		return st.SaveReport(ctx, r)
	}()
	if err != nil {
		fmt.Fprintln(os.Stderr, "labserver grade: the report was not saved for the web pages:", err)
	}
}

// serveOptions are runServe's flags.
type serveOptions struct {
	addr      string
	db        string
	staticDir string
	maxConns  int
	// maxConnsPerAddr, maxConnsPerUser and trustedProxies: see server.Limits.
	maxConnsPerAddr int
	maxConnsPerUser int
	trustedProxies  []netip.Prefix
	// allowHosts are the names besides localhost the single-learner lab
	// answers to (--allow-host; see server.Hosts).
	allowHosts []string
	class      classOptions
	// liveRoot, if set (single-learner mode), is the repository whose
	// exercises/ the server watches, rebuilding Yours and regrading on
	// every save (see startLive).
	liveRoot string
}

// serveFlags is serve's flag set, filling o.
func serveFlags(o *serveOptions) *flag.FlagSet {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.StringVar(&o.addr, "addr", "localhost:8080", "address to listen on")
	fs.StringVar(&o.db, "db", dbDefault(), "the lab's SQLite database (created, with its folder, if missing), or with --class a Postgres URL (postgres://…); default $RATELAB_DB or "+defaultDBPath)
	fs.StringVar(&o.staticDir, "static-dir", os.Getenv("RATELAB_STATIC_DIR"),
		"serve files in this folder under /static/ in preference to the embedded ones (e.g. a lab.wasm built after the server); default $RATELAB_STATIC_DIR")
	fs.Func("allow-host", "a `name` besides localhost the lab answers to, e.g. the machine's name to reach it from another device (repeatable); other names get 421, so that another site cannot read your lab through your browser (not with --class)", func(v string) error {
		if v == "" || strings.ContainsAny(v, ":/ ") {
			return fmt.Errorf("%q is not a host name (give the name alone, without a port or scheme)", v)
		}
		o.allowHosts = append(o.allowHosts, strings.ToLower(v))
		return nil
	})
	fs.IntVar(&o.maxConns, "max-conns", 512, "most connections open at once, websockets included; beyond, new ones wait until one closes")
	fs.IntVar(&o.maxConnsPerAddr, "max-conns-per-addr", 0, "most connections one client address (IPv6: its /64) holds open at once; beyond, 429 at once; 0 means a quarter of --max-conns")
	fs.IntVar(&o.maxConnsPerUser, "max-conns-per-user", 16, "most connections one signed-in user holds open at once, inside --max-conns-per-addr; beyond, 429 and the connection closed")
	fs.Func("trusted-proxy", "a reverse proxy's `CIDR` (repeatable): its connections are not capped per address, and a request through it counts as the address it names last in X-Forwarded-For", func(v string) error {
		p, err := netip.ParsePrefix(v)
		if err != nil {
			ip, ipErr := netip.ParseAddr(v)
			if ipErr != nil {
				return fmt.Errorf("%q is not an address or a CIDR such as 10.0.0.5/32", v)
			}
			p = netip.PrefixFrom(ip, ip.BitLen())
		}
		o.trustedProxies = append(o.trustedProxies, p.Masked())
		return nil
	})
	o.class.flags(fs)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: labserver serve [flags]\n\nServes the lab (lessons, exercises, your latest grades) in the browser.\n\nflags:")
		fs.PrintDefaults()
	}
	return fs
}

func runServe(args []string) error {
	var o serveOptions
	fs := serveFlags(&o)
	if done, err := parseFlags(fs, args); done {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q (flags start with --)", fs.Arg(0))
	}
	if !o.class.enabled {
		if root, err := moduleRoot(); err == nil {
			o.liveRoot = root
		} else {
			fmt.Fprintln(os.Stderr, "ratelab: not watching exercises/ for saves:", err)
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return serve(ctx, o, os.Stderr, nil)
}

// serve runs the lab server until ctx ends, then shuts it down gracefully.
// It reports the listening address on ready, if not nil, once it accepts
// connections.
func serve(ctx context.Context, o serveOptions, log io.Writer, ready chan<- net.Addr) error {
	st, err := store.OpenWith(ctx, o.db, wallClock{}, store.Options{Durable: o.class.enabled})
	if err != nil {
		return err
	}
	defer st.Close()
	var cls *server.Class
	if o.class.enabled {
		// Learners' code runs on this machine as another user: the
		// database is for the server's user only (see store.WideModes).
		for _, w := range store.WideModes(o.db) {
			fmt.Fprintln(log, "ratelab: warning:", w)
		}
		var stopClass func()
		cls, stopClass, err = startClass(ctx, st, o.class, log)
		if err != nil {
			return err
		}
		defer stopClass()
	}

	if o.staticDir != "" {
		if fi, err := os.Stat(o.staticDir); err != nil || !fi.IsDir() {
			return fmt.Errorf("--static-dir %s is not a folder", o.staticDir)
		}
	}
	staticDir := o.staticDir
	var keepLab []func()
	if staticDir == "" && o.liveRoot != "" && cls == nil {
		// The single-learner lab serves web/static from disk, where the
		// WebAssembly's Brotli copies are written in the background once
		// the server listens (make run writes only the gzip ones): the
		// page is served at once, compressed better a few seconds later.
		// The weeks' builds are started first: they are what a lesson
		// loads, the reference's before Yours'.
		staticDir = filepath.Join(o.liveRoot, "web", "static")
		var names []string
		for _, week := range weekbuild.Weeks() {
			names = append(names, weekbuild.Name(week))
		}
		for _, week := range weekbuild.YoursWeeks() {
			names = append(names, weekbuild.YoursName(week))
		}
		for _, name := range names {
			if _, err := os.Stat(filepath.Join(staticDir, name)); err == nil {
				touch, stop := precompress.Keep(filepath.Join(staticDir, name), copiesLogger(log, name))
				keepLab = append(keepLab, touch)
				defer stop()
			}
		}
	}
	static := web.Static(staticDir)
	var hub *live.Hub
	if o.liveRoot != "" && cls == nil {
		var stopLive func()
		hub, static, stopLive, err = startLive(ctx, st, o.liveRoot, static, log)
		if err != nil {
			return err
		}
		defer stopLive()
	}
	var hosts *server.Hosts
	if cls == nil {
		hosts = &server.Hosts{Names: o.allowHosts}
		if name, _, err := net.SplitHostPort(o.addr); err == nil && name != "" {
			hosts.Names = append(hosts.Names, strings.ToLower(name))
		}
	} else if len(o.allowHosts) > 0 {
		return errors.New("--allow-host is for the single-learner lab: class mode answers to any name (put it behind the names you choose)")
	}
	var files string // the editor writes exercises/ only where the live loop grades it
	if hub != nil {
		files = o.liveRoot
	}
	h := server.New(server.Config{
		Reports:  st,
		Static:   static,
		Location: time.Local,
		Class:    cls,
		Live:     hub,
		Files:    files,
		Hosts:    hosts,

		TrustedProxies: o.trustedProxies,
	})
	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		return err
	}
	limits := server.Limits{MaxConns: o.maxConns, MaxConnsPerAddr: o.maxConnsPerAddr, MaxConnsPerUser: o.maxConnsPerUser, TrustedProxies: o.trustedProxies}
	ln = server.Listener(ln, limits)
	srv := server.HTTPServer(h, limits)
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	at := shownAddr(o.addr, ln.Addr())
	fmt.Fprintf(log, "ratelab: the lab is at http://%s (database %s); Ctrl-C stops it\n", at, store.Redact(o.db))
	if hub != nil {
		fmt.Fprintf(log, "ratelab: watching %s: each save rebuilds Yours, regrades and updates the open pages\n", filepath.Join(o.liveRoot, "exercises"))
	}
	if cls != nil {
		fmt.Fprintf(log, "ratelab: class mode: learners sign in at http://%s/class, instructors watch http://%s/class/dashboard\n", at, at)
	}
	for _, touch := range keepLab {
		touch()
	}
	if ready != nil {
		ready <- ln.Addr()
	}
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil {
		return err
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// startClass starts class mode's queue and workers on st; stop ends them
// and waits for them.
func startClass(ctx context.Context, st *store.Store, o classOptions, log io.Writer) (*server.Class, func(), error) {
	root, err := moduleRoot()
	if err != nil {
		return nil, nil, fmt.Errorf("class mode grades against the repository: %w", err)
	}
	logger := slog.New(slog.NewTextHandler(log, nil))
	if o.workers < 0 {
		return nil, nil, fmt.Errorf("--workers %d: want 0 (pages only, on Postgres) or more", o.workers)
	}
	if o.workers == 0 && st.Backend() != store.Postgres {
		return nil, nil, errors.New("--workers 0 serves pages only, for a class graded by `labserver worker` processes: that needs a Postgres --db")
	}
	cfg := class.Config{
		Store: st, Root: root, Clock: wallClock{},
		Workers: o.workers, PagesOnly: o.workers == 0, MaxQueue: o.queue,
		SubmitBurst: uint64(o.burst), SubmitEvery: o.every, CheckBurst: uint64(o.checkBurst), CheckEvery: o.checkEvery, Log: logger,
	}
	if err := o.gradingFlags.config(&cfg); err != nil {
		return nil, nil, err
	}
	// One sandbox for the gradings and the builds of Yours: they share
	// its Go build cache, its lock and its cap.
	cfg.Sandbox = &sandbox.Sandbox{Log: func(format string, args ...any) { logger.Warn(fmt.Sprintf(format, args...)) }}
	builds, err := o.yoursFlags.start(root, st, cfg.Sandbox, logger)
	if err != nil {
		return nil, nil, err
	}
	cl := class.New(cfg)
	if st.Backend() == store.Postgres {
		// Workers on other machines check they grade as this server does.
		if err := cl.RecordSuites(ctx); err != nil {
			return nil, nil, err
		}
	}
	cctx, cancel := context.WithCancel(ctx)
	if err := cl.Start(cctx); err != nil {
		cancel()
		return nil, nil, err
	}
	tool, stopLTI, err := o.ltiFlags.start(cctx, st, cl, logger)
	if err != nil {
		cancel()
		cl.Wait()
		builds.Stop()
		return nil, nil, err
	}
	stop := func() {
		cancel() // a job being graded stays running in the store: graded again at the next start
		cl.Wait()
		builds.Stop()
		stopLTI()
	}
	return &server.Class{Class: cl, SecureCookies: o.secureCookies, Yours: builds, LTI: tool}, stop, nil
}

// liveDir is where the live loop puts the Yours builds, relative to the
// repository root; served under /static/ before the other assets.
const liveDir = ".ratelab/live"

// startLive starts the single-learner live loop over root's exercises/: on
// each save, it rebuilds the WebAssembly that has the code saved into
// liveDir (the last good builds stay there when the code does not
// compile), regrades the exercises that changed and saves their grades in
// st, publishing every step on the returned hub. It returns static with
// liveDir served first; stop ends the loop and waits for it.
func startLive(ctx context.Context, st *store.Store, root string, static fs.FS, log io.Writer) (*live.Hub, fs.FS, func(), error) {
	dir := filepath.Join(root, liveDir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, nil, nil, err
	}
	// Builds left by an earlier run may be older than those this server
	// starts with (make run has just built them); their copies would hide
	// those of these.
	for _, week := range weekbuild.YoursWeeks() {
		for _, ext := range []string{"", ".br", ".gz"} {
			os.Remove(filepath.Join(dir, weekbuild.YoursName(week)+ext))
		}
	}
	lctx, cancel := context.WithCancel(ctx)
	changes, err := watch.Tree(lctx, filepath.Join(root, "exercises"))
	if err != nil {
		cancel()
		return nil, nil, nil, fmt.Errorf("watching exercises/: %w", err)
	}
	hub := &live.Hub{}
	logger := slog.New(slog.NewTextHandler(log, nil))
	// Each build's compressed copies are written in the background: the
	// page gets the build at once (gzip made by the server until then).
	builds := &yoursBuilds{root: root, dir: dir, touch: map[string]func(){}}
	var stops []func()
	for _, week := range weekbuild.YoursWeeks() {
		name := weekbuild.YoursName(week)
		touch, stop := precompress.Keep(filepath.Join(dir, name), copiesLogger(log, name))
		builds.touch[name] = touch
		stops = append(stops, stop)
	}
	cfg := live.Config{
		Hub:   hub,
		Build: builds.build,
		Seed:  grader.DefaultSeed,
		Grade: func(ctx context.Context, ids []string, pass live.Pass, progress func(grader.Event)) (*report.Report, error) {
			return grader.Grade(ctx, grader.Options{
				Root: root, Target: "exercises", Exercises: ids, Seed: grader.DefaultSeed,
				NoBench: pass == live.Properties, BenchOnly: pass == live.Benchmarks, Progress: progress,
			})
		},
		Plan: grader.Plan,
		Save: st.SaveReport,
		Log:  logger,
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		live.Run(lctx, changes, cfg)
	}()
	stop := func() {
		cancel()
		<-done
		for _, stop := range stops {
			stop()
		}
	}
	return hub, web.Prefer(dir, static), stop, nil
}

// copiesLogger reports, on log, a compressed copy of the file name that
// could not be written (the server then makes gzip itself, and offers no
// Brotli).
func copiesLogger(log io.Writer, name string) func([]precompress.Copy, error) {
	return func(_ []precompress.Copy, err error) {
		if err != nil {
			fmt.Fprintf(log, "ratelab: %s's compressed copies were not written: %v\n", name, err)
		}
	}
}

// yoursBuilds are the live loop's builds of Yours (internal/weekbuild):
// lab.wasm, which the exercise pages replay with, and each week's, which
// its lesson runs Yours from.
type yoursBuilds struct {
	root, dir string
	touch     map[string]func() // by file name: writes its compressed copies
}

// build builds, into b.dir, the builds that have the code of exercises:
// the Yours build of each week whose simulations run one of them, and
// lab.wasm. It serves them only when every one compiles, so that a lesson
// and a replay never run different code. Its error is the compiler's
// "file:line: message" lines, with paths relative to b.root.
func (b *yoursBuilds) build(ctx context.Context, exercises []string) ([]string, error) {
	weeks, err := weekbuild.Rebuilt(ctx, b.root, exercises)
	if err != nil {
		return nil, err
	}
	next := filepath.Join(b.dir, "next")
	if err := os.MkdirAll(next, 0o755); err != nil {
		return nil, err
	}
	defer os.RemoveAll(next)
	// The builds link at once, as many as there are cores: linking is
	// most of a build (the packages are in Go's build cache but the
	// exercises'), and one core's work.
	errs := make([]error, len(weeks))
	cores := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for i, week := range weeks {
		wg.Go(func() {
			cores <- struct{}{}
			defer func() { <-cores }()
			_, errs[i] = weekbuild.BuildYours(ctx, b.root, next, week)
		})
	}
	wg.Wait()
	var names []string
	for i, err := range errs {
		if be := (*weekbuild.Error)(nil); errors.As(err, &be) {
			return nil, errors.New(be.Lines())
		}
		if err != nil {
			return nil, err
		}
		names = append(names, weekbuild.YoursName(weeks[i]))
	}
	for _, name := range names {
		if err := os.Rename(filepath.Join(next, name), filepath.Join(b.dir, name)); err != nil {
			return nil, err
		}
		b.touch[name]()
	}
	return names, nil
}

// shownAddr is the address the lab prints for a browser: the host as --addr
// names it (localhost, as the README says, not the 127.0.0.1 it resolves
// to), localhost when --addr names none (":8080" listens everywhere), and
// the port the listener got (--addr's port may be 0).
func shownAddr(flagAddr string, ln net.Addr) string {
	host, _, err := net.SplitHostPort(flagAddr)
	_, port, err2 := net.SplitHostPort(ln.String())
	if err != nil || err2 != nil {
		return ln.String()
	}
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "localhost"
	}
	return net.JoinHostPort(host, port)
}
