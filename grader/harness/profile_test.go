package harness

import (
	"bufio"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"ratelab/grader/wire"
)

// thisPkg is the import path of this package, whose test loops stand for
// the learner's code.
const thisPkg = "ratelab/grader/harness"

var (
	sinkAny   any
	sinkInts  []int
	sinkBytes string
)

// siteLoops are benchmark loops that allocate, on lines marked with
// "site:" comments (found by lineOf), after a warm-up that allocates
// elsewhere too: only the measured iterations may be charged.
var siteLoops = map[string]func(uint64) func(int) uint64{
	"none": func(seed uint64) func(int) uint64 {
		return func(n int) uint64 { return seed + uint64(n) }
	},
	"every": func(seed uint64) func(int) uint64 {
		warm := true
		return func(n int) uint64 {
			if warm {
				warm = false
				for range n {
					sinkAny = &record{} // warm-up only
				}
				return 0
			}
			for i := range n {
				sinkAny = &record{a: uint64(i)} // site: new
				if i%2 == 0 {
					sinkInts = append(sinkInts[:0:0], i) // site: append
				}
				if i%4 == 0 {
					sinkBytes = strconv.Itoa(i + 1000) // site: call
				}
			}
			return seed
		}
	},
}

// lineOf returns the line of this file holding the comment "site: "+mark.
func lineOf(t *testing.T, mark string) string {
	t.Helper()
	f, err := os.Open("profile_test.go")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		if strings.HasSuffix(sc.Text(), "// site: "+mark) {
			return strconv.Itoa(n)
		}
	}
	t.Fatalf("no line marked %q", mark)
	return ""
}

// TestAProfiledRunNamesTheLinesThatAllocate: a Bench request with Profile
// answers with the lines of that package its measured iterations allocated
// at, each with the function the line called and how often, the most
// first; a loop that allocates nothing, or a package the loop is not in,
// gives none.
func TestAProfiledRunNamesTheLinesThatAllocate(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1)) // as in the child
	s := newServer(API{Bench: siteLoops})
	profile := func(loop, pkg string, n int) wire.Response {
		t.Helper()
		if resp := s.serve(wire.Request{Prepare: loop, Seed: "1", N: "3000"}); resp.Err != "" || resp.Panic != nil {
			t.Fatalf("Prepare %s: %+v", loop, resp)
		}
		resp := s.serve(wire.Request{Bench: loop, N: strconv.Itoa(n), Profile: pkg})
		if resp.Err != "" || resp.Panic != nil {
			t.Fatalf("Bench %s: %+v", loop, resp)
		}
		return resp
	}
	const n = 4000
	got := profile("every", thisPkg, n).Sites
	want := []wire.Site{
		{File: "profile_test.go", Line: lineOf(t, "new"), Callee: "runtime.newobject", Count: strconv.Itoa(n)},
		{File: "profile_test.go", Line: lineOf(t, "append"), Callee: "runtime.growslice", Count: strconv.Itoa(n / 2)},
		{File: "profile_test.go", Line: lineOf(t, "call"), Callee: "strconv.Itoa", Count: strconv.Itoa(n / 4)},
	}
	// The tiny allocations (the 8-byte slice, the 4-byte string) the
	// profile saw by the block are spread over their lines: within 1%.
	ok := len(got) == len(want)
	for i := range want {
		if !ok {
			break
		}
		g, _ := strconv.Atoi(got[i].Count)
		w, _ := strconv.Atoi(want[i].Count)
		ok = got[i].File == want[i].File && got[i].Line == want[i].Line && got[i].Callee == want[i].Callee && g >= w*99/100 && g <= w*101/100
	}
	if !ok {
		t.Errorf("sites of loop every =\n%v\nwant\n%v", got, want)
	}
	if got := profile("none", thisPkg, n).Sites; got != nil {
		t.Errorf("sites of a loop that allocates nothing = %v, want none", got)
	}
	if got := profile("every", "ratelab/grader/harnessx", n).Sites; got != nil {
		t.Errorf("sites of another package = %v, want none", got)
	}
	if got := profile("every", "", n).Sites; got != nil {
		t.Errorf("sites of a Bench request without Profile = %v, want none", got)
	}
}

// frames is a stack for learnerFrame, innermost first.
type frames []runtime.Frame

func (f *frames) Next() (runtime.Frame, bool) {
	if len(*f) == 0 {
		return runtime.Frame{}, false
	}
	fr := (*f)[0]
	*f = (*f)[1:]
	return fr, len(*f) > 0
}

func TestLearnerFrameIsTheInnermostInThePackage(t *testing.T) {
	const pkg = "ratelab/exercises/fairqueue"
	fr := func(fn, file string, line int) runtime.Frame {
		return runtime.Frame{Function: fn, File: file, Line: line}
	}
	for _, c := range []struct {
		name   string
		stack  frames
		want   string // "file:line callee", or "" for none
		wantOK bool
	}{
		{"append in a method", frames{
			fr("runtime.mallocgc", "/go/src/runtime/malloc.go", 1141),
			fr("runtime.growslice", "/go/src/runtime/slice.go", 265),
			fr(pkg+".(*Queue).Push", "/srv/tmp/ratelab-grade-1/exercises/fairqueue/fairqueue.go", 41),
			fr(pkg+".(*Queue).PushAll", "/srv/tmp/ratelab-grade-1/exercises/fairqueue/fairqueue.go", 60),
			fr("ratelab/grader/harness.measured", "harness.go", 300),
		}, "fairqueue.go:41 runtime.growslice", true},
		{"inside a library the learner called", frames{
			fr("runtime.mallocgc", "malloc.go", 1141),
			fr("runtime.slicebytetostring", "string.go", 170),
			fr("fmt.Sprint", "print.go", 280),
			fr(pkg+".New[...].func1", `C:\Users\ada\ratelab\exercises\fairqueue\ring.go`, 7),
		}, "ring.go:7 fmt.Sprint", true},
		{"a package whose path starts alike", frames{
			fr("runtime.newobject", "malloc.go", 1),
			fr(pkg+"x.New", "/x/fairqueuex/x.go", 3),
			fr("main.main", "main.go", 1),
		}, "", false},
		{"no learner frame", frames{
			fr("runtime.newobject", "malloc.go", 1),
			fr("ratelab/grader/harness.profiled", "profile.go", 20),
		}, "", false},
		{"an empty stack", frames{}, "", false},
	} {
		file, line, callee, ok := learnerFrame(&c.stack, pkg)
		got := ""
		if ok {
			got = fmt.Sprintf("%s:%d %s", file, line, callee)
		}
		if got != c.want || ok != c.wantOK {
			t.Errorf("%s: learnerFrame = %q, %t; want %q, %t", c.name, got, ok, c.want, c.wantOK)
		}
	}
}

func TestInPackage(t *testing.T) {
	const pkg = "ratelab/exercises/gcra"
	for fn, want := range map[string]bool{
		pkg + ".New":                              true,
		pkg + ".(*GCRA).TryAcquire":               true,
		pkg + ".(*GCRA).TryAcquire.func1":         true,
		pkg + ".Max[go.shape.uint64]":             true,
		pkg + "/internal.Helper":                  false,
		"ratelab/exercises/gcrax.New":             false,
		"runtime.newobject":                       false,
		"":                                        false,
		"vendor/ratelab/exercises/gcra.(*G).Take": false,
	} {
		if got := inPackage(fn, pkg); got != want {
			t.Errorf("inPackage(%q, %q) = %t, want %t", fn, pkg, got, want)
		}
	}
	if inPackage("anything.F", "") {
		t.Error("inPackage with no package = true, want false")
	}
}
