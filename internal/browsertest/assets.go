package browsertest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
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
// ./wasm package, builds it with GOOS=js GOARCH=wasm into lab.wasm, and
// writes its compressed copies lab.wasm.br and lab.wasm.gz; then each
// week's builds (internal/weekbuild: the reference's and Yours') and their
// copies.
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
	build := func(tags ...string) error {
		args := append([]string{"build"}, tags...)
		cmd := exec.CommandContext(ctx, "go", append(args, "-o", filepath.Join(dir, "lab.wasm"), "./wasm")...)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("GOOS=js GOARCH=wasm go build %s./wasm: %v\n%s", strings.Join(append(tags, ""), " "), err, out.String())
		}
		return nil
	}
	// As `make wasm` does: if the learner's exercises do not build, the
	// visualization still shows the reference.
	if err := build(); err != nil {
		if err2 := build("-tags", "noyours"); err2 != nil {
			a.Err = fmt.Errorf("%v\n%v", err, err2)
			return a
		}
		a.NoYours = true
	}
	a.Wasm = true
	// As `make wasm` does: lab.wasm.br and lab.wasm.gz beside it, which
	// the server sends in its place.
	if _, err := precompress.Write(filepath.Join(dir, "lab.wasm")); err != nil {
		a.Err = fmt.Errorf("precompressing lab.wasm: %w", err)
		return a
	}
	a.Precompressed = true
	for _, week := range weekbuild.Weeks() {
		path, err := weekbuild.Build(ctx, root, dir, week)
		if err == nil {
			_, err = precompress.Write(path)
		}
		if err != nil {
			a.Err = err
			return a
		}
		// As `make wasm` does: the week's Yours, the reference only if the
		// week's exercises do not build.
		path, err = weekbuild.BuildYours(ctx, root, dir, week)
		if be := (*weekbuild.Error)(nil); errors.As(err, &be) {
			path, err = weekbuild.BuildNoYours(ctx, root, dir, week)
		}
		if err == nil {
			_, err = precompress.Write(path)
		}
		if err != nil {
			a.Err = err
			return a
		}
	}
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
