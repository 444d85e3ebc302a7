package class

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"ratelab/internal/store"
)

// suitesSetting names the store setting holding the server's SuitesHash.
const suitesSetting = "suites"

// suitesSources are what decide a grading, relative to the repository's
// root: the grader (its suites, its registry, the child's harness), the
// reference solutions and the lab's models they are checked against, and
// the module's dependencies.
var suitesSources = []string{"grader", "solutions", "lab", "go.mod", "go.sum"}

// SuitesHash hashes the sources that decide a grading in the repository at
// root (suitesSources: every file but tests and test data), path and
// bytes, in path order. Two clones at the same commit hash the same; a
// worker whose hash differs from its server's would grade differently.
func SuitesHash(root string) (string, error) {
	var files []string
	for _, s := range suitesSources {
		err := filepath.WalkDir(filepath.Join(root, s), func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if d.Name() == "testdata" {
					return filepath.SkipDir
				}
				return nil
			}
			if !strings.HasSuffix(p, "_test.go") {
				files = append(files, p)
			}
			return nil
		})
		if err != nil {
			return "", fmt.Errorf("hashing the suites: %w", err)
		}
	}
	slices.Sort(files)
	h := sha256.New()
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			return "", fmt.Errorf("hashing the suites: %w", err)
		}
		rel, _ := filepath.Rel(root, p)
		fmt.Fprintf(h, "%s\x00%d\x00", filepath.ToSlash(rel), len(b))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// RecordSuites stores this server's SuitesHash for its workers to check
// (CheckSuites). Postgres stores only.
func (c *Class) RecordSuites(ctx context.Context) error {
	sum, err := SuitesHash(c.cfg.Root)
	if err != nil {
		return err
	}
	return c.st.SetSetting(ctx, suitesSetting, sum)
}

// CheckSuites returns an error, saying why, unless this clone's
// SuitesHash is the one the class's server recorded: a worker grading
// with other suites than the server's must not start.
func (c *Class) CheckSuites(ctx context.Context) error {
	mine, err := SuitesHash(c.cfg.Root)
	if err != nil {
		return err
	}
	theirs, err := c.st.Setting(ctx, suitesSetting)
	if errors.Is(err, store.ErrNotFound) {
		return errors.New("no class server has started on this database yet: start `labserver serve --class` first, so workers can check they grade as it does")
	}
	if err != nil {
		return err
	}
	if mine != theirs {
		return fmt.Errorf("this clone's grader suites (hash %.12s) differ from the server's (%.12s): check out the server's commit in %s", mine, theirs, c.cfg.Root)
	}
	return nil
}
