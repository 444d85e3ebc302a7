package quota_test

import (
	"context"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"ratelab/internal/quota"
)

func TestSignInBudgets(t *testing.T) {
	t0 := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	s := quota.NewSignIn(quota.SignInConfig{
		PairBurst: 2, PairEvery: 20 * time.Second,
		AccountBurst: 3, AccountEvery: time.Minute,
		DeviceBurst: 2, DeviceEvery: 30 * time.Second,
		AddressBurst: 5, AddressEvery: 10 * time.Second,
	}, t0)
	steps := []struct {
		at                       time.Duration
		account, address, device string
		token                    bool // a learner's token that matched nobody
		ok                       bool
		budget                   quota.Budget
		retry                    time.Duration
	}{
		{at: 0, account: "prof", address: "10.0.0.1", ok: true},
		{at: 0, account: " PROF ", address: "10.0.0.1", ok: true}, // the same name, any case
		{at: 0, account: "prof", address: "10.0.0.1", budget: quota.AccountBudget, retry: 20 * time.Second},
		{at: 0, account: "prof", address: "10.0.0.2", ok: true},                                        // another address: its own pair, the name's third
		{at: 0, account: "prof", address: "10.0.0.4", budget: quota.AccountBudget, retry: time.Minute}, // the name's, from all addresses
		// The trusted device signs in while the name's budgets are spent.
		{at: 0, account: "prof", address: "10.0.0.4", device: "dev1", ok: true},
		{at: 0, account: "prof", address: "10.0.0.4", device: "dev1", ok: true},
		{at: 0, account: "prof", address: "10.0.0.4", device: "dev1", budget: quota.DeviceBudget, retry: 30 * time.Second},
		{at: 0, account: "prof", address: "10.0.0.4", device: "dev2", ok: true}, // another trusted browser
		{at: 0, account: "nobody", address: "10.0.0.3", ok: true},               // a name that does not exist has its budgets too
		{at: 0, address: "10.0.0.3", token: true, ok: true},                     // tokens that match nobody: the address's budget
		{at: 0, address: "10.0.0.3", token: true, ok: true},
		{at: 0, address: "10.0.0.3", token: true, ok: true},
		{at: 0, address: "10.0.0.3", token: true, ok: true},
		{at: 0, address: "10.0.0.3", token: true, budget: quota.AddressBudget, retry: 10 * time.Second},
		{at: 0, account: "other", address: "10.0.0.3", budget: quota.AddressBudget, retry: 10 * time.Second},
		{at: 0, account: "other", address: "10.0.0.3", device: "dev3", ok: true},                                           // a trusted device does not spend the address's
		{at: 20 * time.Second, account: "prof", address: "10.0.0.1", budget: quota.AccountBudget, retry: 40 * time.Second}, // the pair has a token again, the name not yet
	}
	for i, st := range steps {
		now := t0.Add(st.at)
		var (
			ok     bool
			retry  time.Duration
			budget quota.Budget
		)
		if st.token {
			if ok, retry = s.TokenFailed(st.address, now); !ok {
				budget = quota.AddressBudget
			}
		} else {
			ok, retry, budget = s.AllowPassword(st.account, st.address, st.device, now)
		}
		if ok != st.ok || budget != st.budget || (!ok && st.retry > 0 && (retry < st.retry-time.Millisecond || retry > st.retry+time.Millisecond)) {
			t.Errorf("step %d: (%q, %q, device %q, token %v, t0+%s) = %v, %s, %q; want %v, %s, %q", i, st.account, st.address, st.device, st.token, st.at, ok, retry, budget, st.ok, st.retry, st.budget)
		}
	}
}

func TestSignInForgetsFullBuckets(t *testing.T) {
	t0 := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	th := quota.NewKeyed[string](1, time.Second, t0)
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
	s := quota.NewSignIn(quota.SignInConfig{MaxChecks: 2}, time.Time{})
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
