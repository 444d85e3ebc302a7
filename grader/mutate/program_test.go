package mutate

import (
	"context"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"ratelab/grader"
)

func TestRewriteAdapter(t *testing.T) {
	src := `package main

import (
	impl "ratelab/exercises/x"
	"ratelab/grader/harness"
	suite "ratelab/grader/suite/x"
)

func init() {
	harness.Register("x", suite.API(
		func(n uint64) suite.Thing { return impl.New(n) },
	))
}
`
	got, path, err := rewriteAdapter(src)
	if err != nil {
		t.Fatal(err)
	}
	if path != "ratelab/grader/suite/x" {
		t.Errorf("suite path = %q, want ratelab/grader/suite/x", path)
	}
	want := "run = func() { hunt.Main(suite.Checks, func(n uint64) suite.Thing { return impl.New(n) }) }\n}\n"
	if !strings.Contains(got, want) || strings.Contains(got, "harness.Register(\"x\"") || !strings.Contains(got, strconv.Quote(huntPath)) {
		t.Errorf("rewritten adapter:\n%s\nwant the registration replaced by %q", got, want)
	}
	if _, _, err := rewriteAdapter("package main\n\nfunc init() {}\n"); err == nil {
		t.Error("rewriteAdapter of a file with no registration: no error")
	}
}

// TestEveryAdapter: the adapter of every gradable exercise can
// be rewritten for a hunt, and still parses.
func TestEveryAdapter(t *testing.T) {
	for _, e := range grader.Gradable() {
		src, suite, err := adapter("../..", e.ID)
		if err != nil {
			t.Errorf("%s: %v", e.ID, err)
			continue
		}
		if suite != "ratelab/grader/suite/"+e.ID {
			t.Errorf("%s: suite %q", e.ID, suite)
		}
		if _, err := parser.ParseFile(token.NewFileSet(), e.ID+".go", src, 0); err != nil {
			t.Errorf("%s: the rewritten adapter does not parse: %v", e.ID, err)
		}
		if !strings.Contains(src, "run = func() { hunt.Main(suite.Checks, ") || !strings.Contains(src, `"ratelab/exercises/`+e.ID+`"`) {
			t.Errorf("%s: rewritten adapter without the hunt's run or the exercise's import:\n%s", e.ID, src)
		}
	}
}

// TestHunt builds the hunt program of gcra three times: over the
// reference itself, where no script may differ; over a mutant that refuses
// what the reference grants, which the first scripts kill; and over one
// that hangs, which the hunt's watchdog ends.
func TestHunt(t *testing.T) {
	if testing.Short() {
		t.Skip("builds two programs")
	}
	p, err := Load("../../solutions/gcra")
	if err != nil {
		t.Fatal(err)
	}
	var bad *Mutant
	for _, m := range p.Mutants() {
		if m.Operator == ConditionalsNegation && strings.Contains(m.After, "ok := ahead > g.tau") {
			bad = &m
		}
	}
	if bad == nil {
		t.Fatal("gcra's reference has no mutant ok := ahead > g.tau: pick another for this test")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	// A mutant that hangs once it refuses a call: the hunt's watchdog
	// must end it.
	const line = "ok := ahead <= g.tau"
	at := strings.Index(string(p.src["gcra.go"]), line)
	if at < 0 {
		t.Fatalf("gcra.go has no line %q: pick another for this test", line)
	}
	hang := Mutant{File: "gcra.go", Offset: at, End: at + len(line), To: "for ahead > g.tau {\n\t}\n\t" + line}
	for _, tt := range []struct {
		name         string
		mutant       *Mutant
		killed, hung bool
	}{
		{"reference", nil, false, false},
		{"mutant", bad, true, false},
		{"hangs", &hang, true, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := p.Dir
			if tt.mutant != nil {
				dir = t.TempDir()
				if err := p.Write(*tt.mutant, dir); err != nil {
					t.Fatal(err)
				}
			}
			dir, _ = filepath.Abs(dir)
			bin := filepath.Join(t.TempDir(), "hunt")
			if err := buildHunt(context.Background(), root, "gcra", dir, bin); err != nil {
				t.Fatal(err)
			}
			r, _, err := runHunt(context.Background(), bin, 20_000, 1, 3*time.Second, 5*time.Minute)
			if err != nil {
				t.Fatal(err)
			}
			if r.Killed != tt.killed || r.Hung != tt.hung || r.RefFails > 0 {
				t.Errorf("hunt = %+v, want killed %v, hung %v and the reference right", r, tt.killed, tt.hung)
			}
			if !tt.killed && r.Scripts != 20_000 {
				t.Errorf("hunt replayed %d scripts, want 20000", r.Scripts)
			}
		})
	}
}
