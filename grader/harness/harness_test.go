package harness

import (
	"encoding/json"
	"strings"
	"testing"

	"ratelab/grader/check"
	"ratelab/grader/wire"
)

type counter struct{ n uint64 }

func (c *counter) Add(k uint64) uint64 { c.n += k; return c.n }
func (c *counter) Secret() string      { return "not in the API" }

type adder interface{ Add(k uint64) uint64 }

var api = API{
	Funcs: map[string]any{
		"New":   func(start uint64) adder { return &counter{n: start} },
		"Boom":  func(n int) int { panic(strings.Repeat("x", n)) },
		"Split": func(x uint64) (uint64, bool) { return x / 2, x%2 == 1 },
	},
	Bench: map[string]func(uint64) func(int) uint64{
		"count": func(seed uint64) func(int) uint64 {
			return func(n int) uint64 { return seed + uint64(n)*3 }
		},
	},
}

func TestLocalCallsFunctionsAndMethods(t *testing.T) {
	r := Local(api)
	var o wire.Obj
	r.Call(0, "New", []any{uint64(40)}, &o)
	var got uint64
	r.Call(o, "Add", []any{uint64(2)}, &got)
	if got != 42 {
		t.Errorf("Add(2) on a counter at 40 = %d, want 42", got)
	}
	var half uint64
	var odd bool
	r.Call(0, "Split", []any{uint64(7)}, &half, &odd)
	if half != 3 || !odd {
		t.Errorf("Split(7) = %d, %v; want 3, true", half, odd)
	}
	if run := r.Bench(check.BenchSpec{Loop: "count", Seed: 100, Warm: 7, N: 5}); run.Digest != 115 || run.Panic != nil {
		t.Errorf("Bench(count, seed 100, 5) = %+v, want digest 115", run)
	}
}

func TestPanicsComeBackCutShort(t *testing.T) {
	var got int
	_, p := check.Call(func() int { Local(api).Call(0, "Boom", []any{10 << 20}, &got); return got })
	if p == nil {
		t.Fatal("no panic")
	}
	msg := p.Error()
	if len(msg) > wire.MaxPanic+100 || !strings.Contains(msg, "bytes in all") {
		t.Errorf("panic message of %d bytes (%.60q…), want it cut to about %d", len(msg), msg, wire.MaxPanic)
	}
}

func TestOnlyTheInterfacesMethodsAreCallable(t *testing.T) {
	s := newServer(api)
	resp := s.serve(wire.Request{Fn: "New", Args: []json.RawMessage{json.RawMessage(`"1"`)}})
	var o wire.Obj
	if err := wire.Results(resp.Ret, []any{&o}); err != nil || o == 0 {
		t.Fatalf("New: %+v, %v", resp, err)
	}
	if resp := s.serve(wire.Request{Obj: o, Fn: "Secret"}); resp.Err == "" {
		t.Errorf("Secret, not a method of the API's interface, answered %+v; want an error", resp)
	}
}

func TestBadRequestsAreErrorsNotPanics(t *testing.T) {
	s := newServer(api)
	for _, req := range []wire.Request{
		{Fn: "Missing"},
		{Fn: "New"}, // no argument
		{Fn: "New", Args: []json.RawMessage{json.RawMessage(`7`)}}, // a number not written as a string
		{Obj: 99, Fn: "Add"}, // no such object
		{Prepare: "none", Seed: "1", N: "0"},
		{Prepare: "count", Seed: "x", N: "0"},
		{Prepare: "count", Seed: "1", N: "-1"},
		{Bench: "count", N: "1"}, // not prepared
	} {
		if resp := s.serve(req); resp.Err == "" {
			t.Errorf("serve(%+v) = %+v, want an error", req, resp)
		}
	}
}
