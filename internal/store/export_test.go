package store

import (
	"context"
	"database/sql"
	"fmt"
)

// SetUserVersionForTest sets the schema version of the database at path,
// bypassing migrations, to simulate a file written by another version.
func SetUserVersionForTest(ctx context.Context, path string, v int) error {
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		return err
	}
	defer db.Close()
	_, err = db.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", v))
	return err
}
