package class_test

import (
	"context"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"ratelab/internal/class"
)

func TestSignInBudgets(t *testing.T) {
	t0 := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	s := class.NewSignIn(class.SignInConfig{AccountBurst: 2, AccountEvery: 20 * time.Second, AddressBurst: 4, AddressEvery: 10 * time.Second}, t0)
	steps := []struct {
		at               time.Duration
		account, address string
		ok               bool
		budget           class.Budget
		retry            time.Duration
	}{
		{0, "prof", "10.0.0.1", true, "", 0},
		{0, " PROF ", "10.0.0.2", true, "", 0}, // the same account, another address
		{0, "prof", "10.0.0.3", false, class.AccountBudget, 20 * time.Second},
		{0, "nobody", "10.0.0.3", true, "", 0}, // a name that does not exist has its budget too
		{0, "nobody", "10.0.0.3", true, "", 0},
		{0, "", "10.0.0.3", true, "", 0}, // a learner's token: the address's budget only
		{0, "", "10.0.0.3", false, class.AddressBudget, 10 * time.Second},
		{0, "other", "10.0.0.3", false, class.AddressBudget, 10 * time.Second},
		{20 * time.Second, "prof", "10.0.0.3", true, "", 0},
	}
	for i, st := range steps {
		ok, retry, budget := s.Allow(st.account, st.address, t0.Add(st.at))
		if ok != st.ok || budget != st.budget || (!ok && (retry < st.retry-time.Millisecond || retry > st.retry+time.Millisecond)) {
			t.Errorf("step %d: Allow(%q, %q, t0+%s) = %v, %s, %q; want %v, %s, %q", i, st.account, st.address, st.at, ok, retry, budget, st.ok, st.retry, st.budget)
		}
	}
}

func TestSignInForgetsFullBuckets(t *testing.T) {
	t0 := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	th := class.NewKeyedThrottle[string](1, time.Second, t0)
	for i := range 5000 {
		th.Allow(strconv.Itoa(i), t0)
	}
	// A second later every bucket is full again: the next Allow sweeps them.
	th.Allow("late", t0.Add(time.Second))
	if n := th.Len(); n > 1 {
		t.Errorf("after 5000 names and a second: the throttle remembers %d keys; want 1", n)
	}
}

func TestSignInBoundsChecks(t *testing.T) {
	s := class.NewSignIn(class.SignInConfig{MaxChecks: 2}, time.Time{})
	var running, most atomic.Int32
	release := make(chan struct{})
	var wg sync.WaitGroup
	for range 5 {
		wg.Go(func() {
			s.Check(context.Background(), func() {
				n := running.Add(1)
				for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
				}
				<-release
				running.Add(-1)
			})
		})
	}
	deadline := time.Now().Add(10 * time.Second)
	for running.Load() < 2 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	// A check that cannot get a slot gives up with its context.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	ran := false
	if err := s.Check(ctx, func() { ran = true }); err == nil || ran {
		t.Errorf("Check with every slot taken and its context ended = %v, ran %v; want the context's error, not run", err, ran)
	}
	close(release)
	wg.Wait()
	if m := most.Load(); m != 2 {
		t.Errorf("at most %d checks ran at once; want 2", m)
	}
}
