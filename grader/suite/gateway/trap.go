package gateway

import (
	"math"
	"math/big"

	"ratelab/grader/check"
)

// Traps: each check's failure must contain the mistake it names (see
// check.Property.Trap). Where the mistake is a kind of call, the same
// script without those calls (their waits kept) must be answered right,
// so the failure is those calls' doing.

// headDiffers reports whether the failing step differs in more than the
// retry-after (or panicked): the outcome, the budget, or an error.
func headDiffers(t check.Trace) bool {
	st := t.Steps[len(t.Steps)-1]
	return t.Panic != nil || headOf(st.Got) != headOf(st.Want)
}

// passesWithout reports whether s, without the calls before last that drop
// picks (there must be some), is answered right.
func passesWithout(s script, last int, drop func(o op) bool, replay func(script) check.Trace) bool {
	return check.PassesWithout(s, last, func(_ int, o op) bool { return drop(o) }, replay)
}

func isAdmit(k Kind) func(op) bool {
	return func(o op) bool { return o.Call == admitCall && o.Kind == k }
}

// cancelTrap: the answer itself is wrong (not only its retry-after), and
// either the failing call is a cancel that an unlimited budget must pass,
// or the script without the cancels before it (the orders before it, for
// a failing cancel) is answered right.
func cancelTrap(s script, t check.Trace, replay func(script) check.Trace) bool {
	last := t.Last()
	if !headDiffers(t) {
		return false
	}
	o := s.Ops[last]
	if o.Call != admitCall {
		return false
	}
	if o.Kind == Cancel {
		if t.Steps[last].Want == "Accept" && unlimitedCancels(s, last) {
			return true
		}
		return passesWithout(s, last, func(o op) bool { return o.Call == admitCall && (o.Kind == NewOrder || o.Kind == Modify) }, replay)
	}
	return passesWithout(s, last, isAdmit(Cancel), replay)
}

// unlimitedCancels reports whether the session of call last has unlimited
// cancels by the config in force (no reloads in this domain).
func unlimitedCancels(s script, last int) bool {
	class := ""
	for _, o := range s.Ops[:last] {
		if o.Call == openCall && o.Session == s.Ops[last].Session && class == "" {
			class = o.Class
		}
	}
	k, ok := s.Setup.Cfg.Classes[class]
	return ok && k.Cancels.Capacity == 0
}

// heartbeatTrap: the failing call is a heartbeat, or the script without
// the heartbeats before it is answered right.
func heartbeatTrap(s script, t check.Trace, replay func(script) check.Trace) bool {
	last := t.Last()
	if isAdmit(Heartbeat)(s.Ops[last]) {
		return true
	}
	return passesWithout(s, last, isAdmit(Heartbeat), replay)
}

// retryTrap: the outcome and the budget are right, the retry-after is not.
func retryTrap(s script, t check.Trace, _ func(script) check.Trace) bool {
	last := t.Last()
	return !headDiffers(t) && s.Ops[last].Call == admitCall
}

// escalationTrap: the failing call is an Admit, and the same script with
// escalation off (in the setup and every reload) is answered right.
func escalationTrap(s script, t check.Trace, replay func(script) check.Trace) bool {
	last := t.Last()
	if s.Ops[last].Call != admitCall || !headDiffers(t) {
		return false
	}
	return !replay(escalationOff(s)).Bad
}

// escalationOff returns s with no escalation times, in its setup and in
// every reload.
func escalationOff(s script) script {
	off := func(c Config) Config { c.SilenceAfterNs, c.DisconnectAfterNs = 0, 0; return c }
	alt := script{Setup: setup{Cfg: off(s.Setup.Cfg), Start: s.Setup.Start}}
	for _, o := range s.Ops {
		if o.Call == reloadCall {
			o.Cfg = off(o.Cfg)
		}
		alt.Ops = append(alt.Ops, o)
	}
	return alt
}

// acceptanceDiffers reports whether the failing step accepts where the
// contract refuses (Reject or Silent), or the other way round: what a
// budget holding the wrong units does. How a refusal escalates, or a
// Disconnect, is escalation's business.
func acceptanceDiffers(t check.Trace) bool {
	st := t.Steps[len(t.Steps)-1]
	refused := func(v string) bool {
		o := headOf(v)
		return len(o) > 6 && (o[:6] == "Reject" || o[:6] == "Silent")
	}
	return t.Panic == nil && (st.Got == "Accept" && refused(st.Want) || st.Want == "Accept" && refused(st.Got))
}

// reconnectTrap: a session disconnected and was opened again before (or
// at) the failing call, the failing call is that Open or an Admit that
// accepts where the contract refuses (or the other way round), and the same script with every reopened session
// continuing under a fresh id from its reopening on is answered right.
func reconnectTrap(s script, t check.Trace, replay func(script) check.Trace) bool {
	last := t.Last()
	if s.Ops[last].Call == admitCall && !acceptanceDiffers(t) {
		return false
	}
	m := newModel(s.Setup.Cfg, s.Setup.Start)
	renamed := map[uint64]uint64{}
	alt := script{Setup: s.Setup}
	latest := s.Setup.Start
	reopened := false
	for i, o := range s.Ops {
		now := o.At(latest)
		latest = max(latest, now)
		switch o.Call {
		case openCall:
			if sess := m.sessions[o.Session]; sess != nil && !sess.open && i <= last {
				reopened = true
				renamed[o.Session] = o.Session + 1_000_000
			}
			m.open(o.Session, o.Class, now)
		case reloadCall:
			m.reload(o.Cfg, now)
		default:
			m.admit(o.Session, o.Kind, now)
		}
		if id, ok := renamed[o.Session]; ok && o.Call != reloadCall {
			o.Session = id
		}
		alt.Ops = append(alt.Ops, o)
	}
	return reopened && !replay(alt).Bad
}

// reloadTrap: the failing call is a reload, or an Admit that accepts where
// the contract refuses (or the other way round) and the script without the
// reloads before it is answered right, both under the config it starts
// with and under the config the last reload before the failing call put
// in force: the failure needs the change of config.
func reloadTrap(s script, t check.Trace, replay func(script) check.Trace) bool {
	last := t.Last()
	if s.Ops[last].Call == reloadCall {
		return true
	}
	if s.Ops[last].Call == admitCall && !acceptanceDiffers(t) {
		return false
	}
	isReload := func(o op) bool { return o.Call == reloadCall }
	if !passesWithout(s, last, isReload, replay) {
		return false
	}
	final, ok := s.Setup.Cfg, false
	for _, o := range s.Ops[:last] {
		if o.Call == reloadCall && problems(o.Cfg) == nil {
			final, ok = o.Cfg, true
		}
	}
	alt, fine := check.Without(s, last, func(_ int, o op) bool { return isReload(o) })
	alt.Setup.Cfg = final
	return ok && fine && !replay(alt).Bad
}

// overflowTrap: the answer itself is wrong (not only its retry-after); up
// to the failing call a value of the contract's arithmetic left 64 bits
// (Capacity×10^9, elapsed×rate, or a time saturated at MaxUint64); and the
// same calls made small (see small) are answered right.
func overflowTrap(s script, t check.Trace, replay func(script) check.Trace) bool {
	return hugeValues(s, t) && !replay(small(s)).Bad
}

// small returns s with small values: start 0, waits of at most 1000 ns,
// capacities of at most 8, every rate 10^9 (one token a nanosecond), and
// escalation times of at most 100 and 200 ns (their order kept).
func small(s script) script {
	cfg := func(c Config) Config {
		out := Config{SilenceAfterNs: min(c.SilenceAfterNs, 100), DisconnectAfterNs: min(c.DisconnectAfterNs, 200)}
		if c.Classes != nil {
			out.Classes = map[string]Class{}
		}
		for n, k := range c.Classes {
			b := func(b Budget) Budget {
				if b.Capacity == 0 {
					return b
				}
				return Budget{min(b.Capacity, 8), 1e9}
			}
			out.Classes[n] = Class{b(k.Orders), b(k.Cancels)}
		}
		return out
	}
	alt := script{Setup: setup{Cfg: cfg(s.Setup.Cfg)}}
	latest := s.Setup.Start
	for _, o := range s.Ops {
		now := o.At(latest)
		if o.Back == 0 {
			o.Wait = min(now-latest, 1000) // what the call really waited (a time may saturate)
		}
		latest = max(latest, now)
		if o.Call == reloadCall {
			o.Cfg = cfg(o.Cfg)
		}
		alt.Ops = append(alt.Ops, o)
	}
	return alt
}

// hugeValues is overflowTrap's first half: whether the failing call
// differs in more than its retry-after (see headDiffers) and a value of
// the contract's arithmetic up to it leaves 64 bits.
func hugeValues(s script, t check.Trace) bool {
	last := t.Last()
	if !headDiffers(t) {
		return false
	}
	limit := new(big.Int).Lsh(big.NewInt(1), 64)
	beyond := func(a, b uint64) bool {
		return new(big.Int).Mul(new(big.Int).SetUint64(a), new(big.Int).SetUint64(b)).Cmp(limit) >= 0
	}
	huge := func(c Config) (bool, uint64) {
		var rate uint64
		h := false
		for _, k := range c.Classes {
			h = h || beyond(k.Orders.Capacity, 1e9) || beyond(k.Cancels.Capacity, 1e9)
			rate = max(rate, k.Orders.RatePerSec, k.Cancels.RatePerSec)
		}
		return h, rate
	}
	h, rate := huge(s.Setup.Cfg)
	latest := s.Setup.Start
	for _, o := range s.Ops[:last+1] {
		if o.Back == 0 && latest > math.MaxUint64-o.Wait {
			h = true
		}
		now := o.At(latest)
		if now > latest && beyond(now-latest, rate) {
			h = true
		}
		latest = max(latest, now)
		if o.Call == reloadCall && problems(o.Cfg) == nil {
			hr, r := huge(o.Cfg)
			h, rate = h || hr, max(rate, r)
		}
	}
	return h
}
