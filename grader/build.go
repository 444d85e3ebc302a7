package grader

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"ratelab/grader/build"
	"ratelab/grader/buildout"
)

// childDir is the child program's main package. The overlay adds the
// adapters beside its main.go (see goBuild); nothing is written there on
// disk.
const childDir = "grader/harness/child"

// build compiles one child program grading the given exercises. It returns
// the binary's path, or, per exercise, the compiler's message for those
// whose code does not build (the others are built without them).
//
// With a build cache (Options.BuildCache), a program built whole before
// from the same key (see buildKey) is copied from the cache instead, and a
// build in which every exercise compiled is stored there. A build with a
// compile error is not stored: it is built again to report the error.
func (g *grading) build(ctx context.Context, ids []string) (bin string, broken map[string]string, err error) {
	cache := g.opts.BuildCache
	if cache == nil {
		return g.buildEach(ctx, ids)
	}
	key, err := g.buildKey(ids)
	if err != nil {
		// Without a key (go list could not list what the program links),
		// build as without a cache: the build reports what is wrong.
		return g.buildEach(ctx, ids)
	}
	unlock := cache.Lock(key)
	defer unlock()
	bin = filepath.Join(g.tmp, "child")
	if cache.Get(key, bin, 0o755) {
		return bin, map[string]string{}, nil
	}
	bin, broken, err = g.buildEach(ctx, ids)
	if err == nil && len(broken) == 0 {
		// A program that could not be stored is built again next time:
		// the grading goes on.
		cache.Put(key, bin)
	}
	return bin, broken, err
}

// buildEach builds the program for ids, leaving out, one by one, the
// exercises the compiler blames.
func (g *grading) buildEach(ctx context.Context, ids []string) (bin string, broken map[string]string, err error) {
	broken = map[string]string{}
	for len(ids) > 0 {
		out, err := g.goBuild(ctx, ids)
		if err == nil {
			return filepath.Join(g.tmp, "child"), broken, nil
		}
		if ctx.Err() != nil {
			return "", nil, ctx.Err()
		}
		blame := g.blame(out, ids)
		if len(blame) == 0 { // not attributable to one exercise: all fail alike
			for _, id := range ids {
				broken[id] = buildout.Cap(out)
			}
			return "", broken, nil
		}
		var rest []string
		for _, id := range ids {
			if msg, ok := blame[id]; ok {
				broken[id] = msg
			} else {
				rest = append(rest, id)
			}
		}
		ids = rest
	}
	return "", broken, nil
}

// goBuild runs go build with an overlay that adds each exercise's adapter,
// as the package childDir/<id>, and a file of the child's main package
// importing them, and swaps in replacement sources. It returns the
// compiler's output.
func (g *grading) goBuild(ctx context.Context, ids []string) (string, error) {
	replace := map[string]string{}
	var paths []string
	for _, id := range ids {
		src, err := adapterSource(id, id, id, g.implPath(id))
		if err != nil {
			return "", err
		}
		if err := g.addGenerated(replace, id+"/adapter.go", src); err != nil {
			return "", err
		}
		paths = append(paths, g.opts.Module+"/"+childDir+"/"+id)
		if dir, ok := g.opts.Replace[id]; ok {
			if err := build.Overlay(replace, filepath.Join(g.opts.Root, "exercises", id), dir); err != nil {
				return "", err
			}
		}
	}
	if err := g.addImports(replace, paths); err != nil {
		return "", err
	}
	return g.runBuild(ctx, replace)
}

// addImports adds to the overlay replace a file of the child's main
// package importing the adapters' packages, paths.
func (g *grading) addImports(replace map[string]string, paths []string) error {
	src, err := importsSource(paths)
	if err != nil {
		return err
	}
	return g.addGenerated(replace, "adapters.go", src)
}

// addGenerated writes a generated source file of the child program, name
// its path under childDir, and adds it to the overlay replace.
func (g *grading) addGenerated(replace map[string]string, name, src string) error {
	p := filepath.Join(g.tmp, "gen", filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	replace[filepath.Join(g.opts.Root, childDir, filepath.FromSlash(name))] = p
	return os.WriteFile(p, []byte(src), 0o644)
}

// runBuild builds the child program into g.tmp/child with the overlay
// replace, in its own process group (and the sandbox, if any), and returns
// the go command's output.
func (g *grading) runBuild(ctx context.Context, replace map[string]string) (string, error) {
	ov, _ := json.Marshal(map[string]any{"Replace": replace})
	ovPath := filepath.Join(g.tmp, "overlay.json")
	if err := os.WriteFile(ovPath, ov, 0o644); err != nil {
		return "", err
	}
	// The compiler runs in go build's process group: a cancelled or
	// timed-out grading kills them all, not the go command alone.
	return build.Go(ctx, g.opts.Root, g.tmp, g.opts.Sandbox, nil, goBuildArgs(ovPath, filepath.Join(g.tmp, "child"))...)
}

// goBuildArgs is the go command's arguments building the child into out
// with the overlay in ovPath. The child is linked without its symbol table
// and DWARF (-s -w), which nothing reads: a panic's stack and the lines
// of allocation sites come from the runtime's own line tables, which stay.
// The link, most of a build, is the quicker for it (cmd/gradebench shows
// a grading's time with its build).
func goBuildArgs(ovPath, out string) []string {
	return []string{"build", "-ldflags=-s -w", "-overlay", ovPath, "-o", out, "./" + childDir}
}

// packageHeader matches go build's "# ratelab/exercises/tokenbucket" lines.
var packageHeader = regexp.MustCompile(`^# (\S+)`)

// blame splits compiler output by exercise: errors in an exercise's own
// package, and errors in its generated adapter (its API does not match the
// contract), belong to it.
func (g *grading) blame(out string, ids []string) map[string]string {
	blame := map[string]string{}
	var cur string
	for _, line := range strings.Split(out, "\n") {
		if m := packageHeader.FindStringSubmatch(line); m != nil {
			cur = ""
			for _, id := range ids {
				if m[1] == g.implPath(id) {
					cur = id
				}
			}
			continue
		}
		if strings.TrimSpace(line) == "" {
			continue
		}
		id := cur
		for _, c := range ids {
			// go build names the overlay's file, the generated copy in
			// tmp, by an absolute or a relative path: match its tail.
			if strings.Contains(line, "gen/"+c+"/adapter.go:") || strings.Contains(line, childDir+"/"+c+"/adapter.go:") {
				id = c
				line = apiMismatch(c, line)
			}
		}
		if id != "" && slices.Contains(ids, id) {
			// A replacement's files are named as the learner knows them
			// (tokenbucket.go:3:12), not by the server's temporary folder.
			if dir, ok := g.opts.Replace[id]; ok {
				line = strings.ReplaceAll(line, filepath.Clean(dir)+string(filepath.Separator), "")
				if abs, err := filepath.Abs(dir); err == nil {
					line = strings.ReplaceAll(line, abs+string(filepath.Separator), "")
					// go build names files relative to its folder when
					// that is shorter (../../tmp/...).
					if rel, err := filepath.Rel(g.opts.Root, abs); err == nil {
						line = strings.ReplaceAll(line, rel+string(filepath.Separator), "")
					}
				}
			}
			blame[id] += line + "\n"
		}
	}
	for id, msg := range blame {
		blame[id] = buildout.Cap(strings.TrimRight(msg, "\n"))
	}
	return blame
}

// apiMismatch rewords an error in the generated adapter, which the learner
// never sees, as an API that differs from the contract.
func apiMismatch(id, line string) string {
	if i := strings.Index(line, ".go:"); i >= 0 {
		if j := strings.Index(line[i+4:], ": "); j >= 0 {
			line = line[i+4+j+2:]
		}
	}
	return fmt.Sprintf("the exported API of %s "+buildout.Contract+" (New and the methods must keep their exact signatures): %s", id, line)
}
