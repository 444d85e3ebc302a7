package harness

import (
	"encoding/json"
	"fmt"

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
}

// maxRecorded bounds the bytes of lines a recording keeps, so that the
// request sending them ahead stays under wire.MaxLine; the calls past it
// are made, not recorded.
const maxRecorded = wire.MaxLine / 2

func (r *recorder) Start(base wire.Obj) {
	if r.s == nil {
		r.s = newServer(r.api)
	}
	clear(r.s.objects)
	r.s.kept, r.s.oldest = r.s.kept[:0], 0
	r.s.next = base - 1
	r.calls, r.answers, r.size, r.full = nil, nil, 0, false
}

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
	resp := r.s.call(req)
	answer := answerLine(resp)
	if !r.full {
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
	if err := wire.Results(resp.Ret, out); err != nil {
		panic(fmt.Sprintf("harness.Record: %s: %v", fn, err))
	}
}

func (r *recorder) Bench(check.BenchSpec) check.BenchRun {
	panic("harness.Record: no benchmarks")
}
