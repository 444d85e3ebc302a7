// Package build builds the learner's code: the overlays that swap an
// exercise's files for a learner's without writing the checkout
// (Overlay), the go command run as a build of code that may not be
// trusted (Go, confined by package sandbox when one is given), the keys
// that say when a build can be reused (Toolchain, Sources, ImportsOf) and
// the lab's WebAssembly with a learner's code in it (Lab, class mode's
// Yours). The grader builds its grading program with them.
package build

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync/atomic"
	"time"

	"ratelab/grader/sandbox"
)

// runs counts the go commands Go ran in this process (Runs).
var runs atomic.Int64

// Runs returns how many go builds this process has run: the grader's
// tests count them (a program kept by the build cache is not built
// again).
func Runs() int64 { return runs.Load() }

// Go runs the go command with args in dir (the module's root) as a build
// of code that may not be trusted, and returns its combined output: in a
// process group of its own, killed whole when ctx ends (the compiler
// with it, not the go command alone); its work folder under tmp; confined
// by sb (sandbox.ConfineBuild) unless sb is nil; env added last to its
// environment. An error other than the command's exit status (an
// *exec.ExitError: the compiler's output says why) is the server's.
func Go(ctx context.Context, dir, tmp string, sb *sandbox.Sandbox, env []string, args ...string) (string, error) {
	runs.Add(1)
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	work := filepath.Join(tmp, "build") // go build's own work folder: removed with tmp, whatever happens
	if err := os.MkdirAll(work, 0o755); err != nil {
		return "", err
	}
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOTMPDIR="+work, NoModuleIndex())
	sandbox.OwnGroup(cmd)
	cmd.Cancel = func() error { sandbox.KillGroup(cmd); return nil }
	cmd.WaitDelay = time.Second
	if sb != nil {
		done, err := sb.ConfineBuild(cmd, tmp)
		if err != nil {
			return "", fmt.Errorf("could not prepare the build's sandbox: %w", err)
		}
		defer done()
	}
	cmd.Env = append(cmd.Env, env...)
	out, err := cmd.CombinedOutput()
	if err != nil && !errors.As(err, new(*exec.ExitError)) && ctx.Err() == nil {
		err = fmt.Errorf("go build: %w", err) // the go command did not run
	}
	return string(out), err
}
