package throttle

import (
	"fmt"
	"strings"

	"ratelab/grader/check"
)

type setup = check.ConfigAt[Config]

// call is the method an op calls.
type call uint8

const (
	writeCall call = iota
	stateCall
	limitCall
	clearCall
	whiteCall
	adjustCall
	statusCall
	nCalls
)

// timed reports whether c takes a time.
func (c call) timed() bool {
	return c == writeCall || c == stateCall || c == adjustCall || c == statusCall
}

// op is one call, at its When; an untimed call (see call.timed) has
// neither Wait nor Back.
type op struct {
	Call  call
	Addr  uint64
	State State     // SetState's
	Limit RateLimit // SetIssuerLimit's
	On    bool      // SetWhitelisted's
	check.When
}

type script = check.Script[setup, op]

var stateNames = []string{"Normal", "Degraded", "Paused"}
var levelNames = []string{"Low", "NormalLoad", "High"}

func (s State) String() string { return check.EnumName(stateNames, s, "State") }

func (l Level) String() string { return check.EnumName(levelNames, l, "Level") }

// String writes Write's answer as the report shows it: "nil", the name of
// one of the three errors, or another error's text.
func (w WriteResult) String() string {
	switch w.Refusal {
	case Accepted:
		return "nil"
	case ByPause:
		return "ErrPaused"
	case ByDegradedLimit:
		return "ErrDegradedLimit"
	case ByRateLimit:
		return "ErrRateLimited"
	}
	return fmt.Sprintf("error %q", w.Text)
}

func (r Refusal) String() string { return WriteResult{Refusal: r}.String() }

func congestionString(c CongestionConfig) string {
	return fmt.Sprintf("{WindowNs: %s, LowBelow: %d, HighAbove: %d, ReduceBps: %d, IncreaseBps: %d, MinMaxCalls: %d, MaxMaxCalls: %d}",
		check.U(c.WindowNs), c.LowBelow, c.HighAbove, c.ReduceBps, c.IncreaseBps, c.MinMaxCalls, c.MaxMaxCalls)
}

func configString(c Config) string {
	return fmt.Sprintf("Config{Breaker: {TTLNs: %s, DegradedWriteLimit: %d, AutoRecover: %t}, Rate: {MaxCalls: %d, WindowNs: %s}, Congestion: %s}",
		check.U(c.Breaker.TTLNs), c.Breaker.DegradedWriteLimit, c.Breaker.AutoRecover, c.Rate.MaxCalls, check.U(c.Rate.WindowNs), congestionString(c.Congestion))
}

// statusString writes a Status as its fields, "; "-separated (see
// statusDiff); the congestion config as "as configured" when it is cfg's.
func statusString(s Status, cfg CongestionConfig) string {
	cong := "as configured"
	if s.Congestion != cfg {
		cong = congestionString(s.Congestion)
	}
	return fmt.Sprintf("{State: %s; RecoverAtNs: %s; DegradedWriteLimit: %d; DegradedWrites: %d; MaxCalls: %d; WindowNs: %s; Level: %s; Congestion: %s}",
		s.State, check.U(s.RecoverAtNs), s.DegradedWriteLimit, s.DegradedWrites, s.MaxCalls, check.U(s.WindowNs), s.Level, cong)
}

// statusDiff returns the names of the fields in which two statusStrings
// differ.
func statusDiff(got, want string) []string {
	g := strings.Split(strings.Trim(got, "{}"), "; ")
	w := strings.Split(strings.Trim(want, "{}"), "; ")
	if len(g) != len(w) {
		return []string{"?"}
	}
	var out []string
	for i := range g {
		if g[i] != w[i] {
			out = append(out, w[i][:strings.IndexByte(w[i], ':')])
		}
	}
	return out
}

func (o op) callString(now uint64) string {
	switch o.Call {
	case stateCall:
		return fmt.Sprintf("SetState(%s, nowNs=%s)", o.State, check.U(now))
	case limitCall:
		return fmt.Sprintf("SetIssuerLimit(addr=%d, RateLimit{MaxCalls: %d, WindowNs: %s})", o.Addr, o.Limit.MaxCalls, check.U(o.Limit.WindowNs))
	case clearCall:
		return fmt.Sprintf("ClearIssuerLimit(addr=%d)", o.Addr)
	case whiteCall:
		return fmt.Sprintf("SetWhitelisted(addr=%d, on=%t)", o.Addr, o.On)
	case adjustCall:
		return fmt.Sprintf("AdjustCongestion(nowNs=%s)", check.U(now))
	case statusCall:
		return fmt.Sprintf("Status(nowNs=%s)", check.U(now))
	}
	return fmt.Sprintf("Write(addr=%d, nowNs=%s)", o.Addr, check.U(now))
}

// apply makes o's call at now on g, the implementation or the model (see
// modelGate), and returns its answer as the report writes it; Status's
// answer is written against cong, the config's Congestion.
func (o op) apply(g Gate, cong CongestionConfig, now uint64) string {
	switch o.Call {
	case stateCall:
		g.SetState(o.State, now)
	case limitCall:
		got, _ := check.ErrString(g.SetIssuerLimit(o.Addr, o.Limit), o.Limit.MaxCalls == 0 || o.Limit.WindowNs == 0)
		return got
	case clearCall:
		g.ClearIssuerLimit(o.Addr)
	case whiteCall:
		g.SetWhitelisted(o.Addr, o.On)
	case adjustCall:
		return g.AdjustCongestion(now).String()
	case statusCall:
		return statusString(g.Status(now), cong)
	case writeCall:
		return g.Write(o.Addr, now).String()
	}
	return ""
}

// step applies o at now to the model and returns what the contract
// answers, written as the report shows it.
func (m *model) step(o op, now uint64) string {
	return o.apply(modelGate{m}, m.Cfg.Congestion, now)
}

// modelGate is the model as a Gate, so that apply makes a call on it as on
// the implementation (and a mistake's model is graded as a learner's
// gate). SetIssuerLimit's error is the model's refusal, which comes
// exactly when apply wants one (a MaxCalls or a WindowNs of 0): apply
// then writes it "an error"; it names the field, as the contract asks.
type modelGate struct{ m *model }

func (g modelGate) SetState(s State, nowNs uint64) { g.m.SetState(s, nowNs) }
func (g modelGate) SetIssuerLimit(addr uint64, rl RateLimit) error {
	if g.m.SetIssuerLimit(addr, rl) {
		field := "MaxCalls"
		if rl.MaxCalls != 0 {
			field = "WindowNs"
		}
		return fmt.Errorf("the model refuses RateLimit.%s 0", field)
	}
	return nil
}
func (g modelGate) ClearIssuerLimit(addr uint64)        { g.m.ClearIssuerLimit(addr) }
func (g modelGate) SetWhitelisted(addr uint64, on bool) { g.m.SetWhitelisted(addr, on) }
func (g modelGate) Write(addr, nowNs uint64) WriteResult {
	return WriteResult{Refusal: Refusal(g.m.Write(addr, nowNs))}
}
func (g modelGate) AdjustCongestion(nowNs uint64) Level { return g.m.AdjustCongestion(nowNs) }
func (g modelGate) Status(nowNs uint64) Status          { return g.m.Status(nowNs) }

func replay(impl Impl, s script) check.Trace {
	st := s.Setup
	t, g, ok := check.BeginNew(st, configString, "a nil *Gate", impl.New)
	t.Full = s.Full
	if ok {
		m := newModel(st.Cfg, st.Start)
		check.Replay(&t, st.Start, s.Ops, func(o op, now uint64) (string, string, string, *check.Panic) {
			got, p := check.Call(func() string { return o.apply(g, st.Cfg.Congestion, now) })
			return o.callString(now), got, m.step(o, now), p
		})
	}
	return t
}
