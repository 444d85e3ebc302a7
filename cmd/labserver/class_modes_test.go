//go:build unix

package main

import (
	"os"
	"strings"
	"testing"
)

// The class database was world-readable (-rw-r--r--) on the machine where
// untrusted code runs as another user: a new one is the server's user's
// alone, and serve --class warns, at start, of one that others can read,
// saying what to run.
func TestClassDatabaseIsPrivate(t *testing.T) {
	db, _ := setupClass(t, "ada")
	fi, err := os.Stat(db)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("a new class database is %v; want -rw-------", fi.Mode().Perm())
	}
	s := startClassServer(t, db)
	if strings.Contains(s.log.String(), "warning") {
		t.Errorf("serve warned of a private database:\n%s", s.log.String())
	}
	s.signal(9)
	<-s.done

	if err := os.Chmod(db, 0o644); err != nil {
		t.Fatal(err)
	}
	s = startClassServer(t, db)
	if log := s.log.String(); !strings.Contains(log, "warning: "+db+" is -rw-r--r--") || !strings.Contains(log, "chmod 600 "+db) {
		t.Errorf("serve --class on a 0644 database logged:\n%s\nwant a warning saying chmod 600 %s", log, db)
	}
}
