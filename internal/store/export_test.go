package store

import (
	"context"
	"database/sql"
	"fmt"
)

// SetUserVersionForTest sets the schema version of the database at path
// (a SQLite file or a Postgres URL), bypassing migrations, to simulate a
// database written by another version.
func SetUserVersionForTest(ctx context.Context, path string, v int) error {
	if IsPostgresURL(path) {
		db, err := sql.Open("pgx", path)
		if err != nil {
			return err
		}
		defer db.Close()
		_, err = db.ExecContext(ctx, `UPDATE schema_version SET version = $1`, v)
		return err
	}
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		return err
	}
	defer db.Close()
	_, err = db.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", v))
	return err
}
