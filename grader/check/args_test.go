package check

import (
	"testing"

	"ratelab/grader/report"
)

// window is New's arguments in the tests of NewArgs: a window of windowNs
// split in buckets, as slidingwindow's.
type window struct{ windowNs, buckets int }

func TestNewArgsBlamesOnlyTheArgumentAtFault(t *testing.T) {
	cases := []ArgCase[window]{
		{Args: window{10, 1}},
		{Args: window{10, 0}, Bad: "buckets"},
		{Args: window{3, 4}, Bad: "windowNs", Also: []string{"buckets"}},
	}
	for _, tc := range []struct {
		name       string
		zero, less string // the panics for buckets 0, and for windowNs below buckets
		pass       bool
	}{
		{"each names its own", "sw: buckets must be >= 1", "sw: windowNs must be >= buckets", true},
		{"the package's name is no argument's", "slidingwindow: buckets = 0", "slidingwindow: windowNs = 3 < 4", true},
		{"either name where the two disagree", "buckets is 0", "buckets 4 above the window", true},
		{"buckets blamed on windowNs too", "windowNs = 10, want >= buckets = 0", "windowNs must be >= buckets", false},
		{"buckets not named", "bad arguments", "windowNs must be >= buckets", false},
		{"a valid window refused", "buckets must be >= 1", "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := NewArgs[window]{
				Cases: cases,
				Call:  func(w window) string { return "New" },
				Make: func(w window) {
					switch {
					case w.buckets < 1:
						panic(tc.zero)
					case w.windowNs < w.buckets:
						panic(tc.less)
					case tc.less == "":
						panic("refused")
					}
				},
				Names: map[string][]string{"windowNs": {"window"}, "buckets": {"bucket"}},
			}.Run()
			if got := o.Status == report.Passed; got != tc.pass {
				t.Errorf("passed = %v, want %v: %s", got, tc.pass, o.Message)
			}
		})
	}
}
