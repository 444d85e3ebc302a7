package check

import (
	"fmt"

	"ratelab/grader/wire"
)

// The exercises whose constructor also returns an error (gateway, throttle,
// breaker) share how it is called across the process boundary, how the
// reference is adapted, and how a replay begins with it.

// ErrText writes an error result as the report shows it: "nil", or the
// error's text (cut to 200 bytes).
func ErrText(err error) string {
	if err == nil {
		return "nil"
	}
	msg := err.Error()
	if len(msg) > 200 {
		msg = msg[:200] + "…"
	}
	return fmt.Sprintf("error %q", msg)
}

// ErrString writes an error result: "nil", "an error" when one was
// wanted, or the error's text when none was.
func ErrString(err error, wantErr bool) (got, want string) {
	want = "nil"
	if wantErr {
		want = "an error"
	}
	switch {
	case err == nil:
		return "nil", want
	case wantErr:
		return want, want
	}
	return ErrText(err), want
}

// BeginNew is Begin for New(cfg, nowNs) of the setup s, a constructor
// that also returns an error, which the contract wants nil: the setup is
// written New(<cfg>, nowNs=<start>), cfg by config. It records New's
// panic, or, if New returned an error or a nil implementation (written
// nilName, e.g. "a nil *Gateway"), the setup's step with that answer, and
// reports false.
func BeginNew[C, T any](s ConfigAt[C], config func(C) string, nilName string, newImpl func(C, uint64) (T, error)) (t Trace, impl T, ok bool) {
	type made struct {
		impl T
		err  error
	}
	setup := fmt.Sprintf("New(%s, nowNs=%s)", config(s.Cfg), U(s.Start))
	t, mk, ok := Begin(setup, func() made {
		impl, err := newImpl(s.Cfg, s.Start)
		return made{impl, err}
	})
	if !ok {
		return t, mk.impl, false
	}
	if mk.err != nil || any(mk.impl) == nil {
		got := ErrText(mk.err)
		if mk.err == nil {
			got = nilName
		}
		t.Step(setup, got, "nil", nil)
		return t, mk.impl, false
	}
	return t, mk.impl, true
}

// NewRemote calls the package function fn of r, a constructor that
// returns an object and an error, with args; the object it made comes
// back through wrap, or, if it made none, as the zero T (a nil interface).
func NewRemote[T any](r Remote, fn string, wrap func(Object) T, args ...any) (T, error) {
	var o wire.Obj
	var err error
	r.Call(0, fn, args, &o, &err)
	if o == 0 {
		var none T
		return none, err
	}
	return wrap(Object{r, o}), err
}

// BenchNew is the implementation a benchmark loop made, or the loop's
// panic if the constructor refused the benchmark's config.
func BenchNew[T any](impl T, err error) T {
	if err != nil {
		panic("New refused the benchmark's config: " + err.Error())
	}
	return impl
}
