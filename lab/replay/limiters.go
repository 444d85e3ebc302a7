package replay

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"

	"ratelab/grader/model"
	"ratelab/grader/report"
	"ratelab/lab/guard"
)

// The week 1 and 2 exercises: the token bucket, GCRA and the sliding window.
func init() {
	register(Exercise{ID: "tokenbucket", Build: buildBucket, Model: modelBucket})
	register(Exercise{ID: "gcra", Build: buildGCRA, Model: modelGCRA})
	register(Exercise{ID: "slidingwindow", Build: buildWindow, Model: modelWindow})
}

// errMissing is a nil constructor's reason.
func errMissing(why string) error { return errors.New(guard.Missing(why)) }

// --- token bucket ---

type bucketArgs struct{ capacity, rate, now uint64 }

func bucketSetup(c report.Call) (a bucketArgs, err error) {
	if err = want(c, "New"); err != nil {
		return a, err
	}
	if a.capacity, err = argU64(c, "capacity"); err != nil {
		return a, err
	}
	if a.rate, err = argU64(c, "ratePerSec"); err != nil {
		return a, err
	}
	a.now, err = argU64(c, "nowNs")
	return a, err
}

// bucketAPI is the token bucket exercise's API.
type bucketAPI interface {
	TryAcquire(nowNs, n uint64) bool
	Available(nowNs uint64) uint64
}

type bucketCalls struct{ b bucketAPI }

func (x bucketCalls) Do(c report.Call) (string, error) {
	return doBucket(x.b, c)
}

func doBucket(b bucketAPI, c report.Call) (string, error) {
	now, err := argU64(c, "nowNs")
	if err != nil {
		return "", err
	}
	switch c.Name {
	case "TryAcquire":
		n, err := argU64(c, "n")
		if err != nil {
			return "", err
		}
		return bool2(b.TryAcquire(now, n)), nil
	case "Available":
		return goU(b.Available(now)), nil
	}
	return "", want(c, "TryAcquire", "Available")
}

func buildBucket(impls Impls, setup report.Call) (Instance, error) {
	a, err := bucketSetup(setup)
	if err != nil {
		return nil, err
	}
	if impls.Limiters.NewBucket == nil {
		return nil, errMissing(impls.Limiters.Missing)
	}
	return bucketCalls{impls.Limiters.NewBucket(a.capacity, a.rate, a.now)}, nil
}

// unitsPerToken is the contract's fixed point: 1 token = 10^9 units.
var unitsPerToken = big.NewInt(1_000_000_000)

// BucketModel is the token bucket's contract, the grader's own model of it
// (grader/model.Bucket), with what the replay shows of its state.
type BucketModel struct {
	*model.Bucket
	capacity uint64
}

// NewBucketModel is New(capacity, ratePerSec, nowNs): full.
func NewBucketModel(capacity, ratePerSec, nowNs uint64) *BucketModel {
	return &BucketModel{model.NewBucket(capacity, ratePerSec, nowNs), capacity}
}

func (m *BucketModel) Do(c report.Call) (string, error) { return doBucket(m, c) }

// State is the units held against the capacity, and the latest time seen.
func (m *BucketModel) State() []Field {
	units := m.Units()
	return []Field{
		{
			Label: "held",
			Text:  tokensText(units) + " of " + u(m.capacity) + " tokens (" + bigText(units) + unitWord(units) + ")",
			Value: ratio(units, m.CapUnits()), Max: 1,
		},
		{Label: "latest", Text: "t = " + u(m.Latest()) + " ns"},
	}
}

// unitWord is " unit" or " units" after n.
func unitWord(n *big.Int) string {
	if n.IsInt64() && n.Int64() == 1 {
		return " unit"
	}
	return " units"
}

// tokensText is units as tokens, every digit of the fraction kept
// (model.Tokens), the whole part grouped: "1,200.5".
func tokensText(units *big.Int) string {
	whole, frac, ok := strings.Cut(model.Tokens(units), ".")
	if !ok {
		return group(whole)
	}
	return group(whole) + "." + frac
}

func modelBucket(setup report.Call) (Model, error) {
	a, err := bucketSetup(setup)
	if err != nil {
		return nil, err
	}
	return NewBucketModel(a.capacity, a.rate, a.now), nil
}

// --- GCRA ---

type gcraArgs struct{ rate, burst, now uint64 }

func gcraSetup(c report.Call) (a gcraArgs, err error) {
	if err = want(c, "New"); err != nil {
		return a, err
	}
	if a.rate, err = argU64(c, "ratePerSec"); err != nil {
		return a, err
	}
	if a.burst, err = argU64(c, "burst"); err != nil {
		return a, err
	}
	a.now, err = argU64(c, "nowNs")
	return a, err
}

type gcraAPI interface{ TryAcquire(nowNs uint64) bool }

func doGCRA(g gcraAPI, c report.Call) (string, error) {
	if err := want(c, "TryAcquire"); err != nil {
		return "", err
	}
	now, err := argU64(c, "nowNs")
	if err != nil {
		return "", err
	}
	return bool2(g.TryAcquire(now)), nil
}

type gcraCalls struct{ g gcraAPI }

func (x gcraCalls) Do(c report.Call) (string, error) { return doGCRA(x.g, c) }

func buildGCRA(impls Impls, setup report.Call) (Instance, error) {
	a, err := gcraSetup(setup)
	if err != nil {
		return nil, err
	}
	if impls.Limiters.NewGCRA == nil {
		return nil, errMissing(impls.Limiters.Missing)
	}
	return gcraCalls{impls.Limiters.NewGCRA(a.rate, a.burst, a.now)}, nil
}

// GCRAModel is GCRA's contract as plain state, in units exact at every
// rate: time is counted in ns·ratePerSec, so that the emission interval T
// is 10^9 units and the lesson's tolerance τ = (b − 1)·T is (burst−1)·10^9.
// TAT is the theoretical arrival time in those units, Latest the latest
// time seen in ns.
type GCRAModel struct {
	Rate, Burst, Latest uint64
	TAT                 *big.Int
}

// NewGCRAModel is New(ratePerSec, burst, nowNs): TAT = now, a full burst.
func NewGCRAModel(ratePerSec, burst, nowNs uint64) *GCRAModel {
	m := &GCRAModel{Rate: ratePerSec, Burst: burst, Latest: nowNs}
	m.TAT = m.scaled(nowNs)
	return m
}

func (m *GCRAModel) scaled(ns uint64) *big.Int {
	return new(big.Int).Mul(new(big.Int).SetUint64(ns), new(big.Int).SetUint64(m.Rate))
}

// tolerance is τ = (b − 1)·T in units: negative for burst 0, when nothing
// conforms.
func (m *GCRAModel) tolerance() *big.Int {
	t := new(big.Int).Mul(new(big.Int).SetUint64(m.Burst), unitsPerToken)
	return t.Sub(t, unitsPerToken)
}

// TryAcquire grants iff TAT - now <= τ, then moves TAT to
// max(TAT, now) + T. A time before the latest counts as the latest.
func (m *GCRAModel) TryAcquire(now uint64) bool {
	m.Latest = max(m.Latest, now)
	n := m.scaled(m.Latest)
	ahead := new(big.Int).Sub(m.TAT, n)
	if ahead.Cmp(m.tolerance()) > 0 {
		return false
	}
	if m.TAT.Cmp(n) < 0 {
		m.TAT.Set(n)
	}
	m.TAT.Add(m.TAT, unitsPerToken)
	return true
}

func (m *GCRAModel) Do(c report.Call) (string, error) { return doGCRA(m, c) }

// State is TAT against now and τ, in ns: a call at now conforms while
// TAT − now ≤ τ. After a grant TAT − now may pass τ by up to T, and the bar
// is then full, since a call at the same time is refused.
func (m *GCRAModel) State() []Field {
	n := m.scaled(m.Latest)
	ahead := new(big.Int).Sub(m.TAT, n)
	if ahead.Sign() < 0 {
		ahead.SetInt64(0)
	}
	tolerance := m.tolerance()
	full := ratio(ahead, tolerance)
	if tolerance.Sign() <= 0 {
		// Burst 1 (τ = 0): any lead refuses. Burst 0: nothing conforms.
		tolerance.SetInt64(0)
		if ahead.Sign() > 0 || m.Burst == 0 {
			full = 1
		}
	}
	return []Field{
		{
			Label: "TAT − now",
			Text:  nsText(ahead, m.Rate) + " of τ = (b − 1)·T = " + nsText(tolerance, m.Rate) + " (T = " + nsText(unitsPerToken, m.Rate) + ")",
			Value: full, Max: 1,
		},
		{Label: "TAT", Text: nsText(m.TAT, m.Rate)},
		{Label: "now", Text: "t = " + u(m.Latest) + " ns"},
	}
}

// nsText is a time in units (ns·rate) as nanoseconds, exact to 3 decimals.
func nsText(units *big.Int, rate uint64) string {
	if rate == 0 {
		return "∞"
	}
	r := new(big.Rat).SetFrac(units, new(big.Int).SetUint64(rate))
	s := r.FloatString(3)
	whole, frac, _ := cut(s, '.')
	for len(frac) > 0 && frac[len(frac)-1] == '0' {
		frac = frac[:len(frac)-1]
	}
	if frac != "" {
		frac = "." + frac
	}
	w, _ := new(big.Int).SetString(whole, 10)
	return bigText(w) + frac + " ns"
}

func cut(s string, sep byte) (string, string, bool) {
	for i := 0; i < len(s); i++ {
		if s[i] == sep {
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}

func modelGCRA(setup report.Call) (Model, error) {
	a, err := gcraSetup(setup)
	if err != nil {
		return nil, err
	}
	if a.rate < 1 || a.rate > 1_000_000_000 || a.burst < 1 || a.burst > 1_000_000 {
		return nil, fmt.Errorf("New(ratePerSec=%d, burst=%d): out of the contract's range, nothing to replay", a.rate, a.burst)
	}
	return NewGCRAModel(a.rate, a.burst, a.now), nil
}

// --- sliding window ---

type windowArgs struct {
	limit    uint32
	windowNs uint64
	buckets  int
}

func windowSetup(c report.Call) (a windowArgs, err error) {
	if err = want(c, "New"); err != nil {
		return a, err
	}
	l, err := argU64(c, "limit")
	if err != nil {
		return a, err
	}
	if l > math.MaxUint32 {
		return a, fmt.Errorf("New: limit %d is not a uint32", l)
	}
	a.limit = uint32(l)
	if a.windowNs, err = argU64(c, "windowNs"); err != nil {
		return a, err
	}
	b, err := argU64(c, "buckets")
	if err != nil {
		return a, err
	}
	if b < 1 || b > 1<<20 || a.windowNs < b {
		return a, fmt.Errorf("New(windowNs=%d, buckets=%d): not a window this replay can draw", a.windowNs, b)
	}
	a.buckets = int(b)
	return a, nil
}

type windowAPI interface {
	Count(nowNs uint64) uint32
	TryAcquire(nowNs uint64) bool
}

func doWindow(w windowAPI, c report.Call) (string, error) {
	now, err := argU64(c, "nowNs")
	if err != nil {
		return "", err
	}
	switch c.Name {
	case "TryAcquire":
		return bool2(w.TryAcquire(now)), nil
	case "Count":
		return strconv.FormatUint(uint64(w.Count(now)), 10), nil
	}
	return "", want(c, "TryAcquire", "Count")
}

type windowCalls struct{ w windowAPI }

func (x windowCalls) Do(c report.Call) (string, error) { return doWindow(x.w, c) }

func buildWindow(impls Impls, setup report.Call) (Instance, error) {
	a, err := windowSetup(setup)
	if err != nil {
		return nil, err
	}
	if impls.Limiters.NewWindow == nil {
		return nil, errMissing(impls.Limiters.Missing)
	}
	return windowCalls{impls.Limiters.NewWindow(a.limit, a.windowNs, a.buckets)}, nil
}

// WindowModel is the sliding window's contract as plain state (the
// grader's model.Window): the counts of accepted messages by bucket id,
// the current bucket (never rewinding) and the K buckets the count covers.
type WindowModel struct{ *model.Window }

// NewWindowModel is New(limit, windowNs, buckets).
func NewWindowModel(limit uint32, windowNs uint64, buckets int) *WindowModel {
	return &WindowModel{model.NewWindow(limit, windowNs, buckets)}
}

func (m *WindowModel) Do(c report.Call) (string, error) { return doWindow(m, c) }

// maxBars is the most buckets drawn; a wider window shows its latest ones.
const maxBars = 64

// State is the count of each bucket the window covers (oldest first, the
// current one last) against the limit.
func (m *WindowModel) State() []Field {
	k := min(m.K, maxBars)
	bars := make([]float64, k)
	for id, c := range m.Accepted {
		if back := m.Cur - id; id <= m.Cur && back < k {
			bars[k-1-back] = float64(c)
		}
	}
	label := "buckets"
	if k < m.K {
		label = "latest " + u(k) + " of " + u(m.K) + " buckets"
	}
	sum := m.CountAt(m.Cur)
	return []Field{
		{Label: "count", Text: u(uint64(sum)) + " of limit " + u(uint64(m.Limit)), Value: float64(sum), Max: float64(m.Limit)},
		{Label: label, Text: "current bucket #" + u(m.Cur) + " (" + u(m.BucketNs) + " ns each)", Bars: bars, Max: float64(max(m.Limit, 1))},
	}
}

func modelWindow(setup report.Call) (Model, error) {
	a, err := windowSetup(setup)
	if err != nil {
		return nil, err
	}
	return NewWindowModel(a.limit, a.windowNs, a.buckets), nil
}
