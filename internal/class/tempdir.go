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

// tempRoot returns the class's own folder of temporary files (see
// Config.TempDir), creating it.
func (c *Class) tempRoot(ctx context.Context) (string, error) {
	dir := c.cfg.TempDir
	if dir == "" {
		db, err := c.st.Path(ctx)
		if err != nil {
			return "", err
		}
		name := "pid-" + strconv.Itoa(os.Getpid())
		if db != "" {
			if abs, err := filepath.Abs(db); err == nil {
				db = abs
			}
			sum := sha256.Sum256([]byte(db))
			name = hex.EncodeToString(sum[:6])
		}
		dir = filepath.Join(os.TempDir(), "ratelab-class-"+name)
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
	return nil
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
