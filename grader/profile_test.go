package grader

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"ratelab/grader/check"
)

// TestProfileTrustsNoAnswerItCannotCheck: the sites a child answers a
// profiled run with are passed on only if each is a line of a file of the
// learner's package, with no more allocations in all than the run made,
// and no more of them than wire.MaxSites; anything else gives no sites,
// never a lost check, and an answer that is not one, or a run that does
// not return, stops the child without losing the check.
func TestProfileTrustsNoAnswerItCannotCheck(t *testing.T) {
	site := func(file, line, callee, count string) string {
		return fmt.Sprintf(`{"file":%q,"line":%q,"callee":%q,"count":%q}`, file, line, callee, count)
	}
	answer := func(allocs string, sites ...string) string {
		return `{"digest":"1","allocs":"` + allocs + `","wall_ns":"5","sites":[` + strings.Join(sites, ",") + `]}`
	}
	honest := site("tokenbucket.go", "52", "runtime.newobject", "90")
	for _, c := range []struct {
		name, mode, answer string
		want               string // the records, as fmt writes them
		stopped            bool   // the child is stopped (and the loss forgotten)
	}{
		{"honest", "profile", answer("100", honest, site("ring.go", "7", "runtime.growslice", "5"), site("ring.go", "9", "runtime.newobject", "5")),
			"[{tokenbucket.go 52 runtime.newobject 90 false} {ring.go 7 runtime.growslice 5 false} {ring.go 9 runtime.newobject 5 true}]", false},
		{"a file not the learner's", "profile", answer("100", honest, site("../../etc/passwd", "1", "", "1")), "[]", false},
		{"a file of another package", "profile", answer("100", site("harness.go", "1", "", "1")), "[]", false},
		{"more allocations than the run made", "profile", answer("100", honest, site("ring.go", "7", "", "11")), "[]", false},
		{"no count of the run", "profile", answer("many", honest), "[]", false},
		{"line 0", "profile", answer("100", site("ring.go", "0", "", "1")), "[]", false},
		{"a line past the file's end", "profile", answer("100", site("ring.go", "21", "", "1")), "[]", false},
		{"the file's last line", "profile", answer("100", site("ring.go", "20", "", "1")), "[{ring.go 20  1 false}]", false},
		{"a count that is not one", "profile", answer("100", site("ring.go", "3", "", "-1")), "[]", false},
		{"too many sites", "profile", answer("100", slices.Repeat([]string{site("ring.go", "3", "", "1")}, 17)...), "[]", false},
		{"a callee no runtime function has", "profile", answer("100", site("ring.go", "3", strings.Repeat("x", 300), "1")), "[{ring.go 3  1 false}]", false},
		{"not an answer", "profile", "no, thank you", "[]", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("RATELAB_FAKE_PROFILE", c.answer)
			ch := fake(t, context.Background(), c.mode)
			ch.pkg, ch.files = "ratelab/exercises/tokenbucket", map[string]sourceFile{"tokenbucket.go": {lines: 60}, "ring.go": {lines: 20, funcLits: map[int]bool{9: true}}}
			ch.arm(time.Minute)
			got := ch.Profile(check.BenchSpec{Loop: "learner", Seed: 1, Warm: 10, N: 100})
			if fmt.Sprint(got) != c.want && !(c.want == "[]" && got == nil) {
				t.Errorf("Profile = %v, want %s", got, c.want)
			}
			if ch.lost != nil || (ch.cmd == nil) != c.stopped {
				t.Errorf("after the profile: lost %v, stopped %t; want nothing lost, stopped %t", ch.lost, ch.cmd == nil, c.stopped)
			}
			ch.stop()
		})
	}
}

// TestAProfiledRunThatDoesNotReturnIsGivenUp: a profiled run past the
// check's time stops the child, gives no sites, and leaves the check to
// its verdict (no loss to report).
func TestAProfiledRunThatDoesNotReturnIsGivenUp(t *testing.T) {
	if _, ok := cpuUsed(os.Getpid()); !ok {
		t.Skip("this OS gives no CPU time of another process")
	}
	ch := fake(t, context.Background(), "spin-on-call")
	ch.pkg, ch.files = "ratelab/exercises/tokenbucket", map[string]sourceFile{"tokenbucket.go": {lines: 60}}
	ch.arm(300 * time.Millisecond)
	if got := ch.Profile(check.BenchSpec{Loop: "learner", Seed: 1, Warm: 10, N: 100}); got != nil {
		t.Errorf("Profile of a run that spins = %v, want none", got)
	}
	if ch.lost != nil || ch.cmd != nil {
		t.Errorf("after a profile that spun: lost %v, running %t; want nothing lost, the child stopped", ch.lost, ch.cmd != nil)
	}
}

// TestAChildWithoutTheLearnersFilesIsNotProfiled: with no package or no
// files to charge allocations to, Profile asks the child nothing.
func TestAChildWithoutTheLearnersFilesIsNotProfiled(t *testing.T) {
	ch := fake(t, context.Background(), "hang")
	ch.pkg = "ratelab/exercises/tokenbucket"
	ch.arm(time.Minute)
	if got := ch.Profile(check.BenchSpec{Loop: "learner", Seed: 1, N: 100}); got != nil || ch.cmd != nil {
		t.Errorf("Profile without the learner's files = %v (child started %t), want none, and no child", got, ch.cmd != nil)
	}
}

// TestSourceFilesAreTheLearnersGoFiles: the files allocations may be
// charged to are the folder's Go files but its tests, each with the lines
// its function literals start on (none for a file that does not parse).
func TestSourceFilesAreTheLearnersGoFiles(t *testing.T) {
	dir := t.TempDir()
	for name, src := range map[string]string{
		"ring.go":      "package ring\n\nfunc New() func() int {\n\tn := 0\n\treturn func() int {\n\t\tn++\n\t\treturn n\n\t}\n}\n\nvar f = func() {}\n",
		"broken.go":    "package ring\n\nfunc (\n",
		"ring_test.go": "package ring\n",
		"notes.txt":    "func() {}\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got := sourceFiles(dir)
	if want := "map[broken.go:{4 map[]} ring.go:{12 map[5:true 11:true]}]"; fmt.Sprint(got) != want {
		t.Errorf("sourceFiles = %v, want %s", got, want)
	}
	if got := sourceFiles(""); len(got) != 0 {
		t.Errorf("sourceFiles of no folder = %v, want none (not the working folder's)", got)
	}
}

// TestAProfileThatCannotRunLosesNothingButACancel: a profiled run whose
// child cannot start gives no sites and leaves no loss for the check to
// report (its verdict was made before); a cancelled grading is still
// reported as cancelled.
func TestAProfileThatCannotRunLosesNothingButACancel(t *testing.T) {
	spec := check.BenchSpec{Loop: "learner", Seed: 1, Warm: 10, N: 100}
	files := map[string]sourceFile{"tokenbucket.go": {lines: 60}}

	ch := newChild(context.Background(), filepath.Join(t.TempDir(), "no-such-program"), "tokenbucket", t.TempDir(), nil)
	ch.pkg, ch.files = "ratelab/exercises/tokenbucket", files
	ch.arm(time.Minute)
	if got := ch.Profile(spec); got != nil || ch.lost != nil {
		t.Errorf("Profile with a child that cannot start = %v, lost %v; want no sites and nothing lost", got, ch.lost)
	}

	ctx, cancel := context.WithCancel(context.Background())
	ch = fake(t, ctx, "hang")
	ch.pkg, ch.files = "ratelab/exercises/tokenbucket", files
	ch.arm(time.Minute)
	time.AfterFunc(100*time.Millisecond, cancel)
	if got := ch.Profile(spec); got != nil || ch.lost == nil || ch.lost.kind != lostCanceled {
		t.Errorf("Profile in a cancelled grading = %v, lost %+v; want no sites and the cancel kept", got, ch.lost)
	}
	ch.stop()
}
