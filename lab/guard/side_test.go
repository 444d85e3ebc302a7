package guard_test

import (
	"testing"

	"ratelab/lab/guard"
)

func TestSide(t *testing.T) {
	s := guard.Side{Name: "Yours"}
	ran := false
	s.Guard(func() { ran = true })
	if !ran || s.Stopped || s.ImplStatus() != "Yours" {
		t.Fatalf("after a call that returns: ran %v, Stopped %v, ImplStatus() = %q; want true, false, Yours", ran, s.Stopped, s.ImplStatus())
	}
	s.Guard(func() { panic("hierarchy: Add is not implemented yet") })
	if !s.Stopped || s.Status != guard.NotImplemented || s.ImplStatus() != "Yours: "+guard.NotImplemented {
		t.Errorf("after a stub's panic: Stopped %v, ImplStatus() = %q; want true, Yours: %s", s.Stopped, s.ImplStatus(), guard.NotImplemented)
	}
	s.Stop("New failed: no budget")
	if got := s.ImplStatus(); got != "Yours: New failed: no budget" {
		t.Errorf("after Stop: ImplStatus() = %q, want Yours: New failed: no budget", got)
	}
	var other guard.Side
	other.Guard(func() { var m map[string]int; m["x"]++ })
	if want := "panicked: assignment to entry in nil map"; !other.Stopped || other.Status != want {
		t.Errorf("after a runtime panic: Status = %q, want %q", other.Status, want)
	}
}
