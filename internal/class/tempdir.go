package class

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// A class without a database file of its own (Postgres, in memory) keeps
// its temporary files in a folder named by its process id, classTempPrefix
// + pidPrefix + pid, under the system's temporary folder.
const (
	classTempPrefix = "ratelab-class-"
	pidPrefix       = "pid-"
)

// tempRoot returns the class's own folder of temporary files (see
// Config.TempDir), creating it.
func (c *Class) tempRoot(ctx context.Context) (string, error) {
	dir := c.cfg.TempDir
	if dir == "" {
		db, err := c.st.Path(ctx)
		if err != nil {
			return "", err
		}
		name := pidPrefix + strconv.Itoa(os.Getpid())
		if db != "" {
			if abs, err := filepath.Abs(db); err == nil {
				db = abs
			}
			sum := sha256.Sum256([]byte(db))
			name = hex.EncodeToString(sum[:6])
		}
		dir = filepath.Join(os.TempDir(), classTempPrefix+name)
		c.cfg.TempDir = dir
	}
	if err := os.MkdirAll(dir, 0o711); err != nil {
		return "", err
	}
	return dir, os.Chmod(dir, 0o711)
}

// sweep removes the grading folders a previous run left in the class's
// temporary folder (killed mid-grading, a shutdown mid-build): only those
// named with tempPrefix, which only this package makes there.
func (c *Class) sweep(ctx context.Context) error {
	root, err := c.tempRoot(ctx)
	if err != nil {
		return err
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		return err
	}
	n := 0
	for _, e := range entries {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), tempPrefix) {
			continue
		}
		if err := os.RemoveAll(filepath.Join(root, e.Name())); err != nil {
			c.cfg.Log.Warn("class: removing a leftover grading folder", "err", err)
			continue
		}
		n++
	}
	if n > 0 {
		c.cfg.Log.Info("class: removed the grading folders a previous run left", "folders", n, "in", root)
	}
	if gone := removeGoneProcesses(os.TempDir(), os.Getpid()); len(gone) > 0 {
		c.cfg.Log.Info("class: removed the temporary folders of class processes that stopped", "folders", gone)
	}
	return nil
}

// removeGoneProcesses removes, under tmp, the per-process class folders
// (classTempPrefix + pidPrefix + pid) of processes that are gone: a worker
// killed mid-grading never removes its own. It removes a folder only when
// it is a folder (not a link), owned by this process's user, named by a
// pid other than self that no process has now (processGone). A pid reused
// by another process keeps its folder until that process is gone too;
// where liveness or ownership cannot be told (not Unix), nothing is
// removed. It returns the folders removed.
func removeGoneProcesses(tmp string, self int) []string {
	entries, err := os.ReadDir(tmp)
	if err != nil {
		return nil
	}
	var removed []string
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), classTempPrefix+pidPrefix)
		if !ok || !e.IsDir() {
			continue
		}
		pid, err := strconv.Atoi(rest)
		if err != nil || pid <= 0 || pid == self || strconv.Itoa(pid) != rest {
			continue
		}
		fi, err := e.Info() // not following a link, as e.IsDir
		if err != nil || !ownedByMe(fi) || !processGone(pid) {
			continue
		}
		dir := filepath.Join(tmp, e.Name())
		if os.RemoveAll(dir) == nil {
			removed = append(removed, dir)
		}
	}
	return removed
}

// tempDir makes a grading's own folder, removed when it ends.
func (c *Class) tempDir(job int64) (string, error) {
	root, err := c.tempRoot(context.Background())
	if err != nil {
		return "", err
	}
	dir, err := os.MkdirTemp(root, tempPrefix+strconv.FormatInt(job, 10)+"-")
	if err != nil {
		return "", err
	}
	return dir, os.Chmod(dir, 0o711) // the sandbox's user passes through it
}
