package harness

import (
	"encoding/json"
	"fmt"
	"time"

	"ratelab/grader/check"
	"ratelab/grader/wire"
)

// Local serves api in this process, through the same encoding as the
// child: for the suites' own tests, which grade trusted code (the
// reference, a fixture) without building a child. Never use it for code
// that is not trusted.
func Local(api API) check.Remote {
	return &local{s: newServer(api)}
}

type local struct{ s *server }

func (l *local) Call(obj wire.Obj, fn string, args []any, out ...any) {
	raw, err := wire.Args(args)
	if err != nil {
		panic(fmt.Sprintf("harness.Local: %s: %v", fn, err))
	}
	resp := l.roundTrip(wire.Request{Obj: obj, Fn: fn, Args: raw})
	if resp.Panic != nil {
		panic(*resp.Panic)
	}
	if resp.Err != "" {
		panic("harness.Local: " + resp.Err)
	}
	if err := wire.Results(resp.Ret, out); err != nil {
		panic(fmt.Sprintf("harness.Local: %s: %v", fn, err))
	}
}

// roundTrip passes req and its answer through JSON, as the pipe would.
func (l *local) roundTrip(req wire.Request) wire.Response {
	b, _ := json.Marshal(req)
	var back wire.Request
	json.Unmarshal(b, &back)
	b, _ = json.Marshal(l.s.serve(back))
	var resp wire.Response
	json.Unmarshal(b, &resp)
	return resp
}

func (l *local) Bench(spec check.BenchSpec) check.BenchRun {
	resp := l.roundTrip(wire.Request{Prepare: spec.Loop, Seed: fmt.Sprint(spec.Seed), N: fmt.Sprint(spec.Warm)})
	if resp.Panic != nil {
		return check.BenchRun{Panic: &check.Panic{Value: *resp.Panic}}
	}
	if resp.Err != "" {
		panic("harness.Local: " + resp.Err)
	}
	start := time.Now()
	resp = l.roundTrip(wire.Request{Bench: spec.Loop, N: fmt.Sprint(spec.N)})
	d := time.Since(start)
	if resp.Panic != nil {
		return check.BenchRun{Panic: &check.Panic{Value: *resp.Panic}}
	}
	if resp.Err != "" {
		panic("harness.Local: " + resp.Err)
	}
	var digest, allocs uint64
	fmt.Sscan(resp.Digest, &digest)
	fmt.Sscan(resp.Allocs, &allocs)
	return check.BenchRun{Digest: digest, Allocs: allocs, Time: d, Clock: "wall time in the grader's own process"}
}
