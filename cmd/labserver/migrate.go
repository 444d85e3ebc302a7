package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"time"

	"ratelab/internal/class"
	"ratelab/internal/store"
)

// runMigrate is `labserver migrate --db PATH|URL`: it brings a class's
// database to this version's schema, and on Postgres runs River's
// migrations too. serve and worker do the same at start-up; migrate is for
// doing it first, on purpose.
func runMigrate(args []string) error {
	fs := flag.NewFlagSet("migrate", flag.ContinueOnError)
	db := fs.String("db", dbDefault(), dbUsage)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: labserver migrate [--db PATH|URL]\n\nBrings the database to this version's schema (and River's, on Postgres).\n\nflags:")
		fs.PrintDefaults()
	}
	if done, err := parseFlags(fs, args); done {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q (flags start with --)", fs.Arg(0))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	st, err := openClassStore(ctx, *db)
	if err != nil {
		return err
	}
	defer st.Close()
	v, err := st.SchemaVersion(ctx)
	if err != nil {
		return err
	}
	if st.Backend() == store.Postgres {
		if err := class.MigrateQueue(ctx, *db); err != nil {
			return err
		}
		fmt.Fprintf(os.Stderr, "database %s: schema version %d, River's tables up to date\n", store.Redact(*db), v)
		return nil
	}
	fmt.Fprintf(os.Stderr, "database %s: schema version %d\n", store.Redact(*db), v)
	return nil
}
