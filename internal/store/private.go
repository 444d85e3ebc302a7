package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// The database holds every learner's submissions, tokens' hashes and
// grades, on a machine where class mode runs untrusted code as another
// user: it is the server's user's alone. A new SQLite database is made
// readable by its owner only (0600; SQLite gives its -wal and -shm files
// the database's mode), in a folder made 0700 if the store makes it. An
// existing file or folder is never changed behind the owner's back:
// WideModes lists what others can read, for the server to warn about.

// createPrivate creates the database file at path with mode 0600 if it
// does not exist yet, and its folder with 0700.
func createPrivate(path string) error {
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return err
		}
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return nil
	}
	if err != nil {
		return err
	}
	return f.Close()
}

// WideModes returns, for the SQLite database at path, a line for each of
// files (the database, -wal, -shm) that users other than the owner may read
// or write, saying what to run; none for Postgres or where modes mean
// nothing (Windows).
func WideModes(path string) []string {
	if IsPostgresURL(path) || !unixModes {
		return nil
	}
	var out []string
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		if fi, err := os.Stat(p); err == nil && fi.Mode().Perm()&0o077 != 0 {
			out = append(out, fmt.Sprintf("%s is %s: other users of this machine can read it; chmod 600 %s", p, fi.Mode().Perm(), p))
		}
	}
	return out
}
