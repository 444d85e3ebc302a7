//go:build unix

package class

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
)

// A starting class removes the per-process folders of class processes that
// are gone (a killed worker's), and no live process's, its own included.
func TestRemoveGoneProcesses(t *testing.T) {
	tmp := t.TempDir()
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	gonePid := dead.Process.Pid
	self := os.Getpid()
	folder := func(name string) string {
		dir := filepath.Join(tmp, name)
		if err := os.MkdirAll(filepath.Join(dir, tempPrefix+"7-x"), 0o700); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	gone := folder(classTempPrefix + pidPrefix + strconv.Itoa(gonePid))
	kept := []string{
		folder(classTempPrefix + pidPrefix + strconv.Itoa(self)),          // this process
		folder(classTempPrefix + pidPrefix + strconv.Itoa(os.Getppid())),  // a live one
		folder(classTempPrefix + pidPrefix + "0" + strconv.Itoa(gonePid)), // not how a pid is written
		folder(classTempPrefix + pidPrefix + "notapid"),
		folder("other-pid-" + strconv.Itoa(gonePid)),
	}
	removed := removeGoneProcesses(tmp, self)
	if len(removed) != 1 || removed[0] != gone {
		t.Errorf("removed %q, want only %q", removed, gone)
	}
	if _, err := os.Stat(gone); !os.IsNotExist(err) {
		t.Errorf("%s: still there (%v), its process is gone", gone, err)
	}
	for _, dir := range kept {
		if _, err := os.Stat(dir); err != nil {
			t.Errorf("%s: removed (%v), want kept", dir, err)
		}
	}
}
