package build

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"ratelab/grader/buildcache"
	"ratelab/grader/buildout"
	"ratelab/grader/sandbox"
)

// Lab is a build of the lab's WebAssembly (./wasm, GOOS=js
// GOARCH=wasm, what `make wasm` builds into web/static: lab.wasm, or with
// Tags one week's Yours build, see internal/weekbuild) with some
// exercises' packages replaced by a learner's files: class mode's "Yours",
// built on the server from what the learner submitted. The replacement
// works as a grading's (grader.Options.Replace): an overlay hides every non-test
// file of exercises/<id> and adds the learner's under the same names, so
// the checkout is never written.
type Lab struct {
	Root   string // the module's directory (holding go.mod)
	Module string // the module path; "" means "ratelab"
	// Tags are the build's tags (go build -tags): "" builds every week,
	// as lab.wasm; "oneweek,week3" week 3's parts alone.
	Tags string
	// Files replaces exercises/<id> by the files given (name → content),
	// for each id. Names are a submission's: validated .go files, no test.
	Files map[string]map[string][]byte
	// Sandbox, if set, confines the build as it confines a grading's
	// (see sandbox.BuildLimits: limits, the sandbox's user, no proxy, its own Go
	// build cache). Nil builds as the learner's own `make wasm` does.
	Sandbox *sandbox.Sandbox
	// TempDir is where the build's own folder goes (removed when Build
	// returns); "" means the system's temporary folder.
	TempDir string
}

// labPkg is the package the lab's WebAssembly is built from.
const labPkg = "wasm"

// labEnv is the platform the lab's WebAssembly is built for.
var labEnv = []string{"GOOS=js", "GOARCH=wasm"}

// labBuildArgs is the go command's arguments building the lab with tags
// into out with the overlay in ovPath, linked without the symbol table as
// `make wasm` links it.
func labBuildArgs(tags, ovPath, out string) []string {
	return []string{"build", "-ldflags=-s", "-tags", tags, "-overlay", ovPath, "-o", out, "./" + labPkg}
}

func (b *Lab) module() string {
	if b.Module == "" {
		return "ratelab"
	}
	return b.Module
}

// Key is the build's content key: everything that goes into the
// WebAssembly, as the grader's key is for its grading program (the
// toolchain, the command line, whether the sandbox runs it, the module's
// sources ./wasm links for js/wasm in any week (a superset of what one
// week's Tags link), with go.mod and go.sum, and the name and bytes of
// every replacing file). Two builds with one key write the same file, so
// a build is kept and served by its key.
func (b *Lab) Key() (buildcache.Key, error) {
	h := buildcache.NewHasher()
	h.AddString("format", "ratelab lab wasm v1")
	tc, err := Toolchain()
	if err != nil {
		return buildcache.Key{}, err
	}
	h.AddString("toolchain", tc)
	h.AddString("command", strings.Join(labBuildArgs(b.Tags, "OVERLAY", "OUT"), " ")+" CGO_ENABLED=0 "+strings.Join(labEnv, " "))
	h.AddString("sandboxed", fmt.Sprint(b.Sandbox != nil))
	h.AddString("module", b.module())
	pkgs := []string{b.module() + "/" + labPkg}
	ids := b.ids()
	for _, id := range ids {
		pkgs = append(pkgs, ImportsOf(b.Files[id], b.module())...)
	}
	slices.Sort(pkgs)
	tree, err := Sources(b.Root, slices.Compact(pkgs), labEnv...)
	if err != nil {
		return buildcache.Key{}, err
	}
	h.Add("sources", tree[:])
	for _, id := range ids {
		names := make([]string, 0, len(b.Files[id]))
		for name := range b.Files[id] {
			names = append(names, name)
		}
		slices.Sort(names)
		h.AddString("replace", id)
		for _, name := range names {
			h.AddString("replace "+id+" file", name)
			h.Add("replace "+id+" content", b.Files[id][name])
		}
	}
	return h.Sum(), nil
}

// ids are the exercises replaced, in order.
func (b *Lab) ids() []string {
	ids := make([]string, 0, len(b.Files))
	for id := range b.Files {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

// Error is Build's error when the code does not build: Lines are the
// compiler's, each replaced file named as exercise/file.go (e.g.
// "tokenbucket/tokenbucket.go:12:2: undefined: x"), at most 40 of them.
type Error struct{ Lines string }

func (e *Error) Error() string { return "does not build:\n" + e.Lines }

// Build builds the lab into the file out. An error matching *Error
// means the code does not build (its lines say why); any other error is
// the server's (no temporary space, a sandbox that could not start, a
// cancelled ctx).
func (b *Lab) Build(ctx context.Context, out string) error {
	root, err := filepath.Abs(b.Root)
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(b.TempDir, "ratelab-wasm-")
	if err != nil {
		return err
	}
	if tmp, err = filepath.Abs(tmp); err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	// The sandbox's user, if the build drops to it, passes through tmp
	// and writes the program into dst, its own.
	if err := os.Chmod(tmp, 0o711); err != nil {
		return err
	}
	replace := map[string]string{}
	dirs := map[string]string{} // exercise → the folder holding its files
	for _, id := range b.ids() {
		dir := filepath.Join(tmp, "src", id)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		for name, src := range b.Files[id] {
			// Names were validated on upload; Base is a second fence.
			if err := os.WriteFile(filepath.Join(dir, filepath.Base(name)), src, 0o644); err != nil {
				return err
			}
		}
		if err := Overlay(replace, filepath.Join(root, "exercises", id), dir); err != nil {
			return err
		}
		dirs[id] = dir
	}
	ov, _ := json.Marshal(map[string]any{"Replace": replace})
	ovPath := filepath.Join(tmp, "overlay.json")
	if err := os.WriteFile(ovPath, ov, 0o644); err != nil {
		return err
	}
	dst := filepath.Join(tmp, "out")
	if err := os.Mkdir(dst, 0o755); err != nil {
		return err
	}
	if b.Sandbox != nil {
		if err := b.Sandbox.OwnBuildOutput(dst); err != nil {
			return err
		}
	}
	output, err := Go(ctx, root, tmp, b.Sandbox, labEnv, labBuildArgs(b.Tags, ovPath, filepath.Join(dst, "lab.wasm"))...)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			return err
		}
		return &Error{Lines: compilerLines(output, root, dirs, err)}
	}
	return copyOut(filepath.Join(dst, "lab.wasm"), out)
}

// copyOut copies the built file src to dst, streaming: a build may be
// large (the caller bounds its size), and is never held in memory.
func copyOut(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// compilerLines is go build's output as the learner reads it (see
// buildout.Lines), each replaced file named as exercise/file.go; err's
// text if the compiler said nothing.
func compilerLines(out, root string, dirs map[string]string, err error) string {
	var olds []string
	for id, dir := range dirs {
		forms := []string{dir}
		if rel, rerr := filepath.Rel(root, dir); rerr == nil {
			forms = append(forms, rel) // go build names files relative to its folder when that is shorter
		}
		for _, f := range forms {
			olds = append(olds, f+string(filepath.Separator), id+"/")
		}
	}
	return buildout.Lines(out, strings.NewReplacer(olds...).Replace, err.Error())
}
