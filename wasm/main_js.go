package main

import (
	"math"

	"syscall/js"
)

func main() {
	js.Global().Set("ratelab", api())
	select {} // keep the functions alive
}

// api returns the ratelab object: every part this build has (see parts).
func api() js.Value {
	o := map[string]any{}
	for _, add := range parts {
		add(o)
	}
	return js.ValueOf(o)
}

// parts add their functions and constants to the ratelab object, one part
// per visualization, each registered by its file's init. A build with
// -tags oneweek,weekN has only week N's parts (see the files' build
// constraints and doc.go); a build without oneweek has them all.
var parts []func(o map[string]any)

func errorValue(msg string) js.Value {
	return js.ValueOf(map[string]any{"error": msg})
}

// config reads typed fields of a JavaScript config object, with defaults.
type config struct{ v js.Value }

func (c config) num(name string, def float64) float64 {
	f := c.v.Get(name)
	if f.Type() != js.TypeNumber || math.IsNaN(f.Float()) {
		return def
	}
	return f.Float()
}

func (c config) str(name, def string) string {
	if s := c.v.Get(name); s.Type() == js.TypeString {
		return s.String()
	}
	return def
}

func (c config) bool(name string) bool {
	b := c.v.Get(name)
	return b.Type() == js.TypeBoolean && b.Bool()
}

// seed reads the seed: a whole number from 0 to 2^53.
func (c config) seed() (uint64, string) {
	s := c.num("seed", 1)
	if s < 0 || s > 1<<53 || s != math.Trunc(s) {
		return 0, "seed must be a whole number from 0 to 2^53"
	}
	return uint64(s), ""
}

// pickImpl returns the implementation the config's "impl" names:
// "reference" (the default) or "yours", which yours makes.
func pickImpl[I any](c config, reference I, yours func() I) (I, string) {
	switch name := c.str("impl", "reference"); name {
	case "reference":
		return reference, ""
	case "yours":
		return yours(), ""
	default:
		var none I
		return none, "impl must be reference or yours, not " + name
	}
}

// untilNs reads a virtual time in nanoseconds: 0 for NaN or less, the
// largest time from 2^63 on.
func untilNs(v js.Value) uint64 {
	until := v.Float()
	switch {
	case math.IsNaN(until) || until <= 0:
		return 0
	case until >= 1<<63:
		return math.MaxUint64
	}
	return uint64(until)
}

// jsObject is a JavaScript object whose methods are Go functions, all
// released by its free method.
type jsObject struct {
	obj   js.Value
	funcs []js.Func
}

func newObject() *jsObject {
	o := &jsObject{obj: js.Global().Get("Object").New()}
	o.method("free", func([]js.Value) any {
		for _, f := range o.funcs {
			f.Release()
		}
		return nil
	})
	return o
}

func (o *jsObject) method(name string, f func(args []js.Value) any) {
	fn := js.FuncOf(func(_ js.Value, args []js.Value) any { return f(args) })
	o.funcs = append(o.funcs, fn)
	o.obj.Set(name, fn)
}
