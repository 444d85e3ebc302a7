package harness

import (
	"encoding/json"
	"fmt"
	"testing"

	"ratelab/grader/wire"
)

// recordCounter replays a little script on the reference api through Record: a
// counter made at 40, then Add(1) and Add(2) on it.
func recordCounter(base wire.Obj) (calls, answers []json.RawMessage) {
	r := Record(api)
	r.Start(base)
	var o wire.Obj
	r.Call(0, "New", []any{uint64(40)}, &o)
	var got uint64
	r.Call(o, "Add", []any{uint64(1)}, &got)
	r.Call(o, "Add", []any{uint64(2)}, &got)
	return r.Recorded()
}

func TestCallsSentAheadStopAtTheFirstOtherAnswer(t *testing.T) {
	const base = 1 << 32
	calls, answers := recordCounter(base)
	if len(calls) != 3 {
		t.Fatalf("recorded %d calls, want 3", len(calls))
	}
	s := newServer(api)
	resp := s.serve(wire.Request{Ahead: calls, Expect: answers, Base: base})
	if resp.Err != "" || len(resp.Answers) != 3 || fmt.Sprint(resp.Answers) != fmt.Sprint(answers) {
		t.Fatalf("the reference's own calls: %+v, want all 3 the same", resp)
	}
	// Another implementation (a counter that starts at 41) answers New
	// alike, then Add otherwise: it stops there, and says what it answered.
	other := API{Funcs: map[string]any{"New": func(start uint64) adder { return &counter{n: start + 1} }}}
	s = newServer(other)
	resp = s.serve(wire.Request{Ahead: calls, Expect: answers, Base: base})
	if resp.Err != "" || len(resp.Answers) != 2 || string(resp.Answers[0]) != string(answers[0]) || string(resp.Answers[1]) != `{"ret":["42"]}` {
		t.Fatalf("a counter one ahead: %s, want New's answer, then 42", resp.Answers)
	}
	var got uint64
	if r := s.serve(wire.Request{Obj: base, Fn: "Add", Args: []json.RawMessage{json.RawMessage(`"0"`)}}); wire.Results(r.Ret, []any{&got}) != nil || got != 42 {
		t.Errorf("after the calls sent ahead the counter answers %+v, want 42: the third call was made", r)
	}
}

func TestCallsSentAheadNeedAFreshBase(t *testing.T) {
	calls, answers := recordCounter(1)
	s := newServer(api)
	s.serve(wire.Request{Fn: "New", Args: []json.RawMessage{json.RawMessage(`"1"`)}})
	if resp := s.serve(wire.Request{Ahead: calls, Expect: answers, Base: 1}); resp.Err == "" {
		t.Errorf("calls sent ahead numbering objects from a handle given already: %+v, want an error", resp)
	}
	if resp := s.serve(wire.Request{Ahead: calls, Expect: answers[:1], Base: 10}); resp.Err == "" {
		t.Errorf("3 calls sent ahead with 1 answer: %+v, want an error", resp)
	}
}

func TestObjectsPastTheLimitAreForgottenOldestFirst(t *testing.T) {
	s := newServer(api)
	for range maxObjects + 2 {
		s.serve(wire.Request{Fn: "New", Args: []json.RawMessage{json.RawMessage(`"1"`)}})
	}
	if len(s.objects) != maxObjects {
		t.Errorf("%d objects kept, want %d", len(s.objects), maxObjects)
	}
	if _, ok := s.objects[2]; ok {
		t.Error("the second object is still kept")
	}
	if _, ok := s.objects[maxObjects+2]; !ok {
		t.Error("the newest object is not kept")
	}
}
