// Package replay runs a failed check's counterexample again, on the
// reference and on another implementation ("Yours"), and says for each step
// what each answered and the state a learner reasons about, drawn from a
// plain model of the exercise's contract beside the reference.
//
// A counterexample is replayable when the report carries it as data
// (report.Counterexample's SetupCall and each step's Name and Args, every
// integer a decimal string). What each exercise needs is one entry of the
// table Exercises: how to build it from the setup call, how to make each
// step's call, and what state to show. An exercise added later gets a
// replay by adding its entry, in a file of its own (tokenbucket, GCRA and
// the sliding window share limiters.go); a test fails while an exercise of
// the course has none.
//
// Each entry's model is the grader's own model of the contract
// (grader/model), the one its suite grades against, with the state it
// draws; the GCRA's is a restatement of its own, in the lesson's terms (see
// grader/model). None is a copy of the reference: their tests replay
// generated scripts on the model and on the reference and require the same
// answer at every call, and replay the graded counterexamples of
// known-buggy fixtures (testdata, written by TestCapture) with the fixture
// as Yours, requiring the first differing step to be the grade's.
package replay

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"sort"
	"strconv"
	"strings"

	"ratelab/grader/report"
	"ratelab/lab/adaptive"
	"ratelab/lab/breaker"
	"ratelab/lab/fairqueue"
	"ratelab/lab/gateway"
	"ratelab/lab/guard"
	"ratelab/lab/hierarchy"
	"ratelab/lab/limiters"
	"ratelab/lab/throttle"
)

// Impls are the implementations a replay can run: the reference's
// (Reference) or the learner's, built by the WebAssembly shell from
// exercises/.
type Impls struct {
	Limiters  limiters.Impl
	Adaptive  adaptive.Impl
	Hierarchy hierarchy.Impl
	Fairqueue fairqueue.Impl
	Gateway   gateway.Impl
	Throttle  throttle.Impl
	Breaker   breaker.Impl
	// Week4 are the governor's and Gradient2's calls that adaptive.Impl
	// does not carry.
	Week4 Week4
}

// Week4 are the week 4 calls a replay needs beyond the lab's adaptive.Impl:
// the governor's pure functions, and Gradient2 with a QueueSize function.
// A nil function is unavailable (Yours then stops and says
// Adaptive.Missing).
type Week4 struct {
	Decide          func(cfg adaptive.GovernorConfig, frac, current, lastBad float64) adaptive.Decision
	MemoryClearStep func(streak int, cleanAtOrAboveLastBad bool) (next int, clears bool)
	// NewLimit builds Gradient2; queueSize nil means the default 4.
	NewLimit func(cfg adaptive.LimitConfig, queueSize func(limit int) float64) adaptive.Limit
}

// Reference is the Impls of the solutions packages.
var Reference = Impls{
	Limiters: limiters.Reference, Adaptive: adaptive.Reference,
	Hierarchy: hierarchy.Reference, Fairqueue: fairqueue.Reference, Gateway: gateway.Reference,
	Throttle: throttle.Reference, Breaker: breaker.Reference,
	Week4: week4Reference,
}

// Field is one piece of state shown beside a step, as plain data for the
// page to draw: a label and its value in words, and optionally a meter
// (Value out of Max, Max > 0) or a row of bars (Bars, each out of Max).
type Field struct {
	Label string  `json:"label"`
	Text  string  `json:"text"`
	Value float64 `json:"value,omitempty"`
	Max   float64 `json:"max,omitempty"`
	// Bars are drawn oldest first; the last is the current one.
	Bars []float64 `json:"bars,omitempty"`
}

// Instance is an exercise built from a setup call, answering calls as
// text the way the grader prints answers ("true", "18").
type Instance interface {
	Do(c report.Call) (string, error)
}

// Model is the plain model of an exercise's contract: it answers like the
// reference and shows its state.
type Model interface {
	Instance
	State() []Field
}

// Exercise is how to replay one exercise.
type Exercise struct {
	ID string
	// Build makes the exercise from impls, or says why it cannot (an
	// unknown setup call, a missing argument, a nil constructor). It may
	// panic when impls is not Reference.
	Build func(impls Impls, setup report.Call) (Instance, error)
	// Model makes the plain model of the contract from the setup call.
	Model func(setup report.Call) (Model, error)
	// Binding, if set, reads a setup that binds a name rather than calling
	// New (the governor's "cfg = Config{…}" before calls of the pure
	// Decide), which reports carry without setup_call: it returns the
	// setup as a call of that name, for Build and Model.
	Binding func(setup string) (report.Call, bool)
}

// setupOf is cx's setup call: its setup_call, or the entry's reading of
// its setup text; nil if neither.
func (e Exercise) setupOf(cx *report.Counterexample) *report.Call {
	if cx.SetupCall != nil {
		return cx.SetupCall
	}
	if e.Binding != nil {
		if c, ok := e.Binding(cx.Setup); ok {
			return &c
		}
	}
	return nil
}

// Exercises is the table, by exercise id.
var Exercises = map[string]Exercise{}

func register(e Exercise) { Exercises[e.ID] = e }

// ErrNotWritten is what the entry that labserver exercise new writes for a
// new exercise answers until its Build and Model are written: the browser
// says it cannot replay the exercise yet, and labserver exercise check
// reports the entry as missing.
var ErrNotWritten = errors.New("this exercise's replay is not written yet (its entry in lab/replay)")

// IDs returns the ids of the exercises that can be replayed, sorted.
func IDs() []string {
	ids := make([]string, 0, len(Exercises))
	for id := range Exercises {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// Replayable reports whether cx can be replayed for exercise id: the
// exercise has an entry and cx carries its calls as data (its setup as
// setup_call, or as a binding the entry reads, and a name for every
// step). A counterexample whose steps are each a call on its own (the
// config-validation cases: "// each step is a call on its own") has
// neither, and is not replayed.
func Replayable(id string, cx *report.Counterexample) bool {
	e, ok := Exercises[id]
	if !ok || cx == nil || e.setupOf(cx) == nil || len(cx.Steps) == 0 {
		return false
	}
	for _, s := range cx.Steps {
		if s.Name == "" {
			return false
		}
	}
	return true
}

// Result is a replay: what the reference and Yours answered at each step.
type Result struct {
	Exercise string `json:"exercise"`
	Setup    string `json:"setup"`
	// Error says why nothing could be replayed (no entry, a call the
	// entry does not know); the rest is then empty.
	Error string `json:"error,omitempty"`
	// Yours is empty while Yours answers; otherwise why it stopped (not
	// implemented yet, panicked: ..., your code does not build) and
	// YoursStep the step it stopped at (-1 for New).
	Yours     string `json:"yours,omitempty"`
	YoursStep int    `json:"yoursStep"`
	// Start is the reference's state after the setup call.
	Start []Field `json:"start"`
	Steps []Step  `json:"steps"`
	// First is the index of the first step where Yours and the reference
	// differ, -1 when they agree on every step.
	First int `json:"first"`
}

// Step is one step of a replay. Got is Yours' answer ("" when Yours had
// stopped), Want the reference's; State is the model's after the step.
type Step struct {
	Call    string  `json:"call"`
	Got     string  `json:"got"`
	Want    string  `json:"want"`
	Differs bool    `json:"differs"`
	State   []Field `json:"state"`
}

// Run replays cx of exercise id on the reference and on yours.
func Run(id string, cx report.Counterexample, yours Impls) Result {
	res := Result{Exercise: id, Setup: cx.Setup, First: -1, YoursStep: -1}
	e, ok := Exercises[id]
	if !ok {
		res.Error = "no replay for " + id + " yet"
		return res
	}
	if !Replayable(id, &cx) {
		res.Error = "this report does not carry the counterexample as data: grade again to replay it"
		return res
	}
	setup := *e.setupOf(&cx)
	m, err := e.Model(setup)
	if err != nil {
		res.Error = err.Error()
		return res
	}
	ref, err := e.Build(Reference, setup)
	if err != nil {
		res.Error = err.Error()
		return res
	}
	res.Start = m.State()

	var mine Instance
	func() {
		defer func() {
			if v := recover(); v != nil {
				res.Yours = guard.Status(v)
			}
		}()
		mine, err = e.Build(yours, setup)
		if err != nil {
			res.Yours = err.Error()
		}
	}()

	for i, s := range cx.Steps {
		c := report.Call{Name: s.Name, Args: s.Args}
		want, err := ref.Do(c)
		if err != nil {
			res.Error = err.Error()
			res.Steps = nil
			return res
		}
		if _, err := m.Do(c); err != nil {
			res.Error = err.Error()
			res.Steps = nil
			return res
		}
		st := Step{Call: s.Call, Want: want, State: m.State()}
		if res.Yours == "" {
			func() {
				defer func() {
					if v := recover(); v != nil {
						res.Yours, res.YoursStep = guard.Status(v), i
						st.Got = "panic"
					}
				}()
				st.Got, _ = mine.Do(c)
			}()
			st.Differs = st.Got != want
		}
		if st.Differs && res.First < 0 {
			res.First = i
		}
		res.Steps = append(res.Steps, st)
	}
	return res
}

// times is how often a step repeats: its "times" argument (a call printed
// with "×10"), 1 without it.
func times(c report.Call) (int, error) {
	if _, ok := c.Args["times"]; !ok {
		return 1, nil
	}
	n, err := argU64(c, "times")
	if err != nil || n == 0 || n > 1_000_000 {
		return 0, fmt.Errorf("%s: times must be from 1 to 1,000,000", c.Name)
	}
	return int(n), nil
}

// argU64 reads the integer argument name of c: a decimal string, or a
// whole JSON number below 2^53.
func argU64(c report.Call, name string) (uint64, error) {
	v, ok := c.Args[name]
	if !ok {
		return 0, fmt.Errorf("%s: no argument %s", c.Name, name)
	}
	switch v := v.(type) {
	case string:
		n, err := strconv.ParseUint(strings.ReplaceAll(v, "_", ""), 10, 64)
		if err != nil {
			return 0, fmt.Errorf("%s: %s = %q is not a uint64", c.Name, name, v)
		}
		return n, nil
	case float64:
		if v >= 0 && v < 1<<53 && v == math.Trunc(v) {
			return uint64(v), nil
		}
	}
	return 0, fmt.Errorf("%s: %s = %v is not a uint64", c.Name, name, v)
}

// argFloat reads the number argument name of c.
func argFloat(c report.Call, name string) (float64, error) {
	v, ok := c.Args[name]
	if !ok {
		return 0, fmt.Errorf("%s: no argument %s", c.Name, name)
	}
	switch v := v.(type) {
	case float64:
		return v, nil
	case string:
		if f, err := strconv.ParseFloat(v, 64); err == nil {
			return f, nil
		}
	}
	return 0, fmt.Errorf("%s: %s = %v is not a number", c.Name, name, v)
}

// want checks that c is a call of name.
func want(c report.Call, names ...string) error {
	for _, n := range names {
		if c.Name == n {
			return nil
		}
	}
	return fmt.Errorf("cannot replay a call of %s (only %s)", c.Name, strings.Join(names, ", "))
}

// goU is n as the grader writes an answer's integer, so that a replay
// reads as the grade: as Go would take it, with digit separators above
// four digits (10_000_000), next to MaxUint64 as math.MaxUint64-k.
func goU(n uint64) string {
	if d := math.MaxUint64 - n; d < 1_000_000 {
		if d == 0 {
			return "math.MaxUint64"
		}
		return "math.MaxUint64-" + strconv.FormatUint(d, 10)
	}
	s := strconv.FormatUint(n, 10)
	if len(s) <= 4 {
		return s
	}
	return strings.ReplaceAll(group(s), ",", "_")
}

// u is n with thousands separators, as the pages write integers.
func u(n uint64) string { return group(strconv.FormatUint(n, 10)) }

func group(s string) string {
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// bigText is n with thousands separators.
func bigText(n *big.Int) string { return group(n.String()) }

// ratio is a/b as a float64 in [0, 1] for a meter (0 when b is 0).
func ratio(a, b *big.Int) float64 {
	if b.Sign() == 0 {
		return 0
	}
	f, _ := new(big.Rat).SetFrac(a, b).Float64()
	return min(1, max(0, f))
}

func bool2(b bool) string { return strconv.FormatBool(b) }
