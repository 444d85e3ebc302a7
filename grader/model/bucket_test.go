package model

import (
	"math"
	"testing"
)

func TestBucketFollowsTheContract(t *testing.T) {
	b := NewBucket(2, 1000, 0) // a token every 1 ms
	steps := []struct {
		now, n uint64
		want   bool
	}{
		{0, 2, true},          // starts full
		{500_000, 1, false},   // half a token
		{999_999, 1, false},   // one unit short
		{1_000_000, 1, true},  // the half kept: exactly one token
		{500_000, 0, true},    // n = 0 always succeeds; an earlier time adds nothing
		{1_000_000, 1, false}, // and rewinds nothing
		{math.MaxUint64, 3, false},
		{math.MaxUint64, 2, true}, // capped at capacity after any idle
	}
	for _, s := range steps {
		if got := b.TryAcquire(s.now, s.n); got != s.want {
			t.Errorf("TryAcquire(%d, %d) = %v, want %v", s.now, s.n, got, s.want)
		}
	}
	huge := NewBucket(math.MaxUint64, math.MaxUint64, 0)
	if got := huge.Available(math.MaxUint64); got != math.MaxUint64 {
		t.Errorf("Available on a MaxUint64 bucket = %d, want MaxUint64", got)
	}
}

func TestBucketWaits(t *testing.T) {
	b := NewBucket(3, 3, 0) // a token every 333_333_333.3 ns
	b.TryAcquire(0, 3)
	if got := b.NsToNextToken(); got != 333_333_334 {
		t.Errorf("NsToNextToken() = %d, want 333_333_334", got)
	}
	if got := b.UntilToken(); got != 333_333_334 {
		t.Errorf("UntilToken() = %d, want 333_333_334", got)
	}
	if got := b.RoomNs(); got != 1_000_000_000 {
		t.Errorf("RoomNs() = %d, want 1_000_000_000", got)
	}
	b.Available(333_333_334)
	if got := b.UntilToken(); got != 0 {
		t.Errorf("UntilToken() with a token held = %d, want 0", got)
	}
	if got := NewBucket(1, 0, 0).RoomNs(); got != math.MaxUint64 {
		t.Errorf("RoomNs() at rate 0 = %d, want MaxUint64", got)
	}
}
