// Package coursecheck checks the course catalogue (lab/course) against the
// files that make each of its exercises, as rustlings' `dev check` does:
// `labserver exercise check` prints what it finds, and its test fails on
// it. An exercise needs its stub and its reference with the stub's API, a
// grader suite and its adapter for the grading child, fixtures (a
// known-buggy one failing each pitfall, two correct ones), an error model
// for each pitfall, a replay entry for the browser, a lesson with its task
// text, and the lists of exercises that make generate writes
// (package courselists) up to date.
package coursecheck

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"ratelab/grader"
	"ratelab/grader/check"
	"ratelab/grader/fixture"
	"ratelab/grader/report"
	"ratelab/internal/apigen"
	"ratelab/internal/courselists"
	"ratelab/lab/course"
	"ratelab/lab/replay"
	"ratelab/web"
	"ratelab/web/page"
)

// Check returns what the course in the repository at root lacks, one
// sentence each, naming the exercise or the lesson and where to add the
// piece; nothing when the course is whole.
func Check(root string) []string {
	var out []string
	for _, e := range course.Exercises() {
		for _, p := range exerciseProblems(root, e.ID) {
			out = append(out, e.ID+": "+p)
		}
	}
	out = append(out, page.CatalogueProblems(web.Static(filepath.Join(root, "web", "static")))...)
	return append(out, listProblems(root)...)
}

// exerciseProblems returns what exercise id lacks in the repository at
// root.
func exerciseProblems(root, id string) []string {
	out := apiProblems(root, id)
	plan, err := grader.Plan(id)
	if err != nil {
		out = append(out, "the grader has no suite for it (grader/suite/"+id+", then make generate)")
	}
	fixtures, err := fixture.Read(filepath.Join(root, fixture.Dir), id)
	switch {
	case errors.Is(err, fs.ErrNotExist) && len(fixtures) == 0:
		out = append(out, "no fixtures: no folder "+filepath.ToSlash(filepath.Join(fixture.Dir, id)))
	case err != nil:
		out = append(out, err.Error())
	}
	out = append(out, fixtureProblems(id, plan, fixtures, grader.Mistakes(id))...)
	if _, err := os.Stat(filepath.Join(root, "grader", "adapter", id, "adapter.go")); err != nil {
		out = append(out, "no adapter for the grading child (grader/adapter/"+id+"/adapter.go, as the other exercises' are)")
	}
	if e, ok := replay.Exercises[id]; !ok {
		out = append(out, "no replay entry (lab/replay: how the browser replays a counterexample)")
	} else if _, err := e.Model(report.Call{}); errors.Is(err, replay.ErrNotWritten) {
		out = append(out, "its replay entry is still the one labserver exercise new wrote (lab/replay/"+id+".go): write its Build and Model")
	}
	return out
}

// apiProblems returns what keeps exercises/<id> and solutions/<id> from
// being a stub and its reference: both parse, and the reference offers
// all of the stub's API (the grader's adapter compiles against both).
func apiProblems(root, id string) []string {
	stub, err := apigen.Signatures(filepath.Join(root, "exercises", id))
	if err != nil {
		return []string{"no stub: exercises/" + id + ": " + err.Error()}
	}
	ref, err := apigen.Signatures(filepath.Join(root, "solutions", id))
	if err != nil {
		return []string{"no reference: solutions/" + id + ": " + err.Error()}
	}
	var out []string
	for _, s := range stub {
		if !slices.Contains(ref, s) {
			out = append(out, fmt.Sprintf("solutions/%s lacks the stub's %s", id, strings.Join(strings.Fields(s), " ")))
		}
	}
	return out
}

// fixtureProblems returns what exercise id's fixtures and error models
// (mistakes) lack for the checks in plan: a known-buggy fixture failing a
// check of each pitfall, a mistake of each pitfall but the budget, two
// correct fixtures.
func fixtureProblems(id string, plan []report.Check, fixtures []fixture.Fixture, mistakes []check.Named) []string {
	var out []string
	caught := map[string]bool{}
	correct := 0
	for _, f := range fixtures {
		if f.Correct() {
			correct++
		}
		for _, c := range plan {
			if slices.Contains(f.Fails, strings.TrimPrefix(c.ID, id+"/")) {
				caught[c.Pitfall] = true
			}
		}
	}
	modelled := map[string]bool{"budget": true}
	for _, m := range mistakes {
		modelled[m.Pitfall] = true
	}
	for _, c := range plan {
		if !caught[c.Pitfall] {
			out = append(out, fmt.Sprintf("no known-buggy fixture fails a check for pitfall %q (a folder in %s/%s with its expect.json)", c.Pitfall, filepath.ToSlash(fixture.Dir), id))
			caught[c.Pitfall] = true
		}
		if !modelled[c.Pitfall] {
			out = append(out, fmt.Sprintf("no mistake of pitfall %q in its error models (grader/suite/%s/mistakes.go)", c.Pitfall, id))
			modelled[c.Pitfall] = true
		}
	}
	if correct < 2 {
		out = append(out, fmt.Sprintf("%d correct fixtures written differently from the reference, want at least 2", correct))
	}
	return out
}

// listProblems returns the files whose lists of exercises (CONTRIBUTING.md's
// table, the README's weeks, the classroom workflow) differ from the
// catalogue: make generate rewrites them (package courselists).
func listProblems(root string) []string {
	stale, err := courselists.Generate(root)
	if err != nil {
		return []string{err.Error()}
	}
	var out []string
	for f := range stale {
		out = append(out, filepath.ToSlash(f)+" lists the exercises otherwise than the catalogue: run make generate")
	}
	slices.Sort(out)
	return out
}
