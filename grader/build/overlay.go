package build

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// NoModuleIndex is the GODEBUG setting, added to the environment's, that
// turns off the go command's index of package folders, which builds over
// an overlay must not use: it keys a folder's files by name, size
// and modification time, and an overlay gives exercises/<id>/<file> the
// size and time of the replacement, so two replacements of one size and
// one time (fixtures checked out in the same instant, say) share an entry,
// and the second is built with the first's imports ("could not import
// math/bits (open : no such file or directory)").
func NoModuleIndex() string {
	if d := os.Getenv("GODEBUG"); d != "" {
		return "GODEBUG=" + d + ",goindex=0"
	}
	return "GODEBUG=goindex=0"
}

// Overlay maps the package directory pkgDir to the .go files of
// srcDir: every non-test file of pkgDir is hidden, every non-test file of
// srcDir is added under the same name.
func Overlay(replace map[string]string, pkgDir, srcDir string) error {
	for _, d := range []string{pkgDir, srcDir} {
		if _, err := os.Stat(d); err != nil {
			return fmt.Errorf("replacement source: %w", err)
		}
	}
	old, _ := filepath.Glob(filepath.Join(pkgDir, "*.go"))
	for _, f := range old {
		if !strings.HasSuffix(f, "_test.go") {
			replace[f] = ""
		}
	}
	srcs, _ := filepath.Glob(filepath.Join(srcDir, "*.go"))
	for _, f := range srcs {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		abs, err := filepath.Abs(f)
		if err != nil {
			return err
		}
		replace[filepath.Join(pkgDir, filepath.Base(f))] = abs
	}
	return nil
}
