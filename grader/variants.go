package grader

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"ratelab/grader/report"
	"ratelab/lab/course"
)

// GradeVariants grades several implementations of one exercise, the
// folders dirs, each as Grade would with Options.Replace mapping the
// exercise to that folder, but from one build: one child program serves
// them all, each folder's code its own package in it under a name of its
// own. The grader's own tests grade their fixtures so: a build per
// exercise, not one per fixture. opts must name exactly one exercise in
// Exercises, and no Replace. The variants are graded opts.Parallel at a
// time (0: as many as the process has cores, GOMAXPROCS), each by a child
// process of its own; opts.Progress is called from as many goroutines. The reports come in the
// order of dirs.
//
// If the program does not build (some folder's code does not compile),
// every folder is graded on its own with Grade, so that each report says
// what its own build said.
func GradeVariants(ctx context.Context, opts Options, dirs []string) ([]report.Exercise, error) {
	if len(opts.Exercises) != 1 || len(opts.Replace) > 0 {
		return nil, fmt.Errorf("GradeVariants grades one exercise, named in Exercises, from dirs: Replace must be empty")
	}
	if opts.Target == "" {
		opts.Target = "exercises"
	}
	if opts.Target != "exercises" {
		return nil, fmt.Errorf("variants stand in for the exercises tree: target %q", opts.Target)
	}
	if err := opts.normalize(); err != nil {
		return nil, err
	}
	id := opts.Exercises[0]
	e, ok := course.Lookup(id)
	if _, graded := suites[id]; !ok || !graded {
		return nil, fmt.Errorf("unknown exercise %q (the exercises are %s)", id, gradableList())
	}
	tmp, err := os.MkdirTemp(opts.TempDir, "ratelab-grade-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	g := &grading{opts: opts, tmp: tmp, variants: dirs}
	opts.Progress(Event{Exercise: id, Phase: PhaseBuild})
	replace, err := g.variantsOverlay(id, dirs)
	if err != nil {
		return nil, err
	}
	if _, err := g.runBuild(ctx, replace); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return gradeEachAlone(ctx, opts, dirs)
	}
	bin := filepath.Join(tmp, "child")
	out := make([]report.Exercise, len(dirs))
	var wg sync.WaitGroup
	turns := make(chan struct{}, cmp.Or(opts.Parallel, runtime.GOMAXPROCS(0)))
	for i := range dirs {
		turns <- struct{}{}
		wg.Go(func() {
			defer func() { <-turns }()
			ex := &out[i]
			*ex = report.Exercise{ID: e.ID, Week: e.Week, Title: e.Title, Checks: []report.Check{}}
			g.runExercise(ctx, bin, variantName(id, i), ex)
			if ctx.Err() == nil {
				opts.Progress(Event{Exercise: id, Phase: PhaseExercise, Summary: ex})
			}
		})
	}
	wg.Wait()
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	return out, nil
}

// variantName is the name the child serves variant i of exercise id by.
func variantName(id string, i int) string { return id + "~" + strconv.Itoa(i) }

// variantPath is the import path of variant i's package in the child
// program.
func (g *grading) variantPath(i int) string {
	return g.opts.Module + "/" + childDir + "/v" + strconv.Itoa(i)
}

// variantsOverlay is the overlay of the child program serving every
// variant: variant i's files are the package childDir/v<i>, its adapter
// the package childDir/v<i>/adapter, which the program's main package
// imports.
func (g *grading) variantsOverlay(id string, dirs []string) (map[string]string, error) {
	replace := map[string]string{}
	var paths []string
	for i, dir := range dirs {
		pkg := "v" + strconv.Itoa(i)
		implPath := g.variantPath(i)
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil || len(files) == 0 {
			return nil, fmt.Errorf("variant %s: no .go files", dir)
		}
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			abs, err := filepath.Abs(f)
			if err != nil {
				return nil, err
			}
			replace[filepath.Join(g.opts.Root, childDir, pkg, filepath.Base(f))] = abs
		}
		src, err := adapterSource(id, variantName(id, i), "adapter", implPath)
		if err != nil {
			return nil, err
		}
		if err := g.addGenerated(replace, pkg+"/adapter/adapter.go", src); err != nil {
			return nil, err
		}
		paths = append(paths, implPath+"/adapter")
	}
	if err := g.addImports(replace, paths); err != nil {
		return nil, err
	}
	return replace, nil
}

// gradeEachAlone grades every folder of dirs with a Grade of its own.
func gradeEachAlone(ctx context.Context, opts Options, dirs []string) ([]report.Exercise, error) {
	out := make([]report.Exercise, 0, len(dirs))
	for _, dir := range dirs {
		o := opts
		o.Replace = map[string]string{opts.Exercises[0]: dir}
		r, err := Grade(ctx, o)
		if err != nil {
			return nil, err
		}
		out = append(out, r.Exercises[0])
	}
	return out, nil
}
