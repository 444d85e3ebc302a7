package store

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// Backend names the database a Store runs on.
type Backend string

// Backends.
const (
	SQLite   Backend = "sqlite"
	Postgres Backend = "postgres"
)

// IsPostgresURL reports whether target, a Store's address as Open takes
// it, is a Postgres connection URL ("postgres://…" or "postgresql://…")
// rather than a SQLite file's path.
func IsPostgresURL(target string) bool {
	return strings.HasPrefix(target, "postgres://") || strings.HasPrefix(target, "postgresql://")
}

// The store's statements are written once, in the SQL both backends read:
// "?" placeholders (or "?N" to use one argument twice), RETURNING, ON
// CONFLICT … DO UPDATE, string_agg, CASE instead of two-argument max,
// TRUE/FALSE. db and tx rewrite the placeholders to Postgres's "$N" on the
// way out; the few clauses only one backend has come from the dialect
// (dialect.skipLocked).

// dialect is what differs between the backends beyond the placeholders.
type dialect struct {
	backend Backend
	// skipLocked ends a SELECT that picks a row to claim: Postgres's
	// FOR UPDATE SKIP LOCKED, so two workers never wait on (or take) the
	// same row; nothing on SQLite, whose writers take the lock when they
	// begin.
	skipLocked string
}

var (
	sqliteDialect   = dialect{backend: SQLite}
	postgresDialect = dialect{backend: Postgres, skipLocked: " FOR UPDATE OF j SKIP LOCKED"}
)

// rebind rewrites q's placeholders for the backend: on Postgres, "?N"
// becomes "$N" and each bare "?" the next number, as SQLite numbers them.
// The store's statements hold no "?" in a string literal.
func (d dialect) rebind(q string) string {
	if d.backend != Postgres || !strings.Contains(q, "?") {
		return q
	}
	var b strings.Builder
	b.Grow(len(q) + 8)
	n := 0
	for i := 0; i < len(q); i++ {
		if q[i] != '?' {
			b.WriteByte(q[i])
			continue
		}
		j := i + 1
		for j < len(q) && q[j] >= '0' && q[j] <= '9' {
			j++
		}
		if j > i+1 {
			v, _ := strconv.Atoi(q[i+1 : j])
			n = max(n, v)
			b.WriteString("$" + q[i+1:j])
		} else {
			n++
			b.WriteString("$" + strconv.Itoa(n))
		}
		i = j - 1
	}
	return b.String()
}

// isUnique reports whether err is the database's refusal of a duplicate in
// a UNIQUE column or a primary key: SQLite's extended result codes, or
// Postgres's unique_violation (SQLSTATE 23505).
func isUnique(err error) bool {
	var se *sqlite.Error
	if errors.As(err, &se) {
		return se.Code() == sqlite3.SQLITE_CONSTRAINT_UNIQUE || se.Code() == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code == "23505"
	}
	return false
}

// db is a *sql.DB whose statements are rebound for its dialect.
type db struct {
	*sql.DB
	d dialect
}

func (x *db) ExecContext(ctx context.Context, q string, args ...any) (sql.Result, error) {
	return x.DB.ExecContext(ctx, x.d.rebind(q), args...)
}

func (x *db) QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	return x.DB.QueryContext(ctx, x.d.rebind(q), args...)
}

func (x *db) QueryRowContext(ctx context.Context, q string, args ...any) *sql.Row {
	return x.DB.QueryRowContext(ctx, x.d.rebind(q), args...)
}

func (x *db) BeginTx(ctx context.Context, o *sql.TxOptions) (*tx, error) {
	t, err := x.DB.BeginTx(ctx, o)
	if err != nil {
		return nil, err
	}
	return &tx{Tx: t, d: x.d}, nil
}

// tx is a *sql.Tx whose statements are rebound for its dialect.
type tx struct {
	*sql.Tx
	d dialect
}

func (x *tx) ExecContext(ctx context.Context, q string, args ...any) (sql.Result, error) {
	return x.Tx.ExecContext(ctx, x.d.rebind(q), args...)
}

func (x *tx) QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	return x.Tx.QueryContext(ctx, x.d.rebind(q), args...)
}

func (x *tx) QueryRowContext(ctx context.Context, q string, args ...any) *sql.Row {
	return x.Tx.QueryRowContext(ctx, x.d.rebind(q), args...)
}
