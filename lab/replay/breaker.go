package replay

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"

	gm "ratelab/grader/model"
	"ratelab/grader/report"
	"ratelab/lab/breaker"
)

// The week 5 failure-driven breaker: its state, generation, consecutive
// failures and the probes of a half-open period.
func init() {
	register(Exercise{ID: "breaker", Build: buildBreaker, Model: modelBreaker})
}

var breakerStates = []string{"Closed", "Open", "HalfOpen"}

func breakerSetup(c report.Call) (cfg breaker.Config, now uint64, err error) {
	if err = want(c, "New"); err != nil {
		return cfg, 0, err
	}
	s, err := structArg(c, "arg1")
	if err != nil {
		return cfg, 0, err
	}
	if cfg.FailureThreshold, err = argU32(s, "FailureThreshold"); err != nil {
		return cfg, 0, err
	}
	if cfg.OpenNs, err = argU64(s, "OpenNs"); err != nil {
		return cfg, 0, err
	}
	if cfg.HalfOpenProbes, err = argU32(s, "HalfOpenProbes"); err != nil {
		return cfg, 0, err
	}
	if cfg.FailureThreshold == 0 || cfg.OpenNs == 0 || cfg.HalfOpenProbes == 0 {
		return cfg, 0, fmt.Errorf("New(%+v): a 0 field is refused, nothing to replay", cfg)
	}
	now, err = argU64(c, "nowNs")
	return cfg, now, err
}

// ticketArg matches Done's ticket as the grader prints it: the value,
// then where it came from ("[from step 3]", "[never issued]").
var ticketArg = regexp.MustCompile(`^([0-9_,]+)\s*\[(?:from step ([0-9]+)|never issued)\]$`)

// breakerCalls replays calls on one breaker. Tickets are the
// implementation's own: a Done reporting the ticket "from step k" reports
// what this breaker's Allow returned at step k; one "never issued"
// reports the printed value, or the next one up that this breaker never
// returned (the grader's choice, made for Yours, made again for each).
type breakerCalls struct {
	b        breaker.Breaker
	step     int            // steps done so far
	tickets  map[int]uint64 // by step (1-based): the ticket Allow returned
	returned []uint64       // every ticket Allow returned
}

func newBreakerCalls(b breaker.Breaker) *breakerCalls {
	return &breakerCalls{b: b, tickets: map[int]uint64{}}
}

func (x *breakerCalls) Do(c report.Call) (string, error) {
	x.step++
	now, err := argU64(c, "nowNs")
	if err != nil {
		return "", err
	}
	switch c.Name {
	case "Allow":
		t, ok := x.b.Allow(now)
		x.tickets[x.step], x.returned = t, append(x.returned, t)
		return bool2(ok), nil
	case "State":
		return enumText(breakerStates, uint8(x.b.State(now)), "State"), nil
	case "Done":
		success, err := argBool(c, "success")
		if err != nil {
			return "", err
		}
		t, err := x.ticket(c)
		if err != nil {
			return "", err
		}
		x.b.Done(t, success, now)
		return "", nil
	}
	return "", want(c, "Allow", "Done", "State")
}

// ticket is the value Done reports on this breaker.
func (x *breakerCalls) ticket(c report.Call) (uint64, error) {
	text, _ := c.Args["ticket"].(string)
	m := ticketArg.FindStringSubmatch(text)
	if m == nil {
		return 0, fmt.Errorf("Done: ticket %v is not \"N [from step K]\" or \"N [never issued]\"", c.Args["ticket"])
	}
	printed, err := strconv.ParseUint(stripDigits(m[1]), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("Done: ticket %q is not a uint64", m[1])
	}
	if m[2] != "" {
		k, _ := strconv.Atoi(m[2])
		if t, ok := x.tickets[k]; ok {
			return t, nil
		}
		return 0, fmt.Errorf("Done: ticket from step %d, which is not an Allow before it", k)
	}
	for slices.Contains(x.returned, printed) && printed < math.MaxUint64 {
		printed++
	}
	return printed, nil
}

func stripDigits(s string) string {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] >= '0' && s[i] <= '9' {
			out = append(out, s[i])
		}
	}
	return string(out)
}

func buildBreaker(impls Impls, setup report.Call) (Instance, error) {
	cfg, now, err := breakerSetup(setup)
	if err != nil {
		return nil, err
	}
	if impls.Breaker.New == nil {
		return nil, errMissing(impls.Breaker.Missing)
	}
	b, err := impls.Breaker.New(cfg, now)
	if err != nil {
		return nil, fmt.Errorf("New refused the config: %v", err)
	}
	if b == nil {
		return nil, errors.New("New returned no breaker and no error")
	}
	return newBreakerCalls(b), nil
}

// BreakerModel is the breaker's contract as plain state (the grader's
// model.Breaker) in the lab's types, with the tickets it issued: 1, 2,
// 3, …, each outstanding with its generation until reported.
type BreakerModel struct {
	gm.Breaker[breaker.State]
	Issued      uint64            // the last ticket issued
	Outstanding map[uint64]uint64 // ticket -> its generation, until reported

	replay *breakerCalls // the model's own tickets by step, for Do
}

// NewBreakerModel is New(cfg, nowNs): Closed, generation 0.
func NewBreakerModel(cfg breaker.Config, nowNs uint64) *BreakerModel {
	return &BreakerModel{
		Breaker:     *gm.NewBreaker[breaker.State](cfg, nowNs),
		Outstanding: map[uint64]uint64{},
	}
}

// Allow lets a call through in Closed, and the first HalfOpenProbes calls
// of a half-open period, each with a ticket of its own.
func (m *BreakerModel) Allow(now uint64) (uint64, bool) {
	gen, ok := m.Breaker.Allow(now)
	if !ok {
		return 0, false
	}
	m.Issued++
	m.Outstanding[m.Issued] = gen
	return m.Issued, true
}

// Done reports a call; a ticket never issued, or of an earlier
// generation, is ignored.
func (m *BreakerModel) Done(ticket uint64, success bool, now uint64) {
	gen, ok := m.Outstanding[ticket]
	delete(m.Outstanding, ticket)
	m.Breaker.Done(gen, ok, success, now)
}

// Do replays c on the model, its tickets tracked as an implementation's.
func (m *BreakerModel) Do(c report.Call) (string, error) { return m.calls().Do(c) }

// calls is the model's breakerCalls, kept across steps.
func (m *BreakerModel) calls() *breakerCalls {
	if m.replay == nil {
		m.replay = newBreakerCalls(breakerModelAPI{m})
	}
	return m.replay
}

// breakerModelAPI is the model behind breaker.Breaker.
type breakerModelAPI struct{ m *BreakerModel }

func (a breakerModelAPI) Allow(now uint64) (uint64, bool)         { return a.m.Allow(now) }
func (a breakerModelAPI) Done(t uint64, success bool, now uint64) { a.m.Done(t, success, now) }
func (a breakerModelAPI) State(now uint64) breaker.State          { return a.m.StateAt(now) }

// State is the breaker's state (and when an open period ends), its
// generation, the consecutive failures against the threshold, and the
// probes of a half-open period: let through, reported, in flight.
func (m *BreakerModel) State() []Field {
	state := enumText(breakerStates, uint8(m.Current), "State")
	if m.Current == breaker.Open {
		if end, ok := m.OpenEnd(); ok {
			state += " until t = " + u(end) + " ns"
		} else {
			state += " for ever (the period would end past MaxUint64)"
		}
	}
	inFlight := 0
	for _, g := range m.Outstanding {
		if g == m.Gen {
			inFlight++
		}
	}
	stale := len(m.Outstanding) - inFlight
	gen := u(m.Gen) + "; " + plural(uint64(inFlight), "ticket") + " of it outstanding"
	if stale > 0 {
		gen += ", " + strconv.Itoa(stale) + " stale (ignored when reported)"
	}
	out := []Field{{Label: "state", Text: state}, {Label: "generation", Text: gen}}
	switch m.Current {
	case breaker.Closed:
		out = append(out, Field{Label: "failures", Text: fmt.Sprintf("%d in a row of %d", m.Failures, m.FailureThreshold), Value: float64(m.Failures), Max: float64(m.FailureThreshold)})
	case breaker.HalfOpen:
		out = append(out, Field{
			Label: "probes",
			Text:  fmt.Sprintf("%d of %d let through, %d in flight, %d succeeded", m.Probes, m.HalfOpenProbes, inFlight, m.Successes),
			Value: float64(m.Probes), Max: float64(m.HalfOpenProbes),
		})
	}
	return append(out, Field{Label: "now", Text: "t = " + u(m.Latest) + " ns"})
}

func modelBreaker(setup report.Call) (Model, error) {
	cfg, now, err := breakerSetup(setup)
	if err != nil {
		return nil, err
	}
	return NewBreakerModel(cfg, now), nil
}
