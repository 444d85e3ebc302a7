package grader_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"ratelab/grader/report"
)

// claim is a fact that a check's message may state about the
// counterexample it comes with, and the predicate over that
// counterexample that makes it true: every message graded in the tests
// (fixtures and learner corpus) is held to every claim it makes.
type claim struct {
	exercise string // "" for every exercise
	phrase   string
	holds    func(ce *report.Counterexample) bool
}

var claims = []claim{
	{"", "stepped back", steppedBack},
	{"", "This is the first call, at the time", func(ce *report.Counterexample) bool {
		return len(ce.Steps) == 1 && arg(ce.Steps[0].Args, "nowNs") == setupArg(ce, "nowNs")
	}},
	{"", "panicked", func(ce *report.Counterexample) bool {
		return len(ce.Steps) == 0 || strings.HasPrefix(ce.Steps[len(ce.Steps)-1].Got, "panic")
	}},
	{"tokenbucket", "asked for more tokens than the bucket held", func(ce *report.Counterexample) bool {
		for _, s := range ce.Steps[:len(ce.Steps)-1] {
			if s.Name == "TryAcquire" && s.Want == "false" {
				return true
			}
		}
		return false
	}},
	{"tokenbucket", "in parts smaller than one token", func(ce *report.Counterexample) bool {
		rate, latest := setupArg(ce, "ratePerSec"), setupArg(ce, "nowNs")
		for _, s := range ce.Steps {
			now := arg(s.Args, "nowNs")
			if now > latest && (now-latest)*rate < 1_000_000_000 && (now-latest) < 1<<32 {
				return true
			}
			latest = max(latest, now)
		}
		return false
	}},
	{"gcra", "ratePerSec does not divide 10^9", func(ce *report.Counterexample) bool {
		r := setupArg(ce, "ratePerSec")
		return r > 0 && 1_000_000_000%r != 0
	}},
	{"fairqueue", "The right session was served, but not its oldest waiting command", func(ce *report.Counterexample) bool {
		last := ce.Steps[len(ce.Steps)-1]
		got, want := strings.Split(strings.Trim(last.Got, "()"), ", "), strings.Split(strings.Trim(last.Want, "()"), ", ")
		return last.Name == "Pop" && len(got) == 3 && len(want) == 3 && got[0] == want[0] && got[1] != want[1]
	}},
	{"fairqueue", "Every command here costs exactly quantum", func(ce *report.Counterexample) bool {
		q := setupArg(ce, "quantum")
		for _, s := range ce.Steps {
			if s.Name == "Push" && arg(s.Args, "cost") != q {
				return false
			}
		}
		return true
	}},
}

// checkClaims fails t for every claim a message of ex makes that its
// counterexample does not bear out.
func checkClaims(t *testing.T, ex *report.Exercise) {
	t.Helper()
	for _, p := range claimProblems(ex) {
		t.Error(p)
	}
}

// claimProblems lists the claims the messages of ex make that their
// counterexamples do not bear out.
func claimProblems(ex *report.Exercise) []string {
	var out []string
	for _, c := range ex.Checks {
		ce := c.Counterexample
		if ce == nil || len(ce.Steps) == 0 && c.Status != report.Error {
			continue
		}
		for _, cl := range claims {
			if (cl.exercise == "" || cl.exercise == ex.ID) && strings.Contains(c.Message, cl.phrase) && !cl.holds(ce) {
				out = append(out, fmt.Sprintf("%s says %q, which its counterexample does not show:\n  %s\n  %s %v", c.ID, cl.phrase, c.Message, ce.Setup, ce.Steps))
			}
		}
	}
	return out
}

// steppedBack reports whether a call of ce comes earlier than one before
// it (or than New's nowNs).
func steppedBack(ce *report.Counterexample) bool {
	latest := setupArg(ce, "nowNs")
	for _, s := range ce.Steps {
		if _, ok := s.Args["nowNs"]; !ok {
			continue
		}
		now := arg(s.Args, "nowNs")
		if now < latest {
			return true
		}
		latest = max(latest, now)
	}
	return false
}

func setupArg(ce *report.Counterexample, name string) uint64 {
	if ce.SetupCall == nil {
		return 0
	}
	return arg(ce.SetupCall.Args, name)
}

// arg is the argument name of a call as a number (0 if it has none).
func arg(args map[string]any, name string) uint64 {
	switch v := args[name].(type) {
	case string:
		n, _ := strconv.ParseUint(v, 10, 64)
		return n
	case float64:
		return uint64(v)
	}
	return 0
}
