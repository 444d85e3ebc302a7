package check

import (
	"reflect"
	"testing"

	"ratelab/grader/wire"
)

// newRemote is a Remote whose package function New answers with the
// object obj and records the arguments of each call.
type newRemote struct {
	obj   wire.Obj
	calls *[][]any
}

func (r newRemote) Call(obj wire.Obj, fn string, args []any, out ...any) {
	if obj != 0 || fn != "New" || len(out) != 1 {
		panic("newRemote: only New is served")
	}
	*r.calls = append(*r.calls, args)
	*out[0].(*wire.Obj) = r.obj
}

func (r newRemote) Bench(BenchSpec) BenchRun { panic("not used") }

// proxy stands for a suite's proxy type.
type proxy struct{ Object }

func TestRemoteNew(t *testing.T) {
	type new1 func(quantum uint64) proxy
	type new3 func(limit uint32, windowNs uint64, buckets int) proxy
	var calls [][]any
	r := newRemote{obj: 7, calls: &calls}
	wrap := func(o Object) proxy { return proxy{o} }

	got1 := RemoteNew1[new1](wrap)(r)(5)
	got3 := RemoteNew3[new3](wrap)(r)(3, 1_000, 10)

	for _, got := range []proxy{got1, got3} {
		if got.Obj != 7 || got.Remote != r {
			t.Errorf("the proxy holds %+v, want object 7 of r", got.Object)
		}
	}
	want := [][]any{{uint64(5)}, {uint32(3), uint64(1_000), 10}}
	if !reflect.DeepEqual(calls, want) {
		t.Errorf("New was called with %#v, want %#v", calls, want)
	}
}
