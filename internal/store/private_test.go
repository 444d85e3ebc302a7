//go:build unix

package store_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"ratelab/grader/report"
	"ratelab/internal/store"
)

// A new database, its WAL and shared-memory files and the folder made for
// it are the owner's alone, whatever the umask lets through; an existing
// file that others can read is listed, not changed.
func TestNewDatabaseIsPrivate(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	db := filepath.Join(t.TempDir(), "new", "class.db")
	st, err := store.Open(context.Background(), db, fixedClock(time.Time{}))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := st.SaveReport(context.Background(), &report.Report{Schema: report.Schema, Target: "exercises"}); err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]os.FileMode{db: 0o600, db + "-wal": 0o600, db + "-shm": 0o600, filepath.Dir(db): 0o700} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != want {
			t.Errorf("%s is %v; want %v", filepath.Base(p), fi.Mode().Perm(), want)
		}
	}
	if w := store.WideModes(db); len(w) != 0 {
		t.Errorf("WideModes of a private database = %q; want none", w)
	}
	if err := os.Chmod(db, 0o644); err != nil {
		t.Fatal(err)
	}
	w := store.WideModes(db)
	if len(w) != 1 || !strings.Contains(w[0], "chmod 600 "+db) {
		t.Errorf("WideModes of a 0644 database = %q; want one line saying chmod 600 %s", w, db)
	}
	if fi, _ := os.Stat(db); fi.Mode().Perm() != 0o644 {
		t.Errorf("WideModes changed the file's mode to %v", fi.Mode().Perm())
	}
}
