package gateway

import (
	"encoding/binary"
	"math"
	"testing"
)

func decode(b []byte) []float64 {
	out := make([]float64, len(b)/8)
	for i := range out {
		out[i] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:]))
	}
	return out
}

// Encoding batches from a cursor hands over every event exactly once, in
// order, never more than MaxEvents of a side at a time, with the counts.
func TestEncodeBatches(t *testing.T) {
	r, err := New(DefaultScenario(), Reference)
	if err != nil {
		t.Fatal(err)
	}
	var sent [2]int
	var got [2][]Event
	var buf []byte
	for _, until := range []uint64{0, 16_700_000, 3e9, 12e9, 13e9} {
		r.Step(until)
		for {
			buf = r.Encode(buf[:0], &sent)
			if len(buf) > EncodedLen {
				t.Fatalf("%d bytes, more than EncodedLen %d", len(buf), EncodedLen)
			}
			f := decode(buf)
			if f[HeaderNow] != float64(r.Now()) || f[HeaderDuration] != 12e9 || (f[HeaderDone] == 1) != r.Done() {
				t.Fatalf("header %v", f[:Header])
			}
			o := Header + 2*SideFields
			for i, sd := range r.Sides() {
				s := f[Header+i*SideFields:]
				if s[SideStopped] != 0 {
					t.Errorf("%s stopped", sd.Name)
				}
				for k := range NumKinds {
					for oc := range NumOutcomes {
						if s[SideCounts+int(k)*int(NumOutcomes)+int(oc)] != float64(sd.Counts[k][oc]) {
							t.Fatalf("%s: counts differ", sd.Name)
						}
					}
				}
				n := int(f[HeaderEvents+i])
				if n > MaxEvents {
					t.Fatalf("%d events in a batch", n)
				}
				for j := range n {
					e := f[o+j*EventFields:]
					budget := [...]string{"", "orders", "cancels"}[int(e[EvBudget])]
					got[i] = append(got[i], Event{AtNs: uint64(e[EvAt]), Kind: Kind(e[EvKind]), Mark: Mark(e[EvMark]), FloodNs: uint64(e[EvFlood]),
						Verdict: Verdict{Outcome: Outcome(e[EvOutcome]), Budget: budget, RetryAfterNs: uint64(e[EvRetry])}})
				}
				o += n * EventFields
			}
			if len(f) != o {
				t.Fatalf("%d values, want %d", len(f), o)
			}
			if f[HeaderPending] == 0 {
				break
			}
		}
	}
	for i, sd := range r.Sides() {
		if len(got[i]) != len(sd.Events) {
			t.Fatalf("%s: %d events decoded, %d in the run", sd.Name, len(got[i]), len(sd.Events))
		}
		for j, e := range sd.Events {
			if got[i][j] != e {
				t.Fatalf("%s event %d: decoded %+v, want %+v", sd.Name, j, got[i][j], e)
			}
		}
		if sd.ReloadError() != "" {
			t.Errorf("%s: reload error %q", sd.Name, sd.ReloadError())
		}
	}
	t.Logf("%d and %d events", len(got[0]), len(got[1]))
}
