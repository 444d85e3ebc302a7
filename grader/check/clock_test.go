package check

import (
	"errors"
	"math"
	"testing"
)

type clockOp struct{ Tag, Wait, Back uint64 }

func (o *clockOp) Clock() (wait, back *uint64) { return &o.Wait, &o.Back }

func TestMergeWaitsFoldsForwardTimeOnly(t *testing.T) {
	if m, ok := MergeWaits(clockOp{1, 5, 0}, clockOp{2, math.MaxUint64 - 1, 0}); !ok || m != (clockOp{2, math.MaxUint64, 0}) {
		t.Errorf("forward waits: %v %v", m, ok)
	}
	if _, ok := MergeWaits(clockOp{1, 0, 3}, clockOp{2, 4, 0}); ok {
		t.Error("a step back was folded")
	}
}

func TestErrString(t *testing.T) {
	for _, c := range []struct {
		err       error
		wantErr   bool
		got, want string
	}{
		{nil, false, "nil", "nil"},
		{nil, true, "nil", "an error"},
		{errors.New("x"), true, "an error", "an error"},
		{errors.New("x"), false, `error "x"`, "nil"},
	} {
		if got, want := ErrString(c.err, c.wantErr); got != c.got || want != c.want {
			t.Errorf("ErrString(%v, %v) = %q, %q", c.err, c.wantErr, got, want)
		}
	}
}
