package harness

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"reflect"
	"runtime"
	"strconv"
	"sync"
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
	// Bench are the benchmark loops by name (e.g. "learner", "reference").
	// Given a run's seed, a loop builds its state and draws its traffic
	// from the seed, and returns the run: each call of it makes the next n
	// iterations and returns a digest of their decisions (see check.Loop).
	Bench map[string]func(seed uint64) func(n int) uint64
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
	out := &answers{out: bufio.NewWriterSize(os.Stdout, 64<<10)}
	os.Stdout = os.Stderr // what learner code prints is output, not protocol
	in := bufio.NewReaderSize(os.Stdin, 64<<10)
	s := newServer(api)
	out.line([]byte(wire.Hello))
	out.flush()
	for {
		line, err := wire.ReadLine(in)
		if err != nil {
			return // the grader closed the stream, or sent a line too long
		}
		switch req, err := wire.ParseRequest(line); {
		case err != nil:
			out.line(answerLine(wire.Response{Err: "bad request: " + err.Error()}))
		case req.Ahead != nil:
			stop := out.flushing()
			s.ahead(req, out.line)
			stop()
		default:
			out.line(answerLine(s.serve(req)))
		}
		if out.flush() != nil {
			os.Exit(3) // the grader went away
		}
	}
}

// answers is the child's answer stream.
type answers struct {
	mu  sync.Mutex
	out *bufio.Writer
	// batch, once made, tells the flusher goroutine (see flushing) that
	// calls sent ahead are being made (true) or are done (false).
	batch chan bool
}

// line writes one answer line.
func (a *answers) line(b []byte) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.out.Write(b)
	a.out.WriteByte('\n')
}

// flush writes out the lines held.
func (a *answers) flush() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.out.Flush()
}

// flushing writes out the lines held every wire.FlushEvery until stop is
// called: while calls sent ahead are made, a call that runs long (or never
// returns) does not keep the answers of the calls before it from the
// grader, which then waits for it as for a call sent alone. One goroutine,
// started at the first batch, does it for every batch.
func (a *answers) flushing() (stop func()) {
	if a.batch == nil {
		a.batch = make(chan bool)
		go func() {
			t := time.NewTicker(wire.FlushEvery)
			t.Stop()
			for {
				select {
				case on := <-a.batch:
					if on {
						t.Reset(wire.FlushEvery)
					} else {
						t.Stop()
					}
				case <-t.C:
					a.flush()
				}
			}
		}()
	}
	a.batch <- true
	return func() { a.batch <- false }
}

type server struct {
	api     API
	objects map[wire.Obj]reflect.Value
	next    wire.Obj
	methods map[method]int // the index of each method called, by receiver type and name
	// kept are the handles of the objects kept, up to maxObjects: once
	// full, a ring whose oldest, the next to forget, is kept[oldest].
	kept   []wire.Obj
	oldest int
	// prepared is the benchmark run Prepare built, for the Bench request
	// that follows it; loop is its loop's name.
	prepared func(n int) uint64
	loop     string
}

func newServer(api API) *server {
	return &server{api: api, objects: map[wire.Obj]reflect.Value{}, methods: map[method]int{}}
}

func (s *server) serve(req wire.Request) wire.Response {
	switch {
	case req.Prepare != "":
		return s.prepare(req)
	case req.Bench != "":
		return s.bench(req)
	case req.Ahead != nil:
		return wire.Response{Err: "calls sent ahead are answered a line a call"}
	}
	return s.call(req)
}

// call makes the call req names.
func (s *server) call(req wire.Request) wire.Response {
	resp, _ := s.callWith(req, nil)
	return resp
}

// callWith makes the call req names, and returns its results too, as
// values, when it returned. given, if not nil, are the values req.Args
// encode (a call made in this process): each one the wire gives back as it
// is (see wire.Transparent) is passed as it is, not decoded.
func (s *server) callWith(req wire.Request, given []any) (wire.Response, []reflect.Value) {
	fn, err := s.lookup(req)
	if err != nil {
		return wire.Response{Err: err.Error()}, nil
	}
	t := fn.Type()
	if t.NumIn() != len(req.Args) || t.IsVariadic() {
		return wire.Response{Err: fmt.Sprintf("%s takes %d arguments, got %d", req.Fn, t.NumIn(), len(req.Args))}, nil
	}
	args := make([]reflect.Value, len(req.Args))
	for i, raw := range req.Args {
		if i < len(given) {
			if v := reflect.ValueOf(given[i]); v.IsValid() && v.Type() == t.In(i) && wire.Transparent(v) {
				args[i] = v
				continue
			}
		}
		args[i] = reflect.New(t.In(i)).Elem()
		if err := wire.Decode(raw, args[i]); err != nil {
			return wire.Response{Err: fmt.Sprintf("%s argument %d: %v", req.Fn, i+1, err)}, nil
		}
	}
	ret, msg := call(fn, args)
	if msg != nil {
		return wire.Response{Panic: msg}, nil
	}
	var resp wire.Response
	for i, v := range ret {
		raw, err := wire.Encode(v, s.keep)
		if err != nil {
			return wire.Response{Err: fmt.Sprintf("%s result %d: %v", req.Fn, i+1, err)}, nil
		}
		resp.Ret = append(resp.Ret, raw)
	}
	return resp, ret
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
	key := method{o.Type(), req.Fn}
	i, ok := s.methods[key]
	if !ok {
		m, found := o.Type().MethodByName(req.Fn)
		if !found || o.Kind() != reflect.Interface && !m.IsExported() {
			return reflect.Value{}, fmt.Errorf("object %d has no method %q", req.Obj, req.Fn)
		}
		i = m.Index
		s.methods[key] = i
	}
	return o.Method(i), nil
}

// method names a method of a type.
type method struct {
	t    reflect.Type
	name string
}

// keep stores an object and returns its handle, forgetting the oldest
// once maxObjects are kept.
func (s *server) keep(v reflect.Value) wire.Obj {
	s.next++
	if len(s.kept) < maxObjects {
		s.kept = append(s.kept, s.next)
	} else {
		delete(s.objects, s.kept[s.oldest])
		s.kept[s.oldest] = s.next
		s.oldest = (s.oldest + 1) % maxObjects
	}
	s.objects[s.next] = v
	return s.next
}

// ahead makes the calls sent ahead, in order, until one's answer is not
// the expected one (see wire.Request.Ahead), giving emit the answer line
// of each call it makes, then the line that says how many it made.
func (s *server) ahead(req wire.Request, emit func([]byte)) {
	fail := func(msg string) { emit(answerLine(wire.Response{Err: msg})) }
	if len(req.Expect) != len(req.Ahead) {
		fail(fmt.Sprintf("%d calls sent ahead with %d answers", len(req.Ahead), len(req.Expect)))
		return
	}
	if req.Base != 0 {
		if req.Base <= s.next {
			fail(fmt.Sprintf("objects of calls sent ahead from handle %d, which is given already", req.Base))
			return
		}
		s.next = req.Base - 1
	}
	made := 0
	for i, line := range req.Ahead {
		r, err := wire.ParseRequest(line)
		if err != nil || r.Fn == "" {
			fail(fmt.Sprintf("call %d sent ahead is not a call", i+1))
			return
		}
		b := answerLine(s.call(r))
		emit(b)
		made++
		if !bytes.Equal(b, req.Expect[i]) {
			break
		}
	}
	emit(answerLine(wire.Response{Stop: strconv.Itoa(made)}))
}

// answerLine is resp as one line of the protocol, without its newline.
func answerLine(resp wire.Response) []byte {
	b, err := wire.AppendAnswer(nil, resp)
	if err != nil {
		b, _ = json.Marshal(wire.Response{Err: "unencodable result: " + err.Error()})
	}
	return b
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

// prepare builds the run of a benchmark loop that the next Bench request
// measures: the loop's state and traffic (from req.Seed), then req.N
// warm-up iterations, so that the structures the traffic needs have grown
// to their size before anything is counted; then it collects the garbage
// all that left, so that none of it is collected on the run's time.
func (s *server) prepare(req wire.Request) wire.Response {
	s.prepared, s.loop = nil, ""
	loop, ok := s.api.Bench[req.Prepare]
	if !ok {
		return wire.Response{Err: fmt.Sprintf("no benchmark %q", req.Prepare)}
	}
	seed, err := strconv.ParseUint(req.Seed, 10, 64)
	if err != nil {
		return wire.Response{Err: fmt.Sprintf("bad seed %q", req.Seed)}
	}
	warm, err := strconv.Atoi(req.N)
	if err != nil || warm < 0 {
		return wire.Response{Err: fmt.Sprintf("bad warm-up count %q", req.N)}
	}
	var run func(int) uint64
	_, msg := call(reflect.ValueOf(func() {
		run = loop(seed)
		if warm > 0 {
			run(warm)
		}
	}), nil)
	runtime.GC()
	if msg != nil {
		return wire.Response{Panic: msg}
	}
	s.prepared, s.loop = run, req.Prepare
	return wire.Response{}
}

// bench makes req.N iterations of the run Prepare built, once, and
// answers with their digest, the heap allocations they made (counted
// around them alone) and their time by the child's own clock; with
// req.Profile set, also the lines of that package they allocated at (see
// profiled).
func (s *server) bench(req wire.Request) wire.Response {
	run := s.prepared
	if run == nil || s.loop != req.Bench {
		return wire.Response{Err: fmt.Sprintf("no run of benchmark %q prepared", req.Bench)}
	}
	s.prepared, s.loop = nil, ""
	n, err := strconv.Atoi(req.N)
	if err != nil || n < 1 {
		return wire.Response{Err: fmt.Sprintf("bad iteration count %q", req.N)}
	}
	var before, after runtime.MemStats
	var digest uint64
	var msg *string
	var sites []wire.Site
	runtime.ReadMemStats(&before)
	start := time.Now()
	if req.Profile != "" {
		digest, msg, sites = profiled(run, n, req.Profile)
	} else {
		digest, msg = measured(run, n)
	}
	wall := time.Since(start)
	runtime.ReadMemStats(&after)
	if msg != nil {
		return wire.Response{Panic: msg}
	}
	return wire.Response{
		Digest: strconv.FormatUint(digest, 10),
		Allocs: strconv.FormatUint(after.Mallocs-before.Mallocs, 10),
		WallNs: strconv.FormatInt(wall.Nanoseconds(), 10),
		Sites:  sites,
	}
}

// measured makes n iterations of run, returning their digest or the
// panic's message. Unlike call, it allocates nothing of its own (no
// reflection), so that the allocations counted around it are the loop's.
func measured(run func(int) uint64, n int) (digest uint64, panicked *string) {
	defer func() {
		if r := recover(); r != nil {
			m := message(r)
			panicked = &m
		}
	}()
	return run(n), nil
}
