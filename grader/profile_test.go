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
		{"honest", "profile", answer("100", honest, site("ring.go", "7", "runtime.growslice", "10")),
			"[{tokenbucket.go 52 runtime.newobject 90} {ring.go 7 runtime.growslice 10}]", false},
		{"a file not the learner's", "profile", answer("100", honest, site("../../etc/passwd", "1", "", "1")), "[]", false},
		{"a file of another package", "profile", answer("100", site("harness.go", "1", "", "1")), "[]", false},
		{"more allocations than the run made", "profile", answer("100", honest, site("ring.go", "7", "", "11")), "[]", false},
		{"no count of the run", "profile", answer("many", honest), "[]", false},
		{"line 0", "profile", answer("100", site("ring.go", "0", "", "1")), "[]", false},
		{"a line no file has", "profile", answer("100", site("ring.go", "99999999", "", "1")), "[]", false},
		{"a count that is not one", "profile", answer("100", site("ring.go", "3", "", "-1")), "[]", false},
		{"too many sites", "profile", answer("100", slices.Repeat([]string{site("ring.go", "3", "", "1")}, 17)...), "[]", false},
		{"a callee no runtime function has", "profile", answer("100", site("ring.go", "3", strings.Repeat("x", 300), "1")), "[{ring.go 3  1}]", false},
		{"not an answer", "profile", "no, thank you", "[]", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("RATELAB_FAKE_PROFILE", c.answer)
			ch := fake(t, context.Background(), c.mode)
			ch.pkg, ch.files = "ratelab/exercises/tokenbucket", map[string]bool{"tokenbucket.go": true, "ring.go": true}
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
	ch.pkg, ch.files = "ratelab/exercises/tokenbucket", map[string]bool{"tokenbucket.go": true}
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

func TestSourceFilesAreTheLearnersGoFiles(t *testing.T) {
	got := sourceFiles(filepath.Join("testdata", "fixtures", "tokenbucket", "allocates-every-call"))
	if len(got) != 1 || !got["tokenbucket.go"] {
		t.Errorf("sourceFiles of a fixture = %v, want its tokenbucket.go", got)
	}
	if got := sourceFiles(""); len(got) != 0 {
		t.Errorf("sourceFiles of no folder = %v, want none (not the working folder's)", got)
	}
}
