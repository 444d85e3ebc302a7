package grader_test

import (
	"fmt"
	"math"
	"math/bits"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"ratelab/grader/report"
)

// claim is a fact that a check's message may state about the
// counterexample it comes with, and the predicate over that
// counterexample (and the message's own numbers) that makes it true:
// every message graded in the tests (fixtures and learner corpus) is held
// to every claim it makes. A predicate is written from the steps, their
// arguments and the answers shown, never from the grader's code.
type claim struct {
	exercise string // "" for every exercise
	phrase   string // text the message template and the message share
	holds    func(ce *report.Counterexample, msg string) bool
}

// claims are all the claims, those of every exercise and those any
// message may make (commonClaims).
var claims = slices.Concat(commonClaims, tokenbucketClaims, gcraClaims, breakerClaims, fairqueueClaims,
	hierarchyClaims, slidingwindowClaims, throttleClaims, gatewayClaims, governorClaims, gradient2Claims)

// commonClaims are the claims of the sentences grader/check adds to any
// suite's messages, and of sentences several suites share.
var commonClaims = []claim{
	{"", "This is the first call, at the time", func(ce *report.Counterexample, _ string) bool {
		return len(ce.Steps) == 1 && arg(ce.Steps[0].Args, "nowNs") == setupArg(ce, "nowNs")
	}},
	{"", "panicked", func(ce *report.Counterexample, _ string) bool {
		return len(ce.Steps) == 0 || strings.HasPrefix(ce.Steps[len(ce.Steps)-1].Got, "panic")
	}},
	{"", "differs on this check's script too", func(ce *report.Counterexample, _ string) bool {
		last := ce.Steps[len(ce.Steps)-1]
		return last.Got != last.Want
	}},
	{"", "The clock stepped back in this", func(ce *report.Counterexample, _ string) bool { return steppedBack(ce) }},
	// "call 3 stepped back from 10 to 4" (hierarchy, slidingwindow).
	{"", " stepped back from ", func(ce *report.Counterexample, msg string) bool {
		return stepsBack(ce, msg, `call (\d+) stepped back from `+numRE+` to `+numRE)
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
			if (cl.exercise == "" || cl.exercise == ex.ID) && strings.Contains(c.Message, cl.phrase) && !holds(cl, ce, c.Message) {
				out = append(out, fmt.Sprintf("%s says %q, which its counterexample does not show:\n  %s\n  %s %v", c.ID, cl.phrase, c.Message, ce.Setup, ce.Steps))
			}
		}
	}
	return out
}

// holds reports whether cl holds of ce and msg; a predicate that looks
// past the steps there are does not.
func holds(cl claim, ce *report.Counterexample, msg string) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	return cl.holds(ce, msg)
}

// numRE matches a number as check.U writes it: 1_000, math.MaxUint64-3.
const numRE = `(math\.MaxUint64(?:-\d+)?|math\.MaxUint32|\d[\d_]*)`

// num is the value of a number numRE matched.
func num(s string) uint64 {
	switch {
	case s == "math.MaxUint32":
		return math.MaxUint32
	case strings.HasPrefix(s, "math.MaxUint64"):
		d, _ := strconv.ParseUint(strings.TrimPrefix(s, "math.MaxUint64-"), 10, 64)
		return math.MaxUint64 - d
	}
	n, err := strconv.ParseUint(strings.ReplaceAll(s, "_", ""), 10, 64)
	if err != nil {
		panic(err)
	}
	return n
}

// quotes returns the submatches of every match of re in msg, numbers
// (numRE or \d+) as values.
func quotes(msg, re string) [][]uint64 {
	var out [][]uint64
	for _, m := range regexp.MustCompile(re).FindAllStringSubmatch(msg, -1) {
		var ns []uint64
		for _, s := range m[1:] {
			ns = append(ns, num(s))
		}
		out = append(out, ns)
	}
	return out
}

// all reports whether msg quotes re at least once, and ok holds of every
// quote.
func all(msg, re string, ok func(q []uint64) bool) bool {
	qs := quotes(msg, re)
	for _, q := range qs {
		if !ok(q) {
			return false
		}
	}
	return len(qs) > 0
}

// every reports whether ok holds of every match of re in msg, as text
// (there may be none).
func every(msg, re string, ok func(q []string) bool) bool {
	return slicesAll(quotesText(msg, re), ok)
}

// allText is every, but msg must quote re at least once.
func allText(msg, re string, ok func(q []string) bool) bool {
	return len(quotesText(msg, re)) > 0 && every(msg, re, ok)
}

// clock returns, for each step of ce, its nowNs as given (given: false
// for a step without one) and the latest time seen up to it (New's nowNs
// included): the time the contract counts it at.
func clock(ce *report.Counterexample) (raw, latest []uint64, given []bool) {
	l := setupArg(ce, "nowNs")
	for _, s := range ce.Steps {
		_, ok := s.Args["nowNs"]
		n := arg(s.Args, "nowNs")
		if ok {
			l = max(l, n)
		}
		raw, latest, given = append(raw, n), append(latest, l), append(given, ok)
	}
	return raw, latest, given
}

// before is the latest time seen before step i (0-based) of ce.
func before(ce *report.Counterexample, i int) uint64 {
	if i == 0 {
		return setupArg(ce, "nowNs")
	}
	_, latest, _ := clock(ce)
	return latest[i-1]
}

// steppedBack reports whether a call of ce comes earlier than one before
// it (or than New's nowNs).
func steppedBack(ce *report.Counterexample) bool {
	raw, _, given := clock(ce)
	for i := range raw {
		if given[i] && raw[i] < before(ce, i) {
			return true
		}
	}
	return false
}

// stepsBack reports whether every "call i ... from x to y" that re quotes
// in msg is a step i at y, below x, the latest time before it.
func stepsBack(ce *report.Counterexample, msg, re string) bool {
	raw, _, _ := clock(ce)
	return all(msg, re, func(q []uint64) bool {
		i := int(q[0]) - 1
		return raw[i] == q[2] && before(ce, i) == q[1] && q[2] < q[1]
	})
}

// gaps returns the forward moves of ce's clock, step by step.
func gaps(ce *report.Counterexample) []uint64 { return gapsFrom(ce, 0) }

// gapsFrom returns the forward moves of ce's clock from step from
// (0-based) on: from the time before it to its own, and so on.
func gapsFrom(ce *report.Counterexample, from int) []uint64 {
	_, latest, _ := clock(ce)
	var out []uint64
	prev := before(ce, from)
	for _, l := range latest[from:] {
		if l > prev {
			out = append(out, l-prev)
		}
		prev = l
	}
	return out
}

// belowToken reports whether d ns at rate tokens/s earn less than one
// token.
func belowToken(d, rate uint64) bool {
	hi, lo := bits.Mul64(d, rate)
	return hi == 0 && lo < 1_000_000_000
}

// setupArg is New's argument name as a number, or, in a config struct,
// its field name.
func setupArg(ce *report.Counterexample, name string) uint64 {
	if ce.SetupCall == nil {
		return 0
	}
	if v, ok := ce.SetupCall.Args[name]; ok {
		return arg(map[string]any{name: v}, name)
	}
	for _, v := range ce.SetupCall.Args {
		if cfg, ok := v.(map[string]any); ok {
			if _, ok := cfg[name]; ok {
				return arg(cfg, name)
			}
		}
	}
	return 0
}

// argsOf are the argument param of every call of ce to name, in order.
func argsOf(ce *report.Counterexample, name, param string) []uint64 {
	var out []uint64
	for _, s := range ce.Steps {
		if s.Name == name {
			out = append(out, arg(s.Args, param))
		}
	}
	return out
}

// arg is the argument name of a call as a number (0 if it has none).
func arg(args map[string]any, name string) uint64 {
	switch v := args[name].(type) {
	case string:
		if strings.HasPrefix(v, "math.") {
			return num(v)
		}
		n, _ := strconv.ParseUint(strings.ReplaceAll(v, "_", ""), 10, 64)
		return n
	case float64:
		return uint64(v)
	}
	return 0
}

// quotesText returns the submatches of every match of re in msg, as text.
func quotesText(msg, re string) [][]string {
	var out [][]string
	for _, m := range regexp.MustCompile(re).FindAllStringSubmatch(msg, -1) {
		out = append(out, m[1:])
	}
	return out
}

func slicesAny[T any](s []T, ok func(T) bool) bool { return slices.ContainsFunc(s, ok) }

func slicesAll[T any](s []T, ok func(T) bool) bool {
	return !slices.ContainsFunc(s, func(x T) bool { return !ok(x) })
}

// TestClaimsCatch shows claims failing on counterexamples that do not
// bear them out: a step back on calls that only move
// forward, a request above what the bucket held where none was, a corner
// of the clamp where the gradient is inside it, a round in another order
// than the contract's.
func TestClaimsCatch(t *testing.T) {
	call := func(name string, now, n uint64, want string) report.Step {
		args := map[string]any{"nowNs": strconv.FormatUint(now, 10)}
		if name == "TryAcquire" {
			args["n"] = strconv.FormatUint(n, 10)
		}
		return report.Step{Name: name, Args: args, Got: "true", Want: want}
	}
	ce := &report.Counterexample{
		SetupCall: &report.Call{Name: "New", Args: map[string]any{"capacity": "2", "ratePerSec": "1", "nowNs": "0"}},
		Steps: []report.Step{call("TryAcquire", 0, 1, "true"), call("TryAcquire", 0, 1, "true"), call("TryAcquire", 2, 1, "true"),
			call("TryAcquire", 2, 3, "false")},
	}
	for _, tc := range []struct {
		msg  string
		want int
	}{
		{"The clock stepped back in this sequence.", 1},
		{"A request here asked for more tokens than the bucket held.", 0}, // the last call asks for 3 of 2
		{"This is the first call, at the time the bucket was made.", 1},
	} {
		ex := &report.Exercise{ID: "tokenbucket", Checks: []report.Check{{ID: "tokenbucket/x", Message: tc.msg, Counterexample: ce}}}
		if got := claimProblems(ex); len(got) != tc.want {
			t.Errorf("%q: %d problems, want %d: %q", tc.msg, len(got), tc.want, got)
		}
	}
	// The second sample's gradient, 1250/1500 by the mean of the two, is
	// in no corner of the clamp; and no sample decays the long RTT.
	update := func(rtt string) report.Step {
		return report.Step{Name: "Update", Call: "Update(rttNs=" + rtt + ", inflight=20)", Args: map[string]any{"rttNs": rtt, "inflight": "20"}}
	}
	g2 := &report.Counterexample{Setup: "New(Config{InitialLimit: 20, MinLimit: 1, MaxLimit: 200, Smoothing: 1, RTTTolerance: 1, LongWindow: 2, QueueSize: nil})",
		Steps: []report.Step{update("1000"), update("1500")}}
	for _, msg := range []string{"Each sample here is in a corner of the clamp.", "A fast (app-limited) sample made the long RTT more than twice the short one."} {
		ex := &report.Exercise{ID: "gradient2", Checks: []report.Check{{ID: "gradient2/x", Message: msg, Counterexample: g2}}}
		if got := claimProblems(ex); len(got) != 1 {
			t.Errorf("%q: %d problems, want 1", msg, len(got))
		}
	}
	// Sessions 0 then 1 join the round: [1, 0] is not its order.
	push := func(session string) report.Step {
		return report.Step{Name: "Push", Args: map[string]any{"session": session, "cost": "1"}}
	}
	fq := &report.Counterexample{SetupCall: &report.Call{Name: "New", Args: map[string]any{"quantum": "1"}},
		Steps: []report.Step{push("0"), push("1"), {Name: "Pop", Got: "(1, 1, true)", Want: "(0, 1, true)"}}}
	for msg, want := range map[string]int{"Before the last call the round was [1, 0], head first.": 1, "Before the last call the round was [0, 1], head first.": 0} {
		ex := &report.Exercise{ID: "fairqueue", Checks: []report.Check{{ID: "fairqueue/x", Message: msg, Counterexample: fq}}}
		if got := claimProblems(ex); len(got) != want {
			t.Errorf("%q: %d problems, want %d", msg, len(got), want)
		}
	}
	ce.Steps[3].Want = "true"
	ex := &report.Exercise{ID: "tokenbucket", Checks: []report.Check{{ID: "tokenbucket/partial-take", Message: "A request here asked for more tokens than the bucket held.", Counterexample: ce}}}
	if got := claimProblems(ex); len(got) != 1 {
		t.Errorf("a request the bucket grants: %d problems, want 1", len(got))
	}
}
