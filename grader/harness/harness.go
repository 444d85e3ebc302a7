package harness

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"reflect"
	"runtime"
	"strconv"
	"time"

	"ratelab/grader/wire"
)

// API is what the child can call for one exercise.
type API struct {
	// Funcs are the package functions by name ("New", "Decide", ...),
	// usually typed closures over the exercise's own functions, so that a
	// learner's API that differs from the contract fails to compile. A
	// result that is a pointer or an interface becomes an object the grader
	// calls methods on by name: through the interface's methods when the
	// function's result type is an interface.
	Funcs map[string]any
	// Bench are the benchmark loops by name (e.g. "learner", "reference"):
	// each runs n iterations and returns a digest of its decisions.
	Bench map[string]func(n int) uint64
}

var apis = map[string]API{}

// Register makes exercise id's API callable. The generated adapters call it
// from init.
func Register(id string, api API) { apis[id] = api }

// maxObjects bounds the objects kept alive: the grader replays one script
// at a time, so only the newest few are ever called again.
const maxObjects = 1024

// Main serves the exercise named by flag -exercise until standard input
// closes. It exits 2 on bad flags.
func Main() {
	fs := flag.NewFlagSet("child", flag.ExitOnError)
	exercise := fs.String("exercise", "", "the exercise to serve")
	fs.Parse(os.Args[1:])
	limitResources()
	api, ok := apis[*exercise]
	if !ok {
		fmt.Fprintf(os.Stderr, "child: no exercise %q; this program is started by labserver grade\n", *exercise)
		os.Exit(2)
	}
	out := bufio.NewWriter(os.Stdout)
	os.Stdout = os.Stderr // what learner code prints is output, not protocol
	in := bufio.NewReaderSize(os.Stdin, 64<<10)
	s := &server{api: api, objects: map[wire.Obj]reflect.Value{}}
	fmt.Fprintln(out, wire.Hello)
	out.Flush()
	for {
		line, err := readLine(in)
		if err != nil {
			return // the grader closed the stream, or sent a line too long
		}
		var req wire.Request
		var resp wire.Response
		if err := json.Unmarshal(line, &req); err != nil {
			resp.Err = "bad request: " + err.Error()
		} else {
			resp = s.serve(req)
		}
		b, err := json.Marshal(resp)
		if err != nil {
			b, _ = json.Marshal(wire.Response{Err: "unencodable result: " + err.Error()})
		}
		out.Write(b)
		out.WriteByte('\n')
		if out.Flush() != nil {
			os.Exit(3) // the grader went away
		}
	}
}

// readLine reads one line of at most wire.MaxLine bytes.
func readLine(r *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		chunk, isPrefix, err := r.ReadLine()
		if err != nil {
			return nil, err
		}
		line = append(line, chunk...)
		if len(line) > wire.MaxLine {
			return nil, fmt.Errorf("line over %d bytes", wire.MaxLine)
		}
		if !isPrefix {
			return line, nil
		}
	}
}

type server struct {
	api     API
	objects map[wire.Obj]reflect.Value
	next    wire.Obj
}

func (s *server) serve(req wire.Request) wire.Response {
	switch {
	case req.GC:
		runtime.GC()
		return wire.Response{}
	case req.Bench != "":
		return s.bench(req)
	}
	fn, err := s.lookup(req)
	if err != nil {
		return wire.Response{Err: err.Error()}
	}
	t := fn.Type()
	if t.NumIn() != len(req.Args) || t.IsVariadic() {
		return wire.Response{Err: fmt.Sprintf("%s takes %d arguments, got %d", req.Fn, t.NumIn(), len(req.Args))}
	}
	args := make([]reflect.Value, len(req.Args))
	for i, raw := range req.Args {
		args[i] = reflect.New(t.In(i)).Elem()
		if err := wire.Decode(raw, args[i]); err != nil {
			return wire.Response{Err: fmt.Sprintf("%s argument %d: %v", req.Fn, i+1, err)}
		}
	}
	ret, msg := call(fn, args)
	if msg != nil {
		return wire.Response{Panic: msg}
	}
	var resp wire.Response
	for i, v := range ret {
		raw, err := wire.Encode(v, s.keep)
		if err != nil {
			return wire.Response{Err: fmt.Sprintf("%s result %d: %v", req.Fn, i+1, err)}
		}
		resp.Ret = append(resp.Ret, raw)
	}
	return resp
}

// lookup finds the package function or the method a request names.
func (s *server) lookup(req wire.Request) (reflect.Value, error) {
	if req.Obj == 0 {
		f, ok := s.api.Funcs[req.Fn]
		if !ok {
			return reflect.Value{}, fmt.Errorf("no function %q", req.Fn)
		}
		return reflect.ValueOf(f), nil
	}
	o, ok := s.objects[req.Obj]
	if !ok {
		return reflect.Value{}, fmt.Errorf("no object %d", req.Obj)
	}
	m := o.MethodByName(req.Fn)
	if !m.IsValid() {
		return reflect.Value{}, fmt.Errorf("object %d has no method %q", req.Obj, req.Fn)
	}
	return m, nil
}

// keep stores an object and returns its handle, forgetting the oldest.
func (s *server) keep(v reflect.Value) wire.Obj {
	s.next++
	s.objects[s.next] = v
	delete(s.objects, s.next-maxObjects)
	return s.next
}

// call calls fn, returning its results or its panic's message.
func call(fn reflect.Value, args []reflect.Value) (ret []reflect.Value, panicked *string) {
	defer func() {
		if r := recover(); r != nil {
			m := message(r)
			panicked = &m
		}
	}()
	return fn.Call(args), nil
}

// message is a panic value as text, cut to wire.MaxPanic bytes.
func message(r any) (m string) {
	defer func() {
		if recover() != nil {
			m = "(a panic whose value could not be printed)"
		}
	}()
	m = fmt.Sprint(r)
	if len(m) > wire.MaxPanic {
		m = m[:wire.MaxPanic] + fmt.Sprintf("… (%d bytes in all)", len(m))
	}
	return m
}

func (s *server) bench(req wire.Request) wire.Response {
	loop, ok := s.api.Bench[req.Bench]
	if !ok {
		return wire.Response{Err: fmt.Sprintf("no benchmark %q", req.Bench)}
	}
	n, err := strconv.Atoi(req.N)
	if err != nil || n < 1 {
		return wire.Response{Err: fmt.Sprintf("bad iteration count %q", req.N)}
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	var digest uint64
	ret, msg := call(reflect.ValueOf(func() uint64 { return loop(n) }), nil)
	wall := time.Since(start)
	runtime.ReadMemStats(&after)
	if msg != nil {
		return wire.Response{Panic: msg}
	}
	digest = ret[0].Uint()
	return wire.Response{
		Digest: strconv.FormatUint(digest, 10),
		Allocs: strconv.FormatUint(after.Mallocs-before.Mallocs, 10),
		WallNs: strconv.FormatInt(wall.Nanoseconds(), 10),
	}
}
