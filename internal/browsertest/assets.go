package browsertest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"ratelab/internal/precompress"
	"ratelab/internal/weekbuild"
)

// Assets is a static folder built for a test server (ServerOptions.StaticDir).
type Assets struct {
	Dir      string // the folder; empty if nothing was built
	WasmExec bool   // Dir holds wasm_exec.js, copied from the Go toolchain
	Wasm     bool   // Dir holds lab.wasm, built from ./wasm
	// NoYours is set when exercises/ did not build and lab.wasm was built
	// with -tags noyours (the visualization then shows the reference only).
	NoYours bool
	// Precompressed is set when Dir holds lab.wasm.br and lab.wasm.gz
	// beside lab.wasm, as `make wasm` writes them (internal/precompress).
	Precompressed bool
	// Weeks is set when Dir holds each week's builds (internal/weekbuild)
	// and their compressed copies, as `make wasm` writes them: the lessons
	// draw from those, and run Yours from them.
	Weeks bool
	// Err says why something expected is missing: the toolchain could not
	// be asked, or ./wasm exists and did not build. Nil when ./wasm simply
	// does not exist yet.
	Err error
}

// BuildAssets fills dir the way `make wasm` fills web/static: it copies
// wasm_exec.js from $(go env GOROOT)/lib/wasm and, if the module has a
// ./wasm package, makes every build of it (internal/weekbuild.BuildAll:
// each week's, the reference's and Yours', and lab.wasm) and writes their
// compressed copies NAME.br and NAME.gz.
func BuildAssets(ctx context.Context, dir string) Assets {
	a := Assets{Dir: dir}
	root, err := ModuleRoot(ctx)
	if err != nil {
		a.Err = err
		return a
	}
	goroot, err := goEnv(ctx, root, "GOROOT")
	if err != nil {
		a.Err = err
		return a
	}
	js, err := os.ReadFile(filepath.Join(goroot, "lib", "wasm", "wasm_exec.js"))
	if err != nil {
		a.Err = fmt.Errorf("wasm_exec.js: %w", err)
		return a
	}
	if err := os.WriteFile(filepath.Join(dir, "wasm_exec.js"), js, 0o644); err != nil {
		a.Err = err
		return a
	}
	a.WasmExec = true

	if fi, err := os.Stat(filepath.Join(root, "wasm")); err != nil || !fi.IsDir() {
		return a
	}
	// As `make wasm` does: every build, and for each its compressed
	// copies NAME.br and NAME.gz, which the server sends in its place. If
	// the learner's exercises do not build, the visualizations still show
	// the reference.
	noYours, err := weekbuild.BuildAll(ctx, root, dir, io.Discard)
	if err != nil {
		a.Err = err
		return a
	}
	a.NoYours = slices.Contains(noYours, 0)
	a.Wasm = true
	builds, err := filepath.Glob(filepath.Join(dir, "*.wasm"))
	if err != nil {
		a.Err = err
		return a
	}
	for _, path := range builds {
		if _, err := precompress.Write(path); err != nil {
			a.Err = fmt.Errorf("precompressing %s: %w", filepath.Base(path), err)
			return a
		}
	}
	a.Precompressed = true
	a.Weeks = true
	return a
}

// ModuleRoot returns the folder of the ratelab module's go.mod.
func ModuleRoot(ctx context.Context) (string, error) {
	gomod, err := goEnv(ctx, "", "GOMOD")
	if err != nil {
		return "", err
	}
	if gomod == "" || gomod == os.DevNull {
		return "", errors.New("not inside the ratelab module")
	}
	return filepath.Dir(gomod), nil
}

func goEnv(ctx context.Context, dir, name string) (string, error) {
	cmd := exec.CommandContext(ctx, "go", "env", name)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go env %s: %w", name, err)
	}
	return strings.TrimSpace(string(out)), nil
}
