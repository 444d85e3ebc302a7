package quota_test

import (
	"testing"
	"time"

	"ratelab/internal/quota"
)

func TestThrottle(t *testing.T) {
	t0 := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	th := quota.New(2, 30*time.Second, t0)
	steps := []struct {
		at    time.Duration
		user  int64
		ok    bool
		retry time.Duration // when refused
	}{
		{0, 1, true, 0},
		{0, 1, true, 0},
		{0, 1, false, 30 * time.Second},
		{0, 2, true, 0}, // another learner has their own budget
		{10 * time.Second, 1, false, 20 * time.Second},
		{29 * time.Second, 1, false, time.Second},
		{30 * time.Second, 1, true, 0}, // waiting exactly long enough for one token gets it
		{31 * time.Second, 1, false, 29 * time.Second},
	}
	for i, s := range steps {
		ok, retry := th.Allow(s.user, t0.Add(s.at))
		if ok != s.ok || (!ok && (retry < s.retry-time.Millisecond || retry > s.retry+time.Millisecond)) {
			t.Errorf("step %d: Allow(user %d, t0+%s) = %v, %s; want %v, %s", i, s.user, s.at, ok, retry, s.ok, s.retry)
		}
	}
}

// TestThrottleAllowN: a budget of units (bytes, say) takes n tokens at a
// time, or none.
func TestThrottleAllowN(t *testing.T) {
	t0 := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	th := quota.New(10, time.Second, t0)
	steps := []struct {
		at    time.Duration
		n     uint64
		ok    bool
		retry time.Duration // when refused
	}{
		{0, 6, true, 0},
		{0, 5, false, time.Second}, // 4 left: one more second makes 5
		{0, 4, true, 0},
		{3 * time.Second, 3, true, 0},
		{3 * time.Second, 11, false, 10 * time.Second}, // more than the burst: never, and the bucket fills in 10 s
	}
	for i, s := range steps {
		ok, retry := th.AllowN(1, s.n, t0.Add(s.at))
		if ok != s.ok || (!ok && (retry < s.retry-time.Millisecond || retry > s.retry+time.Millisecond)) {
			t.Errorf("step %d: AllowN(1, %d, t0+%s) = %v, %s; want %v, %s", i, s.n, s.at, ok, retry, s.ok, s.retry)
		}
	}
}
