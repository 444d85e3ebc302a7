package check

// Stubbed reports whether every one of calls panics with the
// NotImplemented phrase, as an untouched stub's functions do. Every call
// is made, whatever the ones before it did.
func Stubbed(calls ...func()) bool {
	stub := true
	for _, c := range calls {
		_, p := Call(func() struct{} { c(); return struct{}{} })
		stub = p.Stub() && stub
	}
	return stub
}

// Untouched reports whether an implementation is the untouched stub: its
// constructor, build, panics with the NotImplemented phrase, or the object
// it makes answers every one of calls with such a panic. A constructor
// that returns nil without panicking (one that also returns an error) is
// not the stub.
func Untouched[T any](build func() T, calls ...func(T)) bool {
	x, p := Call(build)
	if p != nil || any(x) == nil {
		return p.Stub()
	}
	each := make([]func(), len(calls))
	for i, c := range calls {
		each[i] = func() { c(x) }
	}
	return Stubbed(each...)
}
