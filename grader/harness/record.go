package harness

import (
	"encoding/json"
	"fmt"
	"reflect"

	"ratelab/grader/check"
	"ratelab/grader/wire"
)

// Record serves api in this process, as Local does, and records the calls
// made to it, with its answers, as the protocol's lines: for the
// reference, whose replay of a script gives the calls the grader then
// sends the child ahead, and the answers it expects of them (see
// check.Ahead). Never use it for code that is not trusted.
func Record(api API) check.Recorder { return &recorder{api: api} }

type recorder struct {
	api            API
	s              *server
	calls, answers []json.RawMessage
	size           int  // bytes recorded
	full           bool // recording stopped at maxRecorded
	// given are the answer lines the next calls are answered with, in
	// place of the reference's (see Force).
	given []json.RawMessage
}

// maxRecorded bounds the bytes of lines a recording keeps (the grader
// sends them ahead a part at a time); the calls past it are made, not
// recorded.
const maxRecorded = 16 << 20

func (r *recorder) Start(base wire.Obj) {
	if r.s == nil {
		r.s = newServer(r.api)
	}
	clear(r.s.objects)
	r.s.kept, r.s.oldest = r.s.kept[:0], 0
	r.s.next = base - 1
	r.calls, r.answers, r.size, r.full, r.given = nil, nil, 0, false, nil
}

// Force answers the next len(given) calls with given, in order (answer
// lines), though the reference still makes them, and records none of
// them: the calls recorded after them are those a replay makes when the
// code under test gave those answers, and their answers the reference's
// (see check.Ahead).
func (r *recorder) Force(given []json.RawMessage) { r.given = given }

func (r *recorder) Recorded() (calls, answers []json.RawMessage) { return r.calls, r.answers }

func (r *recorder) Call(obj wire.Obj, fn string, args []any, out ...any) {
	if r.s == nil {
		panic("harness.Record: a call before Start")
	}
	raw, err := wire.Args(args)
	if err != nil {
		panic(fmt.Sprintf("harness.Record: %s: %v", fn, err))
	}
	req := wire.Request{Obj: obj, Fn: fn, Args: raw}
	resp, values := r.s.callWith(req, args)
	answer := answerLine(resp)
	if len(r.given) > 0 {
		answer, r.given = r.given[0], r.given[1:]
		var err error
		if resp, err = wire.ParseAnswer(answer); err != nil {
			panic(fmt.Sprintf("harness.Record: an answer given for %s: %v", fn, err))
		}
		values = nil
	} else if !r.full {
		line := wire.AppendCall(nil, obj, fn, raw)
		if r.size += len(line) + len(answer); r.size > maxRecorded {
			r.full = true
		} else {
			r.calls, r.answers = append(r.calls, line), append(r.answers, answer)
		}
	}
	if resp.Panic != nil {
		var sent wire.Response // the message as the line carries it
		json.Unmarshal(answer, &sent)
		panic(*sent.Panic)
	}
	if resp.Err != "" {
		panic("harness.Record: " + resp.Err)
	}
	if err := results(resp.Ret, values, out); err != nil {
		panic(fmt.Sprintf("harness.Record: %s: %v", fn, err))
	}
}

// results sets outs (pointers) to a call's results: from values, the
// results as the call returned them, each that the wire gives back as it
// is (see wire.Transparent) and is of its out's type; else decoded from
// ret, as wire.Results does.
func results(ret []json.RawMessage, values []reflect.Value, outs []any) error {
	if len(values) != len(outs) {
		return wire.Results(ret, outs)
	}
	for i, o := range outs {
		out := reflect.ValueOf(o).Elem()
		if v := values[i]; v.Type() != out.Type() || !wire.Transparent(v) {
			return wire.Results(ret, outs)
		}
	}
	for i, o := range outs {
		reflect.ValueOf(o).Elem().Set(values[i])
	}
	return nil
}

func (r *recorder) Bench(check.BenchSpec) check.BenchRun {
	panic("harness.Record: no benchmarks")
}
