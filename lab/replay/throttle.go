package replay

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"

	gm "ratelab/grader/model"
	"ratelab/grader/report"
	"ratelab/lab/throttle"
	refthrottle "ratelab/solutions/throttle"
)

// The week 5 throttle: the breaker's state and recovery time, each
// address's window count against its limit, the global MaxCalls and the
// congestion level.
func init() {
	register(Exercise{ID: "throttle", Build: buildThrottle, Model: modelThrottle})
}

var (
	throttleStates = []string{"Normal", "Degraded", "Paused"}
	throttleLevels = []string{"Low", "NormalLoad", "High"}
)

func enumText(names []string, v uint8, kind string) string {
	if int(v) < len(names) {
		return names[v]
	}
	return kind + "(" + strconv.Itoa(int(v)) + ")"
}

// throttleConfig reads New's Config{Breaker: {…}, Rate: {…}, Congestion: {…}}.
func throttleConfig(c report.Call) (cfg throttle.Config, err error) {
	s, err := structArg(c, "arg1")
	if err != nil {
		return cfg, err
	}
	b, err := structArg(s, "Breaker")
	if err != nil {
		return cfg, err
	}
	r, err := structArg(s, "Rate")
	if err != nil {
		return cfg, err
	}
	g, err := structArg(s, "Congestion")
	if err != nil {
		return cfg, err
	}
	if cfg.Breaker.TTLNs, err = argU64(b, "TTLNs"); err != nil {
		return cfg, err
	}
	if cfg.Breaker.AutoRecover, err = argBool(b, "AutoRecover"); err != nil {
		return cfg, err
	}
	if cfg.Rate, err = rateLimitArg(r); err != nil {
		return cfg, err
	}
	if cfg.Congestion.WindowNs, err = argU64(g, "WindowNs"); err != nil {
		return cfg, err
	}
	for _, f := range []struct {
		from report.Call
		name string
		to   *uint32
	}{
		{b, "DegradedWriteLimit", &cfg.Breaker.DegradedWriteLimit},
		{g, "LowBelow", &cfg.Congestion.LowBelow}, {g, "HighAbove", &cfg.Congestion.HighAbove},
		{g, "ReduceBps", &cfg.Congestion.ReduceBps}, {g, "IncreaseBps", &cfg.Congestion.IncreaseBps},
		{g, "MinMaxCalls", &cfg.Congestion.MinMaxCalls}, {g, "MaxMaxCalls", &cfg.Congestion.MaxMaxCalls},
	} {
		if *f.to, err = argU32(f.from, f.name); err != nil {
			return cfg, err
		}
	}
	return cfg, nil
}

func rateLimitArg(r report.Call) (rl throttle.RateLimit, err error) {
	if rl.MaxCalls, err = argU32(r, "MaxCalls"); err != nil {
		return rl, err
	}
	rl.WindowNs, err = argU64(r, "WindowNs")
	return rl, err
}

func argU32(c report.Call, name string) (uint32, error) {
	n, err := argU64(c, name)
	if err == nil && n > math.MaxUint32 {
		err = fmt.Errorf("%s: %s = %d is not a uint32", c.Name, name, n)
	}
	return uint32(n), err
}

func throttleSetup(c report.Call) (cfg throttle.Config, now uint64, err error) {
	if err = want(c, "New"); err != nil {
		return cfg, 0, err
	}
	if cfg, err = throttleConfig(c); err != nil {
		return cfg, 0, err
	}
	now, err = argU64(c, "nowNs")
	return cfg, now, err
}

// throttleGate is what a replay calls: the lab's Gate and
// ClearIssuerLimit, which the lab's runs do not use.
type throttleGate interface {
	throttle.Gate
	ClearIssuerLimit(addr uint64)
}

// throttleErrs are an implementation's three refusals.
type throttleErrs struct{ paused, degraded, rate error }

// writeText is Write's answer as the grader writes it: "nil", the name of
// the refusal, or another error's text.
func (e throttleErrs) writeText(err error) string {
	switch {
	case err == nil:
		return "nil"
	case e.paused != nil && errors.Is(err, e.paused):
		return "ErrPaused"
	case e.degraded != nil && errors.Is(err, e.degraded):
		return "ErrDegradedLimit"
	case e.rate != nil && errors.Is(err, e.rate):
		return "ErrRateLimited"
	}
	return fmt.Sprintf("error %q", err.Error())
}

// statusText writes a Status as the grader does, the congestion config
// "as configured" when it is cfg's.
func statusText(s throttle.Status, cfg throttle.Congestion) string {
	cong := "as configured"
	if s.Congestion != cfg {
		c := s.Congestion
		cong = fmt.Sprintf("{WindowNs: %s, LowBelow: %d, HighAbove: %d, ReduceBps: %d, IncreaseBps: %d, MinMaxCalls: %d, MaxMaxCalls: %d}",
			goU(c.WindowNs), c.LowBelow, c.HighAbove, c.ReduceBps, c.IncreaseBps, c.MinMaxCalls, c.MaxMaxCalls)
	}
	return fmt.Sprintf("{State: %s; RecoverAtNs: %s; DegradedWriteLimit: %d; DegradedWrites: %d; MaxCalls: %d; WindowNs: %s; Level: %s; Congestion: %s}",
		enumText(throttleStates, uint8(s.State), "State"), goU(s.RecoverAtNs), s.DegradedWriteLimit, s.DegradedWrites, s.MaxCalls, goU(s.WindowNs),
		enumText(throttleLevels, uint8(s.Level), "Level"), cong)
}

func doThrottle(g throttleGate, errs throttleErrs, cong throttle.Congestion, c report.Call) (string, error) {
	addr := func() (uint64, error) { return argU64(c, "addr") }
	now := func() (uint64, error) { return argU64(c, "nowNs") }
	switch c.Name {
	case "SetState":
		s, err := stateArg(c)
		if err != nil {
			return "", err
		}
		t, err := now()
		if err != nil {
			return "", err
		}
		g.SetState(s, t)
		return "", nil
	case "SetIssuerLimit":
		a, err := addr()
		if err != nil {
			return "", err
		}
		r, err := structArg(c, "arg2")
		if err != nil {
			return "", err
		}
		rl, err := rateLimitArg(r)
		if err != nil {
			return "", err
		}
		return errText(g.SetIssuerLimit(a, rl)), nil
	case "ClearIssuerLimit":
		a, err := addr()
		if err != nil {
			return "", err
		}
		g.ClearIssuerLimit(a)
		return "", nil
	case "SetWhitelisted":
		a, err := addr()
		if err != nil {
			return "", err
		}
		on, err := argBool(c, "on")
		if err != nil {
			return "", err
		}
		g.SetWhitelisted(a, on)
		return "", nil
	case "AdjustCongestion", "Status", "Write":
		t, err := now()
		if err != nil {
			return "", err
		}
		switch c.Name {
		case "AdjustCongestion":
			return enumText(throttleLevels, uint8(g.AdjustCongestion(t)), "Level"), nil
		case "Status":
			return statusText(g.Status(t), cong), nil
		}
		a, err := addr()
		if err != nil {
			return "", err
		}
		return errs.writeText(g.Write(a, t)), nil
	}
	return "", want(c, "SetState", "SetIssuerLimit", "ClearIssuerLimit", "SetWhitelisted", "AdjustCongestion", "Status", "Write")
}

// stateArg reads SetState's state, printed bare ("SetState(Degraded,
// nowNs=5)"): the report carries it as an argument named by its own value
// (a name standing for a value), or as its first argument.
func stateArg(c report.Call) (throttle.State, error) {
	for i, name := range throttleStates {
		if v, ok := c.Args[name]; ok && v == name {
			return throttle.State(i), nil
		}
	}
	if v, ok := c.Args["arg1"].(string); ok {
		if i := slices.Index(throttleStates, v); i >= 0 {
			return throttle.State(i), nil
		}
	}
	return 0, fmt.Errorf("SetState: no State among %v", c.Args)
}

type throttleCalls struct {
	g    throttleGate
	errs throttleErrs
	cong throttle.Congestion // the config's, for Status
}

func (x throttleCalls) Do(c report.Call) (string, error) { return doThrottle(x.g, x.errs, x.cong, c) }

// buildThrottle builds the gate; a config New refuses cannot be replayed
// (the check that graded it is a case of its own).
func buildThrottle(impls Impls, setup report.Call) (Instance, error) {
	cfg, now, err := throttleSetup(setup)
	if err != nil {
		return nil, err
	}
	if impls.Throttle.New == nil {
		return nil, errMissing(impls.Throttle.Missing)
	}
	g, err := impls.Throttle.New(cfg, now)
	if err != nil {
		return nil, fmt.Errorf("New refused the config: %v", err)
	}
	if g == nil {
		return nil, errors.New("New returned no gate and no error")
	}
	tg, ok := g.(throttleGate)
	if !ok {
		return nil, errors.New("this build's gate has no ClearIssuerLimit to replay with")
	}
	return throttleCalls{tg, throttleErrs{impls.Throttle.ErrPaused, impls.Throttle.ErrDegradedLimit, impls.Throttle.ErrRateLimited}, cfg.Congestion}, nil
}

// ThrottleModel is the throttle's contract (grader/model's Throttle) in
// the lab's types, with the addresses named so far, in order, to draw
// them.
type ThrottleModel struct {
	*gm.Throttle[throttle.State, throttle.Level]
	seen []uint64
}

// NewThrottleModel is New(cfg, nowNs) for a valid cfg. The lab's config
// is the reference's type (lab/throttle); its parts convert to the
// model's one by one.
func NewThrottleModel(cfg throttle.Config, nowNs uint64) *ThrottleModel {
	mc := gm.ThrottleConfig{
		Breaker:    gm.ThrottleBreakerConfig(cfg.Breaker),
		Rate:       gm.ThrottleRate(cfg.Rate),
		Congestion: gm.ThrottleCongestion(cfg.Congestion),
	}
	return &ThrottleModel{Throttle: gm.NewThrottle[throttle.State, throttle.Level](mc, nowNs, "")}
}

func (m *ThrottleModel) see(addr uint64) {
	if !slices.Contains(m.seen, addr) {
		m.seen = append(m.seen, addr)
	}
}

// SetIssuerLimit sets an override and starts the address's window afresh.
func (m *ThrottleModel) SetIssuerLimit(addr uint64, rl throttle.RateLimit) error {
	if m.Throttle.SetIssuerLimit(addr, gm.ThrottleRate(rl)) {
		return errors.New("a RateLimit field is 0")
	}
	m.see(addr)
	return nil
}

// ClearIssuerLimit drops the override and starts the window afresh.
func (m *ThrottleModel) ClearIssuerLimit(addr uint64) {
	m.see(addr)
	m.Throttle.ClearIssuerLimit(addr)
}

// SetWhitelisted puts the address on the whitelist or takes it off.
func (m *ThrottleModel) SetWhitelisted(addr uint64, on bool) {
	m.see(addr)
	m.Throttle.SetWhitelisted(addr, on)
}

// throttleErrors are the exercise's errors, by the model's refusal.
var throttleErrors = [...]error{
	gm.ThrottleByPause:         refthrottle.ErrPaused,
	gm.ThrottleByDegradedLimit: refthrottle.ErrDegradedLimit,
	gm.ThrottleByRateLimit:     refthrottle.ErrRateLimited,
}

// Write checks pause, the degraded limit, then the rate limit (unless
// whitelisted); an accepted write counts everywhere.
func (m *ThrottleModel) Write(addr, now uint64) error {
	m.see(addr)
	return throttleErrors[m.Throttle.Write(addr, now)]
}

// Status is the whole picture after automatic recovery.
func (m *ThrottleModel) Status(now uint64) throttle.Status {
	s := m.Throttle.Status(now)
	return throttle.Status{
		State: s.State, RecoverAtNs: s.RecoverAtNs, DegradedWriteLimit: s.DegradedWriteLimit, DegradedWrites: s.DegradedWrites,
		MaxCalls: s.MaxCalls, WindowNs: s.WindowNs, Level: s.Level, Congestion: throttle.Congestion(s.Congestion),
	}
}

func (m *ThrottleModel) Do(c report.Call) (string, error) {
	return doThrottle(m, throttleErrs{refthrottle.ErrPaused, refthrottle.ErrDegradedLimit, refthrottle.ErrRateLimited}, throttle.Congestion(m.Cfg.Congestion), c)
}

// maxAddrs is the most addresses drawn.
const maxAddrs = 8

// State is the breaker's state and recovery time, the global MaxCalls and
// the congestion level beside the accepted writes in its window, then
// each address named so far: its window's count against its limit.
func (m *ThrottleModel) State() []Field {
	breaker := enumText(throttleStates, uint8(m.Current), "State")
	if m.Current == refthrottle.Degraded {
		breaker += fmt.Sprintf(", %d of %d degraded writes", m.DegradedWrites, m.Cfg.Breaker.DegradedWriteLimit)
	}
	if m.RecoverAt != 0 {
		breaker += ", recovers at t = " + u(m.RecoverAt) + " ns"
	} else if m.Current != refthrottle.Normal {
		breaker += ", no automatic recovery"
	}
	c := m.Cfg.Congestion
	writes := gm.CountInWindow(m.Accepted, m.Latest, c.WindowNs)
	out := []Field{
		{Label: "breaker", Text: breaker},
		{Label: "MaxCalls", Text: fmt.Sprintf("%d in [%d, %d] per %s ns", m.MaxCalls, c.MinMaxCalls, c.MaxMaxCalls, u(m.Cfg.Rate.WindowNs))},
		{Label: "congestion", Text: fmt.Sprintf("%s; %s in the last %s ns (Low below %d, High above %d)",
			enumText(throttleLevels, uint8(m.Level), "Level"), plural(writes, "accepted write"), u(c.WindowNs), c.LowBelow, c.HighAbove)},
	}
	for _, a := range m.seen[:min(len(m.seen), maxAddrs)] {
		rl := m.LimitOf(a)
		n := gm.CountInWindow(m.Writes[a], m.Latest, rl.WindowNs)
		f := Field{Label: "addr " + u(a), Value: float64(n), Max: float64(max(rl.MaxCalls, 1))}
		f.Text = fmt.Sprintf("%d of %d in the last %s ns", n, rl.MaxCalls, u(rl.WindowNs))
		if _, ok := m.Overrides[a]; ok {
			f.Text += " (its override)"
		}
		if m.Whitelisted[a] {
			f.Text += "; whitelisted: not limited"
		}
		out = append(out, f)
	}
	if len(m.seen) > maxAddrs {
		out = append(out, Field{Label: "more", Text: strconv.Itoa(len(m.seen)-maxAddrs) + " addresses not drawn"})
	}
	return append(out, Field{Label: "now", Text: "t = " + u(m.Latest) + " ns"})
}

// modelThrottle makes the model; a config the contract refuses cannot be
// replayed.
func modelThrottle(setup report.Call) (Model, error) {
	cfg, now, err := throttleSetup(setup)
	if err != nil {
		return nil, err
	}
	if _, err := refthrottle.New(cfg, now); err != nil {
		return nil, fmt.Errorf("New: %v: the config is refused, nothing to replay", err)
	}
	return NewThrottleModel(cfg, now), nil
}

// plural is "1 thing" or "n things".
func plural(n uint64, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return u(n) + " " + thing + "s"
}
