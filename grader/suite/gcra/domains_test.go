package gcra

import (
	"math/rand"
	"testing"
)

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
