// Package modcopy copies the module's working tree into a temporary
// folder, for the tests that change it (a save in the live loop, a new
// exercise) without touching the developer's, and gives the environment
// the go commands run there need to reuse the build cache.
package modcopy

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Copy copies the working tree of the module at root into dir: not .git,
// node_modules, .ratelab or built binaries (labserver, *.wasm).
func Copy(root, dir string) error {
	return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if d.IsDir() {
			switch rel {
			case ".git", "node_modules", ".ratelab":
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(dir, rel), 0o755)
		}
		if !d.Type().IsRegular() || rel == "labserver" || strings.HasSuffix(rel, ".wasm") {
			return nil
		}
		src, err := os.Open(p)
		if err != nil {
			return err
		}
		defer src.Close()
		dst, err := os.Create(filepath.Join(dir, rel))
		if err != nil {
			return err
		}
		if _, err := io.Copy(dst, src); err != nil {
			dst.Close()
			return err
		}
		return dst.Close()
	})
}

// Env returns the environment with -trimpath added to GOFLAGS, for the go
// commands run in a copy. Go's build cache keys a package of the main
// module by its folder, unless -trimpath: without it every package of a
// fresh copy in a new temporary folder compiles again (about 50 s of CPU
// for labserver, lab.wasm and the grader's child), with it only those the
// test changes. The compiler's messages are the same
// ("exercises/gcra/gcra.go:3:12: …").
func Env() []string {
	flags := "-trimpath"
	if f := os.Getenv("GOFLAGS"); f != "" {
		flags = f + " " + flags
	}
	return append(os.Environ(), "GOFLAGS="+flags)
}
