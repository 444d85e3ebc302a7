package gcra

import (
	"math/rand"
	"ratelab/grader/check"
	"testing"
)

var domains = map[string]domain{
	"exactness":     exactDomain,
	"rounding":      roundingDomain,
	"backward-time": backwardDomain,
	"overflow":      overflowDomain,
}

// TestDomainsGenerateValidScripts checks that every domain's generator keeps
// to its own rules, so gopter never discards a generated script, and that
// scripts are long enough to reach the traps.
func TestDomainsGenerateValidScripts(t *testing.T) {
	for name, d := range domains {
		t.Run(name, func(t *testing.T) {
			r := rand.New(rand.NewSource(1))
			ops := 0
			for range 300 {
				s := d.gen(r, 100)
				if n := d.valid(s); n != len(s.Ops) {
					t.Fatalf("generated script leaves the domain at call %d: %+v", n, s)
				}
				ops += len(s.Ops)
			}
			if avg := float64(ops) / 300; avg < float64(d.maxOps)/3 {
				t.Errorf("scripts average %.1f calls, want at least %d", avg, d.maxOps/3)
			}
		})
	}
}

// TestModelAgreesWithReference replays generated scripts of every domain on
// the reference solution: the model and the reference must never differ.
func TestModelAgreesWithReference(t *testing.T) {
	for name, d := range domains {
		t.Run(name, func(t *testing.T) {
			r := rand.New(rand.NewSource(2))
			for range 2000 {
				s := d.gen(r, 100)
				if tr := replay(refNew, s); tr.Bad {
					t.Fatalf("reference and model differ:\n%s\n%v", tr.Setup, tr.Steps)
				}
			}
		})
	}
}

func TestWrapWaitWrapsToSmall(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	for _, rate := range []uint64{1, 2, 5, 512, 1000, 1_000_000, 1_000_000_000} {
		for range 50 {
			w := wrapWait(r, rate)
			if p := w * rate; p > 1000*rate {
				t.Errorf("wrapWait(%d) = %d: product wraps to %d, want at most %d", rate, w, p, 1000*rate)
			}
		}
	}
}

func TestNewArgumentsPassOnReference(t *testing.T) {
	if o := newArguments(refNew); o.Status != "passed" {
		t.Errorf("new-arguments on the reference: %s %s", o.Status, o.Message)
	}
}

func TestEveryPropertyHasADomain(t *testing.T) {
	if m := check.MissingDomains(Suite(nil), domains); len(m) > 0 {
		t.Errorf("property checks without a generator in domains: %v", m)
	}
}
