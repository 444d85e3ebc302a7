package gateway

import (
	"fmt"
	"slices"
	"strings"

	"ratelab/grader/check"
)

type setup = check.ConfigAt[Config]

// call is the method an op calls.
type call uint8

const (
	admitCall call = iota
	openCall
	reloadCall
)

// op is one call, at its When.
type op struct {
	Call    call
	Session uint64
	Kind    Kind   // Admit's
	Class   string // Open's
	Cfg     Config // Reload's
	check.When
}

type script = check.Script[setup, op]

var kindNames = []string{"NewOrder", "Modify", "Cancel", "Heartbeat"}
var outcomeNames = []string{"Accept", "Reject", "Silent", "Disconnect"}

func (k Kind) String() string { return check.EnumName(kindNames, k, "Kind") }

func (o Outcome) String() string { return check.EnumName(outcomeNames, o, "Outcome") }

// String writes a verdict as the report shows it: "Accept", "Disconnect",
// or "Reject orders retryAfterNs=1_000". Anything beyond the contract's
// shape is written out whole.
func (v Verdict) String() string {
	if (v.Outcome == Accept || v.Outcome == Disconnect) && v.Budget == "" && v.RetryAfterNs == 0 {
		return v.Outcome.String()
	}
	return fmt.Sprintf("%s %q retryAfterNs=%s", v.Outcome, v.Budget, check.U(v.RetryAfterNs))
}

func budgetString(b Budget) string {
	return fmt.Sprintf("Budget{%s, %s}", check.U(b.Capacity), check.U(b.RatePerSec))
}

// configString writes cfg as Go, classes in name order, unlimited cancels
// left out.
func configString(cfg Config) string {
	names := make([]string, 0, len(cfg.Classes))
	for n := range cfg.Classes {
		names = append(names, n)
	}
	slices.Sort(names)
	var cs []string
	for _, n := range names {
		k := cfg.Classes[n]
		c := fmt.Sprintf("%q: {Orders: %s", n, budgetString(k.Orders))
		if k.Cancels != (Budget{}) {
			c += ", Cancels: " + budgetString(k.Cancels)
		}
		cs = append(cs, c+"}")
	}
	s := "Config{Classes: {" + strings.Join(cs, ", ") + "}"
	if cfg.SilenceAfterNs > 0 {
		s += ", SilenceAfterNs: " + check.U(cfg.SilenceAfterNs)
	}
	if cfg.DisconnectAfterNs > 0 {
		s += ", DisconnectAfterNs: " + check.U(cfg.DisconnectAfterNs)
	}
	return s + "}"
}

func (o op) callString(now uint64) string {
	switch o.Call {
	case openCall:
		return fmt.Sprintf("Open(session=%s, class=%q, nowNs=%s)", check.U(o.Session), o.Class, check.U(now))
	case reloadCall:
		return fmt.Sprintf("Reload(%s, nowNs=%s)", configString(o.Cfg), check.U(now))
	}
	return fmt.Sprintf("Admit(session=%s, kind=%s, nowNs=%s)", check.U(o.Session), o.Kind, check.U(now))
}

func replay(impl Impl, s script) check.Trace {
	t, _ := run(impl, s)
	return t
}

// run replays s on impl beside the model, and returns the trace and, if
// its last call returned an error the model did not, that error's text.
//
// An error where none is wanted is written "an error", whatever its text,
// as one is where one is wanted: the text is the learner's own, which no
// error model could give, and the counterexample says which call erred
// (the check's message quotes the text, see explainError).
func run(impl Impl, s script) (check.Trace, string) {
	st := s.Setup
	text := ""
	t, g, ok := check.BeginNew(st, configString, "a nil *Gateway", impl.New)
	t.Full = s.Full
	if ok {
		m := newModel(st.Cfg, st.Start)
		errString := func(err error, wantErr bool) (got, want string) {
			got, want = check.ErrString(err, wantErr)
			if err != nil && !wantErr {
				got, text = "an error", err.Error()
			}
			return got, want
		}
		check.Replay(&t, st.Start, s.Ops, func(o op, now uint64) (line, got, want string, p *check.Panic) {
			text = ""
			switch o.Call {
			case openCall:
				var err error
				err, p = check.Call(func() error { return g.Open(o.Session, o.Class, now) })
				got, want = errString(err, m.open(o.Session, o.Class, now))
			case reloadCall:
				var err error
				err, p = check.Call(func() error { return g.Reload(o.Cfg, now) })
				got, want = errString(err, m.reload(o.Cfg, now))
			default:
				var v Verdict
				v, p = check.Call(func() Verdict { return g.Admit(o.Session, o.Kind, now) })
				got, want = v.String(), m.admit(o.Session, o.Kind, now).String()
			}
			return o.callString(now), got, want, p
		})
	}
	return t, text
}
