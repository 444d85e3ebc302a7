package grader_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"ratelab/grader"
)

// TestSendingAheadChangesNoReport grades fixtures with every replay's
// calls sent ahead (see check.Ahead) and with each call sent by itself:
// the reports must be the same, byte for byte. The fixtures answer the
// reference's way for a while and then otherwise (a bucket that caps
// before refilling), at every call (a governor whose reasons are its own
// words), with a panic, and with maps, errors and objects in their calls
// (the gateway, the throttle).
func TestSendingAheadChangesNoReport(t *testing.T) {
	if testing.Short() {
		t.Skip("grades five fixtures twice each")
	}
	t.Parallel()
	for _, f := range [][2]string{
		{"tokenbucket", "caps-before-refill"},
		{"tokenbucket", "panics"},
		{"governor", "halving"},
		{"gateway", "flood-age-rewinds"},
		{"throttle", "whitelist-skips-cap"},
	} {
		t.Run(f[0]+"/"+f[1], func(t *testing.T) {
			grade := func(oneByOne bool) string {
				ex := gradeFixtureWith(t, f[0], f[1], grader.Options{NoBench: true, CheckTimeout: 20 * time.Second, OneByOne: oneByOne})
				b, err := json.MarshalIndent(ex, "", "  ")
				if err != nil {
					t.Fatal(err)
				}
				return string(b)
			}
			if on, off := grade(false), grade(true); on != off {
				t.Errorf("the report with calls sent ahead differs from the one without:\n%s", lineDiff(on, off))
			}
		})
	}
}

// lineDiff shows the first line where a and b differ, with its number.
func lineDiff(a, b string) string {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range min(len(la), len(lb)) {
		if la[i] != lb[i] {
			return fmt.Sprintf("line %d:\n  with:    %s\n  without: %s", i+1, la[i], lb[i])
		}
	}
	return fmt.Sprintf("one is longer: %d lines against %d", len(la), len(lb))
}
