// Package storetest gives tests the databases a store runs on: a SQLite
// file in the test's temporary folder, and a fresh Postgres database on
// the server $RATELAB_POSTGRES_URL names, so the same test runs on both
// backends (Each).
//
// Without $RATELAB_POSTGRES_URL the Postgres runs skip, saying so, unless
// $RATELAB_REQUIRE_POSTGRES is 1 (CI sets both: there they never skip).
// Each Postgres run gets a database of its own, created from the server's
// URL (whose user may create databases) and dropped when the test ends,
// so tests run in parallel and leave nothing behind.
package storetest

import (
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"net/url"
	"os"
	"path/filepath"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver
)

// URLEnv names the variable holding the Postgres server's URL for tests.
const URLEnv = "RATELAB_POSTGRES_URL"

// RequireEnv names the variable that, set to 1, fails the Postgres tests
// instead of skipping them when URLEnv is unset.
const RequireEnv = "RATELAB_REQUIRE_POSTGRES"

// Backend is one database a test runs on.
type Backend struct {
	Name string // "sqlite" or "postgres": the subtest's name
	// Target returns a new, empty database's address as store.Open takes
	// it: a file path or a Postgres URL. It skips (or fails, see
	// RequireEnv) when the backend is not available.
	Target func(t *testing.T) string
}

// Backends are SQLite's and Postgres's.
var Backends = []Backend{
	{"sqlite", func(t *testing.T) string { return filepath.Join(t.TempDir(), "class.db") }},
	{"postgres", PostgresURL},
}

// Each runs test once per backend, as subtests named after it, each with
// a new, empty database's address.
func Each(t *testing.T, test func(t *testing.T, target string)) {
	t.Helper()
	for _, b := range Backends {
		t.Run(b.Name, func(t *testing.T) { test(t, b.Target(t)) })
	}
}

// PostgresURL creates a new database on the server of $RATELAB_POSTGRES_URL
// and returns its URL; the database is dropped when t ends. Without the
// variable it skips t, or fails it when $RATELAB_REQUIRE_POSTGRES is 1.
func PostgresURL(t *testing.T) string {
	t.Helper()
	base := os.Getenv(URLEnv)
	if base == "" {
		if os.Getenv(RequireEnv) == "1" {
			t.Fatalf("$%s is not set and $%s=1: the Postgres tests may not skip (.ci/run starts a server and sets it)", URLEnv, RequireEnv)
		}
		t.Skipf("no Postgres server: set $%s (see .ci/run) to run this on Postgres too", URLEnv)
	}
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("$%s: %v", URLEnv, err)
	}
	admin, err := sql.Open("pgx", base)
	if err != nil {
		t.Fatalf("$%s: %v", URLEnv, err)
	}
	defer admin.Close()
	var b [6]byte
	rand.Read(b[:])
	name := "ratelab_test_" + hex.EncodeToString(b[:])
	if _, err := admin.ExecContext(t.Context(), "CREATE DATABASE "+name); err != nil {
		t.Fatalf("creating a test database on $%s: %v", URLEnv, err)
	}
	t.Cleanup(func() {
		admin, err := sql.Open("pgx", base)
		if err != nil {
			t.Errorf("dropping %s: %v", name, err)
			return
		}
		defer admin.Close()
		if _, err := admin.Exec("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)"); err != nil {
			t.Errorf("dropping %s: %v", name, err)
		}
	})
	u.Path = "/" + name
	return u.String()
}
