package check

import "ratelab/grader/wire"

// Object is an object of the implementation under test as a suite's proxy
// types hold it: a handle to it in the Remote's process. The zero Obj
// stands for the package itself, whose functions Get calls the same way.
type Object struct {
	Remote Remote
	Obj    wire.Obj
}

// NewObject calls the package function fn (a constructor) with args and
// returns the object it made.
func NewObject(r Remote, fn string, args ...any) Object {
	var o wire.Obj
	r.Call(0, fn, args, &o)
	return Object{r, o}
}

// Get calls the method fn of x (the package function fn if x.Obj is 0)
// with args, and returns its one result.
func Get[T any](x Object, fn string, args ...any) (got T) {
	x.Remote.Call(x.Obj, fn, args, &got)
	return got
}
