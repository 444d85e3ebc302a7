package grader

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"ratelab/grader/build"
	"ratelab/grader/buildcache"
)

// buildKey is the build cache's key for the child program grading ids:
// everything that goes into the binary, so that a different checkout, a
// different toolchain or one changed byte of a submitted file never reuses
// a stale program.
//
//   - the Go toolchain: go env's GOVERSION, GOOS, GOARCH, the
//     architecture levels, GOEXPERIMENT and GOFLAGS, as the go command on
//     PATH reports them;
//   - the build's command line and whether the sandbox runs it (its
//     environment differs);
//   - the sources of this checkout that the child links: every .go file
//     (tests aside) of each package of the module it imports, directly or
//     not (go list -deps of the child's main package, the suites, the
//     references and the graded packages, with the imports of the
//     submitted files), and
//     go.mod and go.sum, which pin the other modules' versions (the
//     module cache holds them read-only, checked against go.sum). The
//     list of packages is asked of go list again whenever one of their
//     files changes, so an import added anywhere is followed;
//   - the generated sources: each exercise's adapter, as rewritten;
//   - for each exercise graded from another folder (Options.Replace), the
//     name and bytes of each .go file the overlay adds.
func (g *grading) buildKey(ids []string) (buildcache.Key, error) {
	h := buildcache.NewHasher()
	h.AddString("format", "ratelab child program v1")
	tc, err := build.Toolchain()
	if err != nil {
		return buildcache.Key{}, err
	}
	h.AddString("toolchain", tc)
	h.AddString("command", strings.Join(goBuildArgs("OVERLAY", "OUT"), " ")+" CGO_ENABLED=0")
	h.AddString("sandboxed", fmt.Sprint(g.opts.Sandbox != nil))
	h.AddString("module", g.opts.Module+" "+g.opts.Target)
	pkgs := []string{g.opts.Module + "/" + childDir}
	for _, id := range ids {
		pkgs = append(pkgs, g.opts.Module+"/grader/suite/"+id, g.implPath(id), g.opts.Module+"/solutions/"+id)
		if dir, ok := g.opts.Replace[id]; ok {
			imps, err := build.NonStdImports(dir, g.opts.Module)
			if err != nil {
				return buildcache.Key{}, err
			}
			pkgs = append(pkgs, imps...)
		}
	}
	tree, err := build.Sources(g.opts.Root, pkgs)
	if err != nil {
		return buildcache.Key{}, err
	}
	h.Add("sources", tree[:])
	for _, id := range ids {
		src, err := adapterSource(id, id, id, g.implPath(id))
		if err != nil {
			return buildcache.Key{}, err
		}
		h.AddString("adapter "+id, src)
		dir, ok := g.opts.Replace[id]
		if !ok {
			continue
		}
		files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		for _, f := range files { // sorted by Glob
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			b, err := os.ReadFile(f)
			if err != nil {
				return buildcache.Key{}, err
			}
			h.AddString("replace "+id+" file", filepath.Base(f))
			h.Add("replace "+id+" content", b)
		}
	}
	return h.Sum(), nil
}
