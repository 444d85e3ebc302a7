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

// RemoteNew1 is API.Remote for an exercise whose API is its constructor F
// of one argument: F calls the package function New with its argument in
// the Remote's process, and wrap makes the object New returned into the
// suite's proxy type, whose methods call the object's (see Get).
func RemoteNew1[F ~func(A) T, A, T any](wrap func(Object) T) func(Remote) F {
	return func(r Remote) F {
		return func(a A) T { return wrap(NewObject(r, "New", a)) }
	}
}

// RemoteNew3 is RemoteNew1 for a constructor of three arguments.
func RemoteNew3[F ~func(A, B, C) T, A, B, C, T any](wrap func(Object) T) func(Remote) F {
	return func(r Remote) F {
		return func(a A, b B, c C) T { return wrap(NewObject(r, "New", a, b, c)) }
	}
}
