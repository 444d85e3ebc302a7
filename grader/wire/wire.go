// Package wire is the protocol between the grader and the grading child:
// the messages, and a codec that carries Go values across it without loss.
//
// The child links the learner's code and only executes what it is told:
// the grader sends one Request at a time (a call, as data), the child makes
// it and answers with one Response (the call's raw results, or its panic).
// Everything that decides a grade (generating the calls, the model,
// comparing, shrinking, timing, scoring) happens in the grader's own
// process, which never runs learner code. So nothing the child writes can
// be more than an answer to one call, and a false answer is simply a wrong
// one.
//
// Values are JSON, with every number written as a string: integers in
// decimal so that nothing is lost above 2^53, floats in Go's shortest
// round-trip form so that NaN and the infinities survive too. Structs
// travel as objects of their exported fields, matched by name, so the
// suite's mirror types and the exercise's own types meet on the wire. Maps
// with string keys travel as arrays of [key, value] pairs in sorted key
// order, so that the same map is always the same line; a nil map is null.
// Pointers (and interfaces holding them) are objects that stay in the
// child: they travel as a handle (Obj), and methods are called on it.
package wire

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// Hello is the first line the child writes on its protocol stream, after
// which every line is a Response. Anything written before it (output of
// learner init functions) is skipped.
const Hello = "ratelab-child/3"

// MaxLine bounds one line of the protocol, either way: a longer one ends
// the child.
const MaxLine = 1 << 20

// MaxPanic bounds a panic's message in a Response; the child cuts longer
// ones (keeping the start) and says so.
const MaxPanic = 4 << 10

// Obj is a handle to an object (a pointer returned by a call) that lives in
// the child. 0 is no object (a nil pointer).
type Obj uint64

// Request is one line from the grader to the child. Exactly one of Fn,
// Prepare and Bench is set.
//
// A benchmark run takes two requests, so that the grader's reading of the
// child's CPU time around the second one times the loop alone: Prepare
// names a loop and gives the run's Seed and, in N, its warm-up; the child
// builds the loop's state, draws its traffic from Seed, makes the warm-up
// iterations, collects garbage and answers with nothing (or the panic).
// Bench, naming the same loop, then makes N more iterations of that run,
// counting the heap allocations they make, and answers with their digest.
type Request struct {
	Obj     Obj               `json:"obj,omitempty"`     // the receiver, for a method; 0 for a package function
	Fn      string            `json:"fn,omitempty"`      // the function or method to call
	Args    []json.RawMessage `json:"args,omitempty"`    // its arguments, encoded
	Prepare string            `json:"prepare,omitempty"` // a benchmark loop to prepare a run of (Seed, N warm-up iterations)
	Bench   string            `json:"bench,omitempty"`   // the prepared run's loop, to run N iterations of, measured
	Seed    string            `json:"seed,omitempty"`    // Prepare: the run's traffic seed, decimal
	N       string            `json:"n,omitempty"`       // Prepare: warm-up iterations; Bench: measured iterations; decimal
}

// Response is the child's answer to one Request.
type Response struct {
	Ret   []json.RawMessage `json:"ret,omitempty"`   // the call's results, encoded
	Panic *string           `json:"panic,omitempty"` // the call panicked with this message
	Err   string            `json:"err,omitempty"`   // the request itself was wrong (unknown function, bad arguments)
	// A benchmark run (Bench): the digest of its decisions, the heap
	// allocations the Go runtime counted during its measured iterations
	// (not while preparing it), and its own clock's reading of them (used
	// only where the operating system gives the grader no CPU time).
	Digest string `json:"digest,omitempty"`
	Allocs string `json:"allocs,omitempty"`
	WallNs string `json:"wall_ns,omitempty"`
}

// objJSON is how an object handle travels.
type objJSON struct {
	Obj string `json:"obj"`
}

var (
	objType   = reflect.TypeOf(Obj(0))
	errorType = reflect.TypeOf((*error)(nil)).Elem()
)

// Encode returns v's wire form. objects, if not nil, turns a pointer (or an
// interface holding one) into a handle; without it, such values are an
// error.
func Encode(v reflect.Value, objects func(reflect.Value) Obj) (json.RawMessage, error) {
	x, err := encode(v, objects)
	if err != nil {
		return nil, err
	}
	return json.Marshal(x)
}

func encode(v reflect.Value, objects func(reflect.Value) Obj) (any, error) {
	if v.Type() == objType {
		return objJSON{strconv.FormatUint(v.Uint(), 10)}, nil
	}
	if v.Type() == errorType {
		if v.IsNil() {
			return nil, nil
		}
		return map[string]string{"error": safeError(v.Interface().(error))}, nil
	}
	switch v.Kind() {
	case reflect.Bool:
		return v.Bool(), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.FormatInt(v.Int(), 10), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return strconv.FormatUint(v.Uint(), 10), nil
	case reflect.Float32, reflect.Float64:
		return strconv.FormatFloat(v.Float(), 'g', -1, 64), nil
	case reflect.String:
		return v.String(), nil
	case reflect.Struct:
		m := map[string]any{}
		for i := range v.NumField() {
			f := v.Type().Field(i)
			if !f.IsExported() {
				continue
			}
			x, err := encode(v.Field(i), objects)
			if err != nil {
				return nil, fmt.Errorf("field %s: %w", f.Name, err)
			}
			m[f.Name] = x
		}
		return m, nil
	case reflect.Map:
		return encodeMap(v, objects)
	case reflect.Pointer, reflect.Interface:
		if objects == nil {
			return nil, fmt.Errorf("a %s cannot travel by value", v.Type())
		}
		if v.IsNil() {
			return objJSON{"0"}, nil
		}
		return objJSON{strconv.FormatUint(uint64(objects(v)), 10)}, nil
	}
	return nil, fmt.Errorf("a %s cannot travel on the wire", v.Type())
}

// encodeMap encodes a map with string keys as [key, value] pairs sorted
// by key.
func encodeMap(v reflect.Value, objects func(reflect.Value) Obj) (any, error) {
	if v.Type().Key().Kind() != reflect.String {
		return nil, fmt.Errorf("a %s cannot travel on the wire (only maps with string keys can)", v.Type())
	}
	if v.IsNil() {
		return nil, nil
	}
	keys := v.MapKeys()
	slices.SortFunc(keys, func(a, b reflect.Value) int { return strings.Compare(a.String(), b.String()) })
	pairs := make([][2]any, 0, len(keys))
	for _, k := range keys {
		x, err := encode(v.MapIndex(k), objects)
		if err != nil {
			return nil, fmt.Errorf("key %q: %w", k.String(), err)
		}
		pairs = append(pairs, [2]any{k.String(), x})
	}
	return pairs, nil
}

// decodeMap sets the map v from its wire form (see encodeMap).
func decodeMap(data json.RawMessage, v reflect.Value) error {
	t := v.Type()
	if t.Key().Kind() != reflect.String {
		return fmt.Errorf("a %s cannot travel on the wire (only maps with string keys can)", t)
	}
	if string(data) == "null" {
		v.Set(reflect.Zero(t))
		return nil
	}
	var pairs [][2]json.RawMessage
	if err := json.Unmarshal(data, &pairs); err != nil {
		return fmt.Errorf("want [key, value] pairs for %s, got %.40s", t, data)
	}
	m := reflect.MakeMapWithSize(t, len(pairs))
	for _, p := range pairs {
		k := reflect.New(t.Key()).Elem()
		if err := Decode(p[0], k); err != nil {
			return fmt.Errorf("map key: %w", err)
		}
		x := reflect.New(t.Elem()).Elem()
		if err := Decode(p[1], x); err != nil {
			return fmt.Errorf("key %q: %w", k.String(), err)
		}
		m.SetMapIndex(k, x)
	}
	v.Set(m)
	return nil
}

// safeError is err.Error(), or a note if that panicked.
func safeError(err error) (s string) {
	defer func() {
		if recover() != nil {
			s = "(the error's Error method panicked)"
		}
	}()
	return err.Error()
}

// Decode sets v (settable) from its wire form.
func Decode(data json.RawMessage, v reflect.Value) error {
	t := v.Type()
	if t == objType {
		var o objJSON
		if err := json.Unmarshal(data, &o); err != nil {
			return fmt.Errorf("want an object handle: %w", err)
		}
		n, err := strconv.ParseUint(o.Obj, 10, 64)
		if err != nil {
			return fmt.Errorf("object handle %q: %w", o.Obj, err)
		}
		v.SetUint(n)
		return nil
	}
	if t == errorType {
		if string(data) == "null" {
			v.Set(reflect.Zero(t))
			return nil
		}
		var e struct {
			Error *string `json:"error"`
		}
		if err := json.Unmarshal(data, &e); err != nil || e.Error == nil {
			return fmt.Errorf("want an error or null, got %.40s", data)
		}
		v.Set(reflect.ValueOf(errors.New(*e.Error)))
		return nil
	}
	switch t.Kind() {
	case reflect.Bool:
		var b bool
		if err := json.Unmarshal(data, &b); err != nil {
			return fmt.Errorf("want a bool, got %.40s", data)
		}
		v.SetBool(b)
		return nil
	case reflect.Struct:
		var m map[string]json.RawMessage
		if err := json.Unmarshal(data, &m); err != nil {
			return fmt.Errorf("want an object for %s, got %.40s", t, data)
		}
		for i := range t.NumField() {
			f := t.Field(i)
			raw, ok := m[f.Name]
			if !f.IsExported() || !ok {
				continue
			}
			if err := Decode(raw, v.Field(i)); err != nil {
				return fmt.Errorf("field %s: %w", f.Name, err)
			}
		}
		return nil
	case reflect.Map:
		return decodeMap(data, v)
	}
	var s string
	if err := json.Unmarshal(data, &s); err != nil {
		return fmt.Errorf("want a %s written as a string, got %.40s", t, data)
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, err := strconv.ParseInt(s, 10, t.Bits())
		if err != nil {
			return fmt.Errorf("%s: %w", t, err)
		}
		v.SetInt(n)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		n, err := strconv.ParseUint(s, 10, t.Bits())
		if err != nil {
			return fmt.Errorf("%s: %w", t, err)
		}
		v.SetUint(n)
	case reflect.Float32, reflect.Float64:
		f, err := strconv.ParseFloat(s, 64)
		if err != nil && !math.IsInf(f, 0) {
			return fmt.Errorf("%s: %w", t, err)
		}
		v.SetFloat(f)
	case reflect.String:
		v.SetString(s)
	default:
		return fmt.Errorf("a %s cannot travel on the wire", t)
	}
	return nil
}

// Args encodes the arguments of a call made by the grader, which sends only
// plain values.
func Args(args []any) ([]json.RawMessage, error) {
	out := make([]json.RawMessage, len(args))
	for i, a := range args {
		raw, err := Encode(reflect.ValueOf(a), nil)
		if err != nil {
			return nil, fmt.Errorf("argument %d: %w", i+1, err)
		}
		out[i] = raw
	}
	return out, nil
}

// Results decodes a Response's results into outs, which are pointers.
func Results(ret []json.RawMessage, outs []any) error {
	if len(ret) != len(outs) {
		return fmt.Errorf("%d results, want %d", len(ret), len(outs))
	}
	for i, o := range outs {
		if err := Decode(ret[i], reflect.ValueOf(o).Elem()); err != nil {
			return fmt.Errorf("result %d: %w", i+1, err)
		}
	}
	return nil
}
