package check

import (
	"fmt"
	"slices"
	"testing"
)

// TestReplayStopsAtTheFirstFailingCall replays four calls whose third
// answers wrong: the trace holds three steps at the calls' times, is bad,
// and the fourth call is never made.
func TestReplayStopsAtTheFirstFailingCall(t *testing.T) {
	ops := []When{{Wait: 5}, {Back: 3}, {Wait: 10}, {Wait: 1}}
	var made []uint64
	var tr Trace
	Replay(&tr, 100, ops, func(o When, now uint64) (string, string, string, *Panic) {
		made = append(made, now)
		got := "ok"
		if len(made) == 3 {
			got = "wrong"
		}
		return fmt.Sprintf("Call(nowNs=%d)", now), got, "ok", nil
	})
	if want := []uint64{105, 102, 115}; !slices.Equal(made, want) {
		t.Fatalf("calls made at %v, want %v", made, want)
	}
	if len(tr.Steps) != 3 || !tr.Bad || tr.Steps[2].Got != "wrong" || tr.Steps[1].Call != "Call(nowNs=102)" {
		t.Fatalf("trace %+v: want three steps, the last one bad", tr)
	}
}

// TestReplayRecordsAPanicAndStops: a panicking call ends the replay with
// the panic recorded, and a script that passes records every call.
func TestReplayRecordsAPanicAndStops(t *testing.T) {
	var tr Trace
	Replay(&tr, 0, []When{{}, {}}, func(o When, now uint64) (string, string, string, *Panic) {
		return "Call()", "", "", &Panic{Value: "boom"}
	})
	if len(tr.Steps) != 1 || !tr.Bad || tr.Panic == nil || tr.Steps[0].Got != "panic: boom" {
		t.Fatalf("trace %+v: want one panicking step", tr)
	}
	var good Trace
	Replay(&good, 0, []When{{}, {Wait: 1}}, func(o When, now uint64) (string, string, string, *Panic) {
		return "Call()", "ok", "ok", nil
	})
	if len(good.Steps) != 2 || good.Bad {
		t.Fatalf("trace %+v: want two good steps", good)
	}
}
