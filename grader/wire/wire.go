// Package wire is the protocol between the grader and the grading child:
// the messages, and a codec that carries Go values across it without loss.
//
// The child links the learner's code and only executes what it is told:
// the grader sends one Request at a time (a call, as data, or a batch of
// calls sent ahead), the child makes it and answers with one Response a
// call (the call's raw results, or its panic). Everything that decides a
// grade (generating the calls, the model, comparing, shrinking, timing,
// scoring) happens in the grader's own process, which never runs learner
// code. So nothing the child writes can be more than an answer to one
// call, and a false answer is simply a wrong one. The one answer that is not a result, where a profiled benchmark run
// allocated (Response.Sites), is advice shown beside a verdict already
// made.
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
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Hello is the first line the child writes on its protocol stream, after
// which every line is a Response. Anything written before it (output of
// learner init functions) is skipped.
const Hello = "ratelab-child/5"

// MaxLine bounds one line of the protocol, either way: a longer one ends
// the child.
const MaxLine = 1 << 20

// ErrLongLine is ReadLine's error for a line longer than MaxLine.
var ErrLongLine = fmt.Errorf("a line of more than %d bytes", MaxLine)

// ReadLine reads one line of the protocol, without its end; a line longer
// than MaxLine is ErrLongLine, read no further.
func ReadLine(r *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		chunk, isPrefix, err := r.ReadLine()
		if err != nil {
			return nil, err
		}
		line = append(line, chunk...)
		if len(line) > MaxLine {
			return nil, ErrLongLine
		}
		if !isPrefix {
			return line, nil
		}
	}
}

// MaxPanic bounds a panic's message in a Response; the child cuts longer
// ones (keeping the start) and says so.
const MaxPanic = 4 << 10

// Obj is a handle to an object (a pointer returned by a call) that lives in
// the child. 0 is no object (a nil pointer).
type Obj uint64

// Request is one line from the grader to the child. Exactly one of Fn,
// Prepare, Bench and Ahead is set.
//
// A benchmark run takes two requests, so that the grader's reading of the
// child's CPU time around the second one times the loop alone: Prepare
// names a loop and gives the run's Seed and, in N, its warm-up; the child
// builds the loop's state, draws its traffic from Seed, makes the warm-up
// iterations, collects garbage and answers with nothing (or the panic).
// Bench, naming the same loop, then makes N more iterations of that run,
// counting the heap allocations they make, and answers with their digest.
// A Bench request with Profile set also records where each of those
// allocations was made (see Response.Sites): the grader asks for it on one
// extra run, never on a timed one, since recording every allocation slows
// each one down.
type Request struct {
	Obj     Obj               `json:"obj,omitempty"`     // the receiver, for a method; 0 for a package function
	Fn      string            `json:"fn,omitempty"`      // the function or method to call
	Args    []json.RawMessage `json:"args,omitempty"`    // its arguments, encoded
	Prepare string            `json:"prepare,omitempty"` // a benchmark loop to prepare a run of (Seed, N warm-up iterations)
	Bench   string            `json:"bench,omitempty"`   // the prepared run's loop, to run N iterations of, measured
	Seed    string            `json:"seed,omitempty"`    // Prepare: the run's traffic seed, decimal
	N       string            `json:"n,omitempty"`       // Prepare: warm-up iterations; Bench: measured iterations; decimal
	Profile string            `json:"profile,omitempty"` // Bench: the import path of the learner's package, whose lines allocations are charged to
	// Ahead are calls sent ahead, a batch (each a Request line with Fn
	// set), with Expect the answer line of each that the reference gives
	// (no secret: the reference ships with the course). The child makes
	// them in order, and stops after the first whose answer is not the
	// expected one (a panic, say): the calls after it may depend on that
	// answer. It answers each call it makes with its own answer line, as
	// it would the call sent alone, writing out those it holds whenever a
	// call runs long (see FlushEvery), so that the grader waits for each
	// call as it would for one sent alone, and names the one that does
	// not return; after the last, it writes a Response with Stop set. The
	// objects the calls make get handles from Base on, so that the calls
	// that follow can name them; Base is above every handle the child has
	// given before, or 0 to go on from the last one given (a batch that
	// continues a replay).
	Ahead  []json.RawMessage `json:"ahead,omitempty"`
	Expect []json.RawMessage `json:"expect,omitempty"`
	Base   Obj               `json:"base,omitempty"`
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
	// Sites, for a Bench request with Profile set, are the lines of the
	// learner's package the run's allocations were made at, the most
	// frequent first, at most MaxSites.
	Sites []Site `json:"sites,omitempty"`
	// Stop ends the answers of calls sent ahead (Request.Ahead): how many
	// of them the child made, in decimal, up to and including the first
	// whose answer was not the expected one. The grader judges their
	// answers as it judges any other: the expected ones only tell the
	// child where to stop, never what the grader takes for its answer.
	Stop string `json:"stop,omitempty"`
}

// FlushEvery is how often a child making calls sent ahead writes out the
// answers it holds: a call that runs longer than that has the answers of
// the calls before it with the grader while it runs.
const FlushEvery = 5 * time.Millisecond

// Site is a line of the learner's code that a profiled benchmark run
// allocated at: the innermost frame of the allocation's stack that is in
// the learner's package. Numbers are decimal strings, as everywhere on the
// wire.
type Site struct {
	File string `json:"file"` // the file's base name ("fairqueue.go")
	Line string `json:"line"`
	// Callee is the function the line called that allocated, the frame
	// just inside the learner's ("runtime.growslice"), or "" if the line
	// allocated itself.
	Callee string `json:"callee,omitempty"`
	Count  string `json:"count"` // allocations made there during the run
}

// MaxSites bounds the Sites of one Response.
const MaxSites = 16

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
// error. It writes what encoding/json writes for the same value built of
// maps, strings and slices (object members in sorted order), byte for
// byte, without building that value.
func Encode(v reflect.Value, objects func(reflect.Value) Obj) (json.RawMessage, error) {
	return appendValue(make([]byte, 0, 64), v, objects)
}

func appendValue(b []byte, v reflect.Value, objects func(reflect.Value) Obj) ([]byte, error) {
	if v.Type() == objType {
		return appendObj(b, v.Uint()), nil
	}
	if v.Type() == errorType {
		if v.IsNil() {
			return append(b, "null"...), nil
		}
		b = append(b, `{"error":`...)
		return append(appendString(b, safeError(v.Interface().(error))), '}'), nil
	}
	switch v.Kind() {
	case reflect.Bool:
		return strconv.AppendBool(b, v.Bool()), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return append(strconv.AppendInt(append(b, '"'), v.Int(), 10), '"'), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return append(strconv.AppendUint(append(b, '"'), v.Uint(), 10), '"'), nil
	case reflect.Float32, reflect.Float64:
		return append(strconv.AppendFloat(append(b, '"'), v.Float(), 'g', -1, 64), '"'), nil
	case reflect.String:
		return appendString(b, v.String()), nil
	case reflect.Struct:
		return appendStruct(b, v, objects)
	case reflect.Map:
		return appendMap(b, v, objects)
	case reflect.Pointer, reflect.Interface:
		if objects == nil {
			return nil, fmt.Errorf("a %s cannot travel by value", v.Type())
		}
		if v.IsNil() {
			return appendObj(b, 0), nil
		}
		return appendObj(b, uint64(objects(v))), nil
	}
	return nil, fmt.Errorf("a %s cannot travel on the wire", v.Type())
}

// appendObj appends a handle's wire form.
func appendObj(b []byte, h uint64) []byte {
	return append(strconv.AppendUint(append(b, `{"obj":"`...), h, 10), `"}`...)
}

// appendString appends s as encoding/json writes it.
func appendString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(s) // escapes, and what is not UTF-8
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// appendMap appends a map with string keys as [key, value] pairs sorted
// by key.
func appendMap(b []byte, v reflect.Value, objects func(reflect.Value) Obj) ([]byte, error) {
	if v.Type().Key().Kind() != reflect.String {
		return nil, fmt.Errorf("a %s cannot travel on the wire (only maps with string keys can)", v.Type())
	}
	if v.IsNil() {
		return append(b, "null"...), nil
	}
	keys := v.MapKeys()
	slices.SortFunc(keys, func(a, b reflect.Value) int { return strings.Compare(a.String(), b.String()) })
	b = append(b, '[')
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(appendString(append(b, '['), k.String()), ',')
		var err error
		if b, err = appendValue(b, v.MapIndex(k), objects); err != nil {
			return nil, fmt.Errorf("key %q: %w", k.String(), err)
		}
		b = append(b, ']')
	}
	return append(b, ']'), nil
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
		if h, ok := bytes.CutPrefix(data, []byte(`{"obj":`)); ok && fastPaths && len(h) > 0 && h[len(h)-1] == '}' {
			if s, ok := plainBytes(h[:len(h)-1]); ok {
				if n, ok := smallDecimal(s); ok {
					v.SetUint(n)
					return nil
				}
			}
		}
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
		if fastPaths && (string(data) == "true" || string(data) == "false") {
			v.SetBool(string(data) == "true")
			return nil
		}
		var b bool
		if err := json.Unmarshal(data, &b); err != nil {
			return fmt.Errorf("want a bool, got %.40s", data)
		}
		v.SetBool(b)
		return nil
	case reflect.Struct:
		return decodeStruct(data, v)
	case reflect.Map:
		return decodeMap(data, v)
	}
	if fastPaths && decodeInteger(data, v) {
		return nil
	}
	s, ok := unescapedString(data)
	if !ok || !fastPaths {
		if err := json.Unmarshal(data, &s); err != nil {
			return fmt.Errorf("want a %s written as a string, got %.40s", t, data)
		}
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

// The fast paths of Decode, ParseRequest and ParseAnswer read what Encode
// and the Append functions write without encoding/json. Anything else
// (spaces, escapes, numbers, duplicate keys) they leave to encoding/json,
// so that what they accept, and what they make of it, is what encoding/json
// would. Tests turn them off (fastPaths) to compare.
var fastPaths = true

// skipValue returns where the JSON value at data[i:] ends, if it is
// written as Encode writes: strings without escapes, objects, arrays,
// true, false and null, nested at most maxDepth deep.
func skipValue(data []byte, i, depth int) (int, bool) {
	if i >= len(data) || depth > maxDepth {
		return 0, false
	}
	switch c := data[i]; c {
	case '"':
		for j := i + 1; j < len(data); j++ {
			switch b := data[j]; {
			case b == '"':
				return j + 1, true
			case b < 0x20:
				return 0, false
			case b == '\\':
				n := escapeLen(data[j:])
				if n == 0 {
					return 0, false
				}
				j += n - 1
			}
		}
		return 0, false
	case '{', '[':
		closing := byte('}')
		if c == '[' {
			closing = ']'
		}
		j := i + 1
		if j < len(data) && data[j] == closing {
			return j + 1, true
		}
		for {
			if c == '{' {
				end, ok := skipValue(data, j, depth+1)
				if !ok || data[j] != '"' || end >= len(data) || data[end] != ':' {
					return 0, false
				}
				j = end + 1
			}
			end, ok := skipValue(data, j, depth+1)
			if !ok || end >= len(data) {
				return 0, false
			}
			switch data[end] {
			case ',':
				j = end + 1
			case closing:
				return end + 1, true
			default:
				return 0, false
			}
		}
	}
	for _, lit := range []string{"true", "false", "null"} {
		if bytes.HasPrefix(data[i:], []byte(lit)) {
			return i + len(lit), true
		}
	}
	return 0, false
}

// escapeLen returns the length of the JSON escape esc starts with (\n,
// \u00e9, ...), or 0 if it starts with none.
func escapeLen(esc []byte) int {
	if len(esc) < 2 {
		return 0
	}
	switch esc[1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return 2
	case 'u':
		if len(esc) < 6 {
			return 0
		}
		for _, c := range esc[2:6] {
			if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
				return 0
			}
		}
		return 6
	}
	return 0
}

// maxDepth bounds the nesting the fast paths read.
const maxDepth = 32

// Args encodes the arguments of a call made by the grader, which sends only
// plain values.
func Args(args []any) ([]json.RawMessage, error) {
	out := make([]json.RawMessage, len(args))
	var held [8]int
	ends := held[:0]
	b := make([]byte, 0, 64) // all of them, one after the other
	for i, a := range args {
		var err error
		if b, err = appendValue(b, reflect.ValueOf(a), nil); err != nil {
			return nil, fmt.Errorf("argument %d: %w", i+1, err)
		}
		ends = append(ends, len(b))
	}
	start := 0
	for i, end := range ends {
		out[i], start = b[start:end:end], end
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

// AppendCall appends the line of a call (a Request with Obj, Fn and Args
// set, which are compact JSON), without its newline, as encoding/json
// writes it.
func AppendCall(b []byte, obj Obj, fn string, args []json.RawMessage) []byte {
	b = slices.Grow(b, 40+len(fn)+listLen(args))
	b = append(b, '{')
	if obj != 0 {
		b = strconv.AppendUint(append(b, `"obj":`...), uint64(obj), 10)
	}
	if fn != "" {
		if obj != 0 {
			b = append(b, ',')
		}
		b = appendString(append(b, `"fn":`...), fn)
	}
	if len(args) > 0 {
		if obj != 0 || fn != "" {
			b = append(b, ',')
		}
		b = appendList(append(b, `"args":`...), args)
	}
	return append(b, '}')
}

// AppendAhead appends the line of a Request of calls sent ahead (lines
// written by AppendCall, answers by AppendAnswer or encoding/json), without
// its newline, as encoding/json writes it.
func AppendAhead(b []byte, calls, answers []json.RawMessage, base Obj) []byte {
	b = slices.Grow(b, 50+listLen(calls)+listLen(answers))
	b = appendList(append(b, `{"ahead":`...), calls)
	b = appendList(append(b, `,"expect":`...), answers)
	if base != 0 {
		b = strconv.AppendUint(append(b, `,"base":`...), uint64(base), 10)
	}
	return append(b, '}')
}

// listLen is the length of raws written as an array, less its brackets.
func listLen(raws []json.RawMessage) int {
	n := len(raws)
	for _, r := range raws {
		n += len(r)
	}
	return n
}

// appendList appends compact JSON values as an array.
func appendList(b []byte, raws []json.RawMessage) []byte {
	b = append(b, '[')
	for i, r := range raws {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, r...)
	}
	return append(b, ']')
}

// AppendAnswer appends resp's line, without its newline, as encoding/json
// writes it (resp's results are compact JSON, as Encode writes them).
func AppendAnswer(b []byte, resp Response) ([]byte, error) {
	if resp.Panic == nil && resp.Err == "" && resp.Digest == "" && resp.Allocs == "" && resp.WallNs == "" && resp.Sites == nil {
		switch {
		case resp.Stop == "" && len(resp.Ret) == 0:
			return append(b, "{}"...), nil
		case resp.Stop == "":
			b = slices.Grow(b, 10+listLen(resp.Ret))
			return append(appendList(append(b, `{"ret":`...), resp.Ret), '}'), nil
		case len(resp.Ret) == 0:
			return append(appendString(append(b, `{"stop":`...), resp.Stop), '}'), nil
		}
	}
	line, err := json.Marshal(resp)
	return append(b, line...), err
}

// ParseAnswer reads an answer line.
func ParseAnswer(line []byte) (Response, error) {
	if fastPaths {
		if ret, ok := listOf(line, `{"ret":[`); ok {
			return Response{Ret: ret}, nil
		}
		if string(line) == "{}" {
			return Response{}, nil
		}
		if n, ok := bytes.CutPrefix(line, []byte(`{"stop":`)); ok && len(n) > 0 && n[len(n)-1] == '}' {
			if stop, ok := plainString(n[:len(n)-1]); ok {
				return Response{Stop: stop}, nil
			}
		}
	}
	var resp Response
	err := json.Unmarshal(line, &resp)
	return resp, err
}

// listOf returns the values of line's one member, an array, if line is
// prefix, the array's inside as Encode writes it, then "]}".
func listOf(line []byte, prefix string) ([]json.RawMessage, bool) {
	inner, ok := bytes.CutPrefix(line, []byte(prefix))
	if !ok {
		return nil, false
	}
	if inner, ok = bytes.CutSuffix(inner, []byte("]}")); !ok {
		return nil, false
	}
	return splitList(inner)
}

// splitList returns the values of a JSON array's inside, if they are
// written as Encode writes.
func splitList(inner []byte) ([]json.RawMessage, bool) {
	var out []json.RawMessage
	for i := 0; i < len(inner); {
		end, ok := skipValue(inner, i, 0)
		if !ok {
			return nil, false
		}
		out = append(out, json.RawMessage(inner[i:end]))
		switch {
		case end == len(inner):
			return out, len(out) > 0
		case inner[end] != ',':
			return nil, false
		}
		i = end + 1
	}
	return nil, false
}

// ParseRequest reads a request line: a call as AppendCall writes it, or
// calls sent ahead as AppendAhead writes them, without encoding/json; any
// other line through encoding/json.
func ParseRequest(line []byte) (Request, error) {
	var req Request
	ok := fastPaths && eachField(line, func(name string, raw []byte) bool {
		var ok bool
		switch name {
		case "obj":
			req.Obj, ok = parseObj(raw)
		case "fn":
			req.Fn, ok = plainString(raw)
		case "args":
			req.Args, ok = splitArray(raw)
		case "ahead":
			req.Ahead, ok = splitArray(raw)
		case "expect":
			req.Expect, ok = splitArray(raw)
		case "base":
			req.Base, ok = parseObj(raw)
		}
		return ok
	})
	if ok {
		return req, nil
	}
	req = Request{}
	err := json.Unmarshal(line, &req)
	return req, err
}

// eachField calls f with each member of the JSON object line, if its
// values are as Encode writes them or decimal numbers (of up to 19
// digits, without sign), its names plain, and f accepts every member.
func eachField(line []byte, f func(name string, raw []byte) bool) bool {
	if len(line) < 2 || line[0] != '{' || line[len(line)-1] != '}' {
		return false
	}
	seen := 0
	for i := 1; i < len(line)-1; {
		colon := bytes.IndexByte(line[i:], ':')
		if colon < 0 {
			return false
		}
		name, ok := plainString(line[i : i+colon])
		if !ok {
			return false
		}
		i += colon + 1
		end := i
		for end < len(line) && line[end] >= '0' && line[end] <= '9' {
			end++
		}
		if end == i {
			if end, ok = skipValue(line, i, 0); !ok {
				return false
			}
		} else if end-i > 19 {
			return false
		}
		if seen++; seen > 8 || !f(name, line[i:end]) {
			return false
		}
		switch {
		case end == len(line)-1:
			return true
		case line[end] != ',':
			return false
		}
		i = end + 1
	}
	return false
}

// parseObj reads a handle written as a decimal number.
func parseObj(raw []byte) (Obj, bool) {
	if len(raw) > 1 && raw[0] == '0' {
		return 0, false
	}
	n, err := strconv.ParseUint(string(raw), 10, 64)
	return Obj(n), err == nil
}

// splitArray returns the values of a JSON array as Encode writes them.
func splitArray(raw []byte) ([]json.RawMessage, bool) {
	if len(raw) < 2 || raw[0] != '[' || raw[len(raw)-1] != ']' {
		return nil, false
	}
	if len(raw) == 2 {
		return []json.RawMessage{}, true
	}
	return splitList(raw[1 : len(raw)-1])
}
