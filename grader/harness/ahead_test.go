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

// sendAhead has s make the calls sent ahead by req, and returns the
// answer lines it writes, the last (which ends them) apart.
func sendAhead(s *server, req wire.Request) (answers []json.RawMessage, last wire.Response) {
	var lines []json.RawMessage
	s.ahead(req, func(b []byte) { lines = append(lines, b) })
	if len(lines) == 0 {
		return nil, wire.Response{Err: "no line written"}
	}
	last, err := wire.ParseAnswer(lines[len(lines)-1])
	if err != nil {
		last.Err = err.Error()
	}
	return lines[:len(lines)-1], last
}

func TestCallsSentAheadStopAtTheFirstOtherAnswer(t *testing.T) {
	const base = 1 << 32
	calls, answers := recordCounter(base)
	if len(calls) != 3 {
		t.Fatalf("recorded %d calls, want 3", len(calls))
	}
	s := newServer(api)
	got, last := sendAhead(s, wire.Request{Ahead: calls, Expect: answers, Base: base})
	if last.Stop != "3" || fmt.Sprint(got) != fmt.Sprint(answers) {
		t.Fatalf("the reference's own calls: %s, then %+v; want all 3 the same, then stop 3", got, last)
	}
	// Another implementation (a counter that starts at 41) answers New
	// alike, then Add otherwise: it stops there, and says what it answered.
	other := API{Funcs: map[string]any{"New": func(start uint64) adder { return &counter{n: start + 1} }}}
	s = newServer(other)
	got, last = sendAhead(s, wire.Request{Ahead: calls, Expect: answers, Base: base})
	if last.Stop != "2" || len(got) != 2 || string(got[0]) != string(answers[0]) || string(got[1]) != `{"ret":["42"]}` {
		t.Fatalf("a counter one ahead: %s, then %+v; want New's answer, then 42, then stop 2", got, last)
	}
	var n uint64
	if r := s.serve(wire.Request{Obj: base, Fn: "Add", Args: []json.RawMessage{json.RawMessage(`"0"`)}}); wire.Results(r.Ret, []any{&n}) != nil || n != 42 {
		t.Errorf("after the calls sent ahead the counter answers %+v, want 42: the third call was made", r)
	}
}

func TestCallsSentAheadNeedAFreshBase(t *testing.T) {
	calls, answers := recordCounter(1)
	s := newServer(api)
	s.serve(wire.Request{Fn: "New", Args: []json.RawMessage{json.RawMessage(`"1"`)}})
	if got, last := sendAhead(s, wire.Request{Ahead: calls, Expect: answers, Base: 1}); last.Err == "" || len(got) > 0 {
		t.Errorf("calls sent ahead numbering objects from a handle given already: %s, then %+v; want an error alone", got, last)
	}
	if got, last := sendAhead(s, wire.Request{Ahead: calls, Expect: answers[:1], Base: 10}); last.Err == "" || len(got) > 0 {
		t.Errorf("3 calls sent ahead with 1 answer: %s, then %+v; want an error alone", got, last)
	}
}

// TestCallsSentAheadWithoutABaseGoOnNumbering: a batch with no Base (the
// rest of a replay, sent after some of its calls) numbers its objects on
// from the last handle given, as calls sent alone would.
func TestCallsSentAheadWithoutABaseGoOnNumbering(t *testing.T) {
	s := newServer(api)
	s.serve(wire.Request{Fn: "New", Args: []json.RawMessage{json.RawMessage(`"1"`)}})
	calls, answers := recordCounter(2)
	if got, last := sendAhead(s, wire.Request{Ahead: calls, Expect: answers}); last.Stop != "3" || fmt.Sprint(got) != fmt.Sprint(answers) {
		t.Errorf("calls sent ahead after object 1, without a base: %s, then %+v; want the answers of a counter numbered 2", got, last)
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
