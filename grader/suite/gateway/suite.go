package gateway

import (
	"fmt"
	"math"
	"strings"

	"ratelab/grader/check"
	"ratelab/grader/report"
)

// Kind, Budget, Class, Config, Outcome and Verdict mirror the exercise's
// types field by field: values travel between the grader and the child by
// their exported fields (see grader/wire).
type Kind uint8

const (
	NewOrder Kind = iota
	Modify
	Cancel
	Heartbeat
)

type Budget struct{ Capacity, RatePerSec uint64 }

type Class struct{ Orders, Cancels Budget }

type Config struct {
	Classes           map[string]Class
	SilenceAfterNs    uint64
	DisconnectAfterNs uint64
}

type Outcome uint8

const (
	Accept Outcome = iota
	Reject
	Silent
	Disconnect
)

type Verdict struct {
	Outcome      Outcome
	Budget       string
	RetryAfterNs uint64
}

// Gateway is the gateway API every implementation offers.
type Gateway interface {
	Open(session uint64, class string, nowNs uint64) error
	Admit(session uint64, kind Kind, nowNs uint64) Verdict
	Reload(cfg Config, nowNs uint64) error
}

// Impl is an implementation's package functions, adapted to the mirrors.
type Impl struct {
	New      func(cfg Config, nowNs uint64) (Gateway, error)
	Validate func(cfg Config) error
}

// Suite returns the checks of the implementation r serves; a nil r only
// lists them.
func Suite(r check.Remote) check.Suite {
	impl := Remote(r)
	prop := func(d domain, why string) func(int64) check.Outcome { return d.property(impl).Runs(why) }
	return check.Suite{
		Exercise:   "gateway",
		NotStarted: func() bool { return notStarted(impl) },
		Checks: []check.Check{
			{
				ID: "gateway/cancel-budget", Title: "Cancels spend their own budget, and pass when it is unlimited", Kind: report.Property, Pitfall: "cancel-budget", Points: 4,
				Hint: "Give each session two buckets: Orders for NewOrder and Modify, Cancels for Cancel. A Cancels budget of capacity 0 has no bucket at all: every cancel passes.",
				Run:  prop(cancelDomain, "A cancel takes a token from the session's Cancels budget only (and always passes when that budget is unlimited); new orders and modifies take theirs from Orders only. A client pulling its orders out of a fast market must not be throttled by the orders it sent."),
			},
			{
				ID: "gateway/heartbeat", Title: "Heartbeats touch nothing", Kind: report.Property, Pitfall: "heartbeat", Points: 3,
				Hint: "Answer a heartbeat before touching any bucket or the flood: Accept on an open session, Disconnect on one that is not open. It neither takes a token, nor starts a flood, nor ends one.",
				Run:  prop(heartbeatDomain, "A heartbeat on an open session is accepted and changes nothing: no token, no flood started or ended. Here the same script without its heartbeats is answered right, so the heartbeats changed something."),
			},
			{
				ID: "gateway/retry-after", Title: "Retry-after is exact to the nanosecond", Kind: report.Property, Pitfall: "retry-after", Points: 4,
				Hint: "RetryAfterNs is the least d with units + d×rate ≥ 10^9: ceil((10^9 − units)/rate), from the units the bucket holds after the refill, fractions included. Rounding down tells the client to come back one nanosecond too early, to be refused again.",
				Run:  prop(retryDomain, "The refusal is right, and so is the budget named, but not when it tells the client to retry: the least number of ns after which the refusing budget, left alone, holds one whole token."),
			},
			{
				ID: "gateway/escalation", Title: "Escalates by the flood's age: Reject, Silent, Disconnect", Kind: report.Property, Pitfall: "escalation", Points: 5,
				Hint: "Remember when the session's flood began: at its first refusal, not its latest. Every refusal compares now minus that time with DisconnectAfterNs, then SilenceAfterNs (0 means never); an accepted order, modify or cancel ends the flood, a disconnect too.",
				Run:  prop(escalationDomain, "With escalation off, the same script is answered right: what is wrong is how the refusals escalate. A refusal is Disconnect once its flood is DisconnectAfterNs old, Silent once it is SilenceAfterNs old, else Reject; the flood starts at the first refusal and ends at the next accepted order, modify or cancel."),
			},
			{
				ID: "gateway/reconnect", Title: "A reconnect keeps the session's budgets", Kind: report.Property, Pitfall: "reconnect", Points: 4,
				Hint: "Keep a session's buckets by its id when it disconnects: Open on a closed session reopens it with the same buckets, refilled only by the time that passed (and switched to the new class's budgets if it reopens in another class).",
				Run:  prop(reconnectDomain, "A session was disconnected and opened again. Its budgets belong to the session id, not to the connection: they kept earning while it was closed, and the reconnect must not refill them (with a fresh session id instead, the same calls are answered right)."),
			},
			{
				ID: "gateway/reload", Title: "Reloads refill at the old rates, keep units capped, and change nothing when they fail", Kind: report.Property, Pitfall: "reload", Points: 5,
				Hint: "At a reload, first bring every session's buckets up to now at their old rates, then switch them: keep the units, cap them at the new capacity, start a budget that was unlimited full. Validate, and look for open sessions whose class is gone, before changing anything: a reload that fails leaves everything, the clock too, as it was.",
				Run:  prop(reloadDomain, "Without its reloads the same script is answered right, so the reloads are handled wrong: time before a reload is earned at the old rate, units carry over capped at the new capacity, a budget that was unlimited starts full, new escalation times apply to floods under way, and a reload that fails changes nothing."),
			},
			{
				ID: "gateway/config-validation", Title: "Validate names the class and the field of every problem", Kind: report.Case, Pitfall: "config-validation", Points: 3,
				Hint: "Check every rule of the contract, and write errors for operations: the class's name and the field (e.g. class \"regular\": Orders.RatePerSec must be at least 1). errors.Join can carry several.",
				Run:  func(int64) check.Outcome { return validation(impl) },
			},
			{
				ID: "gateway/backward-time", Title: "Ignores a clock that steps back", Kind: report.Property, Pitfall: "backward-time", Points: 3,
				Hint: "Keep one clock for the gateway: now = max(nowNs, latest time seen) before anything else, in the buckets and in the flood's age. now − latest and now − floodStart must never wrap.",
				Run:  prop(backwardDomain, "The clock stepped back in this sequence, and made at the latest time instead, the same calls are answered right. An earlier time counts as the latest one: it earns nothing, rewinds nothing and does not make a flood younger or older."),
			},
			{
				ID: "gateway/overflow", Title: "Stays exact for huge capacities, rates and times", Kind: report.Property, Pitfall: "overflow", Points: 4,
				Hint: "elapsed×rate and Capacity×10^9 pass 2^64: work in 128 bits (math/bits.Mul64) or cap elapsed at the time to fill before multiplying. Times next to MaxUint64 must not wrap either.",
				Run:  prop(overflowDomain, "The values here are huge: capacities and rates near MaxUint64, long idle, times next to MaxUint64, session ids of any size. Every uint64 is legal and products that leave 64 bits must not wrap."),
			},
			{
				ID: "gateway/exactness", Title: "Agrees with the exact model on every call", Kind: report.Property, Pitfall: "exactness", Points: 4,
				Hint: "Replay the counterexample by hand with the contract: one clock, buckets in units of 10^-9 token, cancels on their own budget, floods by their first refusal, reloads at old rates up to now.",
				Run:  prop(exactDomain, "The gateway must answer every call as the contract does."),
			},
			{
				ID: "gateway/budget", Title: "Admit within 100 ns among 1,000 sessions, without allocating", Kind: report.Benchmark, Pitfall: "budget", Points: 2,
				Hint: "One map lookup and one bucket per message: keep sessions in a map by id holding their state by value or by pointer made at Open, no allocation, no string building, no loop over sessions in Admit.",
				Run:  func(int64) check.Outcome { return benchmark(r) },
			},
		},
	}
}

// notStarted reports whether impl is the untouched stub.
func notStarted(impl Impl) bool {
	g, p := check.Call(func() Gateway {
		g, _ := impl.New(Config{Classes: map[string]Class{"regular": {Orders: Budget{1, 1}}}}, 0)
		return g
	})
	_, pv := check.Call(func() error { return impl.Validate(Config{}) })
	if p != nil || g == nil {
		return p.Stub() && pv.Stub()
	}
	_, p1 := check.Call(func() error { return g.Open(1, "regular", 0) })
	_, p2 := check.Call(func() Verdict { return g.Admit(1, NewOrder, 0) })
	_, p3 := check.Call(func() error { return g.Reload(Config{}, 0) })
	return pv.Stub() && p1.Stub() && p2.Stub() && p3.Stub()
}

// validationCases are configs with one problem each (the class names are
// not words a message would use by chance), and valid ones.
func validationCases() []Config {
	one := func(k Class) Config {
		return Config{Classes: map[string]Class{"market-maker": {Orders: Budget{100, 1000}}, "retail-7": k}}
	}
	ok := Budget{10, 100}
	return []Config{
		one(Class{Orders: ok}),
		one(Class{Orders: ok, Cancels: Budget{10, 100}}),
		{Classes: map[string]Class{"retail-7": {Orders: Budget{math.MaxUint64, math.MaxUint64}}}, SilenceAfterNs: 1, DisconnectAfterNs: 2},
		{Classes: map[string]Class{"retail-7": {Orders: ok}}, SilenceAfterNs: 5},
		{Classes: map[string]Class{"retail-7": {Orders: ok}}, DisconnectAfterNs: 5},
		{},
		{Classes: map[string]Class{}},
		one(Class{Orders: Budget{0, 100}}),
		one(Class{Orders: Budget{10, 0}}),
		one(Class{Orders: ok, Cancels: Budget{10, 0}}),
		one(Class{Orders: ok, Cancels: Budget{9, 100}}),
		one(Class{Orders: ok, Cancels: Budget{1000, 99}}),
		{Classes: map[string]Class{"retail-7": {Orders: ok}}, SilenceAfterNs: 5, DisconnectAfterNs: 5},
		{Classes: map[string]Class{"retail-7": {Orders: ok}}, SilenceAfterNs: 6, DisconnectAfterNs: 5},
	}
}

// names reports whether msg names p: the class's name as written, and the
// field by the words of its name (lower case, any punctuation).
func names(msg string, p problem) bool {
	if p.class != "" && !strings.Contains(msg, p.class) {
		return false
	}
	low := strings.ToLower(msg)
	words := map[string][]string{
		"Classes":            {"class"},
		"Orders.Capacity":    {"order", "capacity"},
		"Orders.RatePerSec":  {"order", "rate"},
		"Cancels.Capacity":   {"cancel", "capacity"},
		"Cancels.RatePerSec": {"cancel", "rate"},
		"SilenceAfterNs":     {"silence"},
	}[p.field]
	for _, w := range words {
		if !strings.Contains(low, w) {
			return p.field == "SilenceAfterNs" && strings.Contains(low, "disconnect")
		}
	}
	return true
}

// validation is the config-validation check: Validate, then New, on each
// case; an invalid config's error must name its problem's class and
// field, a valid one must give no error.
func validation(impl Impl) check.Outcome {
	t := check.Trace{Setup: "// each step is a call on its own"}
	for _, cfg := range validationCases() {
		ps := problems(cfg)
		want := "nil"
		if len(ps) > 0 {
			want = "an error naming " + ps[0].String()
		}
		for _, fn := range []string{"Validate", "New"} {
			err, p := check.Call(func() error {
				if fn == "New" {
					_, err := impl.New(cfg, 0)
					return err
				}
				return impl.Validate(cfg)
			})
			got := "nil"
			switch {
			case err != nil && len(ps) > 0 && names(err.Error(), ps[0]):
				got = want
			case err != nil:
				got, _ = check.ErrString(err, false)
			}
			call := fmt.Sprintf("%s(%s)", fn, configString(cfg))
			if fn == "New" {
				call = fmt.Sprintf("New(%s, nowNs=0)", configString(cfg))
			}
			if !t.Step(call, got, want, p) {
				return check.Fail(t, "Validate (and New, which calls it) must refuse exactly the configs the contract refuses, with an error whose text holds the class's name (for a class's problem) and the field's name, so that operations know what to fix.")
			}
		}
	}
	return check.Pass()
}
