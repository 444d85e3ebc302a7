package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"ratelab/internal/class"
	"ratelab/internal/store"
)

// workerOptions are runWorker's flags.
type workerOptions struct {
	db          string
	workers     int
	rescueAfter time.Duration
	lease       time.Duration
	gradingFlags
}

// runWorker is `labserver worker --db postgres://… [--workers N]`: it
// grades a Postgres class's submissions on this machine, from this clone of
// the repository, until interrupted.
func runWorker(args []string) error {
	fs := flag.NewFlagSet("worker", flag.ContinueOnError)
	var o workerOptions
	fs.StringVar(&o.db, "db", os.Getenv("RATELAB_DB"), "the class's Postgres database (postgres://…), the server's; default $RATELAB_DB")
	fs.IntVar(&o.workers, "workers", class.DefaultConfig.Workers, "gradings at once on this machine (1 keeps benchmark figures comparable)")
	o.gradingFlags.register(fs, "", defaultBuildCache(), `"" builds every time`)
	fs.DurationVar(&o.rescueAfter, "rescue-after", 0, "how long a grading may run before River, presuming its worker dead, gives it to another; 0 means --job-timeout plus a minute (a backstop: the lease acts first)")
	fs.DurationVar(&o.lease, "lease", 0, "how long this worker holds a grading without renewing it (it renews every third of it): killed, its grading goes to another worker this long after; 0 means "+class.DefaultConfig.Lease.String())
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: labserver worker --db postgres://… [flags]\n\nGrades a class's submissions on this machine, from this clone of the repository\n(the server's commit: a worker whose suites differ refuses to start). Run as many\nas you have machines; Ctrl-C stops one, and its grading goes to another.\n\nflags:")
		fs.PrintDefaults()
	}
	if done, err := parseFlags(fs, args); done {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q (flags start with --)", fs.Arg(0))
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return work(ctx, o, os.Stderr)
}

// defaultBuildCache is the build cache's folder in the user's cache folder,
// "" if there is none.
func defaultBuildCache() string {
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "ratelab", "builds")
}

// work runs a worker until ctx ends.
func work(ctx context.Context, o workerOptions, log io.Writer) error {
	if !store.IsPostgresURL(o.db) {
		return errors.New("--db: a worker needs the class's Postgres URL (postgres://…): a SQLite class grades in its server's process")
	}
	if o.workers < 1 {
		return fmt.Errorf("--workers %d: want 1 or more", o.workers)
	}
	root, err := moduleRoot()
	if err != nil {
		return fmt.Errorf("a worker grades against its clone of the repository: %w", err)
	}
	st, err := store.Open(ctx, o.db, wallClock{})
	if err != nil {
		return err
	}
	defer st.Close()
	cfg := class.Config{
		Store: st, Root: root, Clock: wallClock{}, Workers: o.workers,
		RescueAfter: o.rescueAfter, Lease: o.lease, Log: slog.New(slog.NewTextHandler(log, nil)),
	}
	if err := o.gradingFlags.config(&cfg); err != nil {
		return err
	}
	cl := class.New(cfg)
	if err := cl.CheckSuites(ctx); err != nil {
		return fmt.Errorf("not starting: %w", err)
	}
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if err := cl.Start(cctx); err != nil {
		return err
	}
	fmt.Fprintf(log, "ratelab: grading for the class at %s with %d worker(s); Ctrl-C stops\n", store.Redact(o.db), o.workers)
	<-ctx.Done()
	cancel()
	cl.Wait()
	return nil
}
