package grader

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"ratelab/grader/check"
	"ratelab/grader/report"
	"ratelab/grader/sandbox"
	"ratelab/grader/wire"
)

// child is the grading child process of one exercise, as the checks in the
// grader's process see it: a check.Remote. It is started at the first call
// and again at the first call after it was lost.
//
// Every wait on it has a deadline (the running check's), every call a
// limit of CPU time (callCPULimit), every read from it is bounded
// (wire.MaxLine a line), and when it is lost (a deadline or a limit passed,
// it crashed, it broke the protocol, the grading was cancelled) its whole
// process group is killed, its pipes closed and its exit waited for once,
// before anything else happens, so a stuck pipe can never hold the grader.
type child struct {
	ctx      context.Context
	bin      string
	exercise string
	dir      string           // its working folder
	sandbox  *sandbox.Sandbox // nil on a learner's own machine
	// limit is the check's time (see arm); waited, how much of it the
	// check's calls have taken so far.
	limit  time.Duration
	waited time.Duration
	// hangs is how many more calls of the running check may run past
	// their CPU limit and be reported to it as a check.Hang (the process
	// stopped, the next call starting another) instead of losing the
	// child for the rest of the check (see hang).
	hangs int
	// hard is the deadline no load extends (see overtime): what is left
	// of hardFactor times limit, from the start of the call out.
	hard time.Time
	// checkCPU is the child's CPU time when the check began (or 0 for a
	// child started during it), if known (checkCPUKnown).
	checkCPU      time.Duration
	checkCPUKnown bool
	// cpu reads the CPU time of a process (cpuUsed; tests replace it).
	cpu func(pid int) (time.Duration, bool)
	// callLimit is the CPU time one call may take (see callCPULimit).
	callLimit time.Duration
	// params are the parameters' names of the exercise's functions and
	// methods, by name (see paramNames), for naming a call that did not
	// return; nil writes its arguments without names.
	params map[string][]string
	// pkg is the import path of the learner's package the child serves,
	// and files its files (see sourceFiles): where a profiled benchmark
	// run's allocations may be charged (see Profile). Without them, no
	// run is profiled.
	pkg   string
	files map[string]sourceFile

	cmd *exec.Cmd
	in  *os.File // its standard input, our end
	out *os.File // its standard output, our end
	// direct is set where answers are read where they are awaited (Unix:
	// see answerPipe and readDirect), through pending, which holds what
	// was read past the last line, from from on. Elsewhere (Windows) a
	// reader goroutine passes lines on through the channel lines.
	direct  bool
	pending []byte
	from    int
	skipped int           // bytes read before the hello, which are skipped
	lines   chan []byte   // lines read from out, closed when reading stops
	quit    chan struct{} // closed to stop the reader
	reader  sync.WaitGroup
	err     error         // why reading stopped; set before lines is closed
	wake    *time.Timer   // the waits' timer, where the reader goroutine reads
	exited  chan struct{} // closed once the process has exited and been waited for
	// serving is set once the process said hello: its init functions are
	// done, and the time it takes from then on is the calls'.
	serving atomic.Bool
	output  *excerpt
	lost    *lostError
	// Calls sent ahead (see check.Ahead and SendAhead): base is the handle
	// the objects of the latest calls sent ahead were numbered from;
	// noAhead, that no calls are sent ahead (Options.OneByOne).
	base    wire.Obj
	noAhead bool
	// batch are the calls sent ahead that the process is making, or has
	// made, whose answers the replay has not asked for yet, in order; the
	// process makes them until one answers otherwise than expected.
	// later are the calls recorded for the replay not yet sent (they are
	// sent a batch at a time); again, the replay's way to foresee its
	// next calls from the answers it was given so far (see
	// check.Ahead.SendAhead); fresh, that no batch was sent since
	// SendAhead, whose base the first one carries.
	batch, later []sentAhead
	again        func(given []json.RawMessage) (calls, answers []json.RawMessage)
	given        []json.RawMessage
	fresh        bool
	made         int // calls of the batch out answered so far
	// counts, if not nil, is told what the child was asked (see Counts).
	counts *Counts
}

// sentAhead is a call sent ahead: its request line and the answer line
// expected of it.
type sentAhead struct{ call, expect []byte }

// lostError says why the child was lost during a check.
type lostError struct {
	kind   lostKind
	detail string
	// call is, for a timeout, the call that had not returned, as the
	// report writes calls ("TryAcquire(nowNs=1000, n=1)"); cpu is the
	// limit of CPU time it ran past, or 0 if the check's deadline came
	// first; blocked, that it was not running then (it waited); whole,
	// that it had used little of it: the check's calls used the check's
	// time together.
	call    string
	cpu     time.Duration
	blocked bool
	whole   bool
}

type lostKind int

const (
	lostTimeout  lostKind = iota // a call's CPU limit, or the check's deadline, passed
	lostCrash                    // the process exited, or its stream ended
	lostProtocol                 // it answered something that is not an answer
	lostStart                    // it could not be started
	lostCanceled                 // the grading was cancelled
)

// Timeout reports whether the child was lost to a call that did not
// return: a replay then records that call as one (see check.Hang).
func (l *lostError) Timeout() bool { return l.kind == lostTimeout }

func (l *lostError) Error() string {
	if l.kind == lostTimeout && l.call != "" {
		return l.call + " did not return"
	}
	return l.detail
}

// fault is whose fault it is that the child was lost: the server's when it
// could not be started, else the learner's code's (it crashed, broke the
// protocol or did not return).
func (l *lostError) fault() report.Fault {
	if l.kind == lostStart {
		return report.FaultServer
	}
	return report.FaultCode
}

// callCPULimit is the CPU time one call of the learner's code may take
// unless Options.CallCPULimit says otherwise:
// past it, the call is one that does not return (an endless loop, or work
// that grows with its arguments), and the check reports a timeout naming
// it. It is CPU time, the kernel's count for the child, not time on the
// clock, so that a busy machine, which only makes the call wait for the
// CPU, cannot make an honest call time out. Every call the checks make
// takes microseconds; two seconds is a bound no correct code comes near.
const callCPULimit = 2 * time.Second

// benchCPULimit is callCPULimit for one request of a benchmark run (its
// setup and warm-up, or its measured iterations), which makes up to
// hundreds of thousands of calls: generous, since the benchmark's own
// time is what judges a slow loop.
const benchCPULimit = 30 * time.Second

// cpuPoll is how often a call that has not returned has the child's CPU
// time read. The first reading is the call's baseline, so a call is
// stopped after using at least its limit (and at most cpuPoll more).
const cpuPoll = 100 * time.Millisecond

func newChild(ctx context.Context, bin, exercise, dir string, sb *sandbox.Sandbox) *child {
	return &child{ctx: ctx, bin: bin, exercise: exercise, dir: dir, sandbox: sb, cpu: cpuUsed, callLimit: callCPULimit}
}

// arm sets the time of the check about to run: the time its calls may
// take together, on the clock while each is out (see roundTrip). The
// grader's own work between calls (the models, shrinking, diagnosis) is
// not the learner's code's, and does not count: on a busy machine it can
// take many times longer than it does on a quiet one.
func (c *child) arm(limit time.Duration) {
	now := time.Now()
	c.limit, c.waited = limit, 0
	c.hard = now.Add(hardFactor * limit)
	c.checkCPU, c.checkCPUKnown = 0, false
	if c.cmd != nil {
		c.checkCPU, c.checkCPUKnown = c.cpu(c.cmd.Process.Pid)
	}
}

// hardFactor is how many times its deadline a check may take, on the
// clock, when the machine is so busy that the child did not get the
// CPU time the deadline stands for (see overtime).
const hardFactor = 3

// takeLost returns why the child was lost during the last check, if it was,
// and forgets it: the next call starts a new child.
func (c *child) takeLost() *lostError {
	l := c.lost
	c.lost = nil
	return l
}

// start starts the process and waits for its hello.
func (c *child) start() error {
	inR, inW, err := os.Pipe()
	if err != nil {
		return err
	}
	outR, outW, direct, err := answerPipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return err
	}
	cmd := exec.Command(c.bin, "-exercise", c.exercise)
	cmd.Dir = c.dir
	cmd.Stdin, cmd.Stdout = inR, outW
	c.output = &excerpt{max: 4096}
	cmd.Stderr = c.output
	// GOMAXPROCS=1: the loops run on one thread, so a benchmark's CPU
	// time does not depend on how many cores are idle.
	cmd.Env = append(os.Environ(), "GOMAXPROCS=1")
	cmd.WaitDelay = time.Second // a grandchild holding stderr cannot hold Wait
	sandbox.OwnGroup(cmd)
	if c.sandbox != nil {
		if err := c.sandbox.Confine(cmd, c.dir); err != nil {
			inR.Close()
			inW.Close()
			outR.Close()
			outW.Close()
			return fmt.Errorf("could not prepare the sandbox: %w", err)
		}
	}
	err = cmd.Start()
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return err
	}
	c.cmd, c.in, c.out = cmd, inW, outR
	c.lines, c.quit, c.err = make(chan []byte, 1), make(chan struct{}), nil
	c.serving.Store(false)
	c.checkCPU, c.checkCPUKnown = 0, true // a new process: all its CPU time is this check's
	c.exited = make(chan struct{})
	c.direct = direct && readDirectly
	c.skipped = 0
	if c.direct {
		c.pending, c.from = c.pending[:0], 0
	} else {
		c.reader.Add(1)
		go c.read()
	}
	go func() {
		cmd.Wait() // the only Wait: it reaps the process and ends the stderr copy
		if ps := cmd.ProcessState; ps != nil {
			c.counts.childExited(ps.UserTime() + ps.SystemTime())
		}
		close(c.exited)
	}()
	return nil
}

// read passes the child's lines on, after its hello, until the stream ends,
// a line is too long, or stop asks it to quit.
func (c *child) read() {
	defer c.reader.Done()
	defer close(c.lines)
	r := bufio.NewReaderSize(c.out, 64<<10)
	for {
		line, err := wire.ReadLine(r)
		if errors.Is(err, wire.ErrLongLine) {
			err = errLongLine
		}
		if err != nil {
			c.err = err
			return
		}
		if answer, err := c.isAnswer(line); err != nil {
			c.err = err
			return
		} else if !answer {
			continue
		}
		select {
		case c.lines <- line:
		case <-c.quit:
			return
		}
	}
}

// isAnswer reports whether line, read from the child, is an answer: a line
// after its hello. The lines before it (learner init functions run before
// the harness and may print) are skipped, up to wire.MaxLine bytes in all.
func (c *child) isAnswer(line []byte) (bool, error) {
	if c.serving.Load() {
		return true, nil
	}
	if string(line) == wire.Hello {
		c.serving.Store(true)
		return false, nil
	}
	if c.skipped += len(line); c.skipped > wire.MaxLine {
		return false, errors.New("no hello from the grading program")
	}
	return false, nil
}

// errLongLine is a line on the answer stream longer than wire.MaxLine.
var errLongLine = fmt.Errorf("the grading program wrote a line of more than %d bytes on its answer stream", wire.MaxLine)

// stop kills the child's process group, closes its pipes, ends the reader
// and waits for the process, once.
func (c *child) stop() {
	if c.cmd == nil {
		return
	}
	sandbox.KillGroup(c.cmd)
	close(c.quit)
	c.in.Close()
	c.out.Close()
	c.reader.Wait()
	<-c.exited
	c.cmd = nil
	c.endAhead()
}

// fail loses the child for the rest of the check and unwinds the call.
func (c *child) fail(kind lostKind, detail string) {
	c.lose(kind, detail)
	panic(c.lost)
}

// lose loses the child for the rest of the check: the next call panics.
func (c *child) lose(kind lostKind, detail string) {
	c.lost = &lostError{kind: kind, detail: detail}
	c.stop()
}

// crashed loses the child after its stream ended or went wrong, with what
// it wrote on standard error.
func (c *child) crashed() {
	c.stop()
	msg := c.output.String()
	if c.err != nil && !errors.Is(c.err, io.EOF) && !errors.Is(c.err, os.ErrClosed) {
		msg = c.err.Error() + "\n" + msg
	}
	c.fail(lostCrash, strings.TrimSpace(msg))
}

// roundTrip sends line, a request, and returns the answer, within the
// check's deadline and, where this OS tells the child's CPU time
// (cpuUsed), within cpuLimit of the child's CPU time: past either, the
// child is lost to a timeout, with what() naming what it had not finished.
func (c *child) roundTrip(line []byte, what func() string, cpuLimit time.Duration) wire.Response {
	start := c.send(line, what)
	return c.answer(c.receive(start, what, cpuLimit))
}

// send sends line, a request, starting the process if need be, and
// returns when it began, which the wait for its answer counts from.
func (c *child) send(line []byte, what func() string) time.Time {
	if c.lost != nil {
		panic(c.lost)
	}
	start := time.Now()
	c.hard = start.Add(hardFactor*c.limit - c.waited)
	if c.cmd == nil {
		if err := c.start(); err != nil {
			c.fail(lostStart, err.Error())
		}
	}
	// A request is one line, which the pipe takes at once unless the
	// child stopped reading; the write waits at most until the hard
	// deadline (not every platform's pipes have deadlines: the reader's
	// timer below still holds).
	c.in.SetWriteDeadline(c.hard)
	c.counts.trip()
	if _, err := c.in.Write(append(line, '\n')); err != nil {
		if time.Now().After(c.hard) {
			c.timedOut(what(), 0)
		}
		c.crashed()
	}
	return start
}

// receive waits for the child's next line, the answer to what() (a call,
// sent by itself or ahead), within the check's deadline and cpuLimit of
// the child's CPU time, as roundTrip says. The check's clock runs from
// start, when the request went out (for a call sent ahead, when the replay
// asked for it): its deadline and hard deadline are what is left of them.
// An answer adds its time to the check's; a call that loses the process
// ends the check.
func (c *child) receive(start time.Time, what func() string, cpuLimit time.Duration) []byte {
	if c.lost != nil {
		panic(c.lost)
	}
	due := start.Add(c.limit - c.waited)
	c.hard = start.Add(hardFactor*c.limit - c.waited)
	got := func(line []byte, ok bool) []byte {
		c.waited += time.Since(start)
		if !ok {
			c.crashed()
		}
		// A line read directly is a part of what the next read moves:
		// the answers of a batch are kept past it (see answered).
		return bytes.Clone(line)
	}
	poll := time.Now().Add(cpuPoll)
	var call callWatch // the child's CPU time at the call's first poll
	for {
		line, ev := c.await(earlier(due, poll))
		switch ev {
		case gotLine:
			return got(line, true)
		case streamEnded:
			return got(nil, false)
		case canceled:
			c.fail(lostCanceled, c.ctx.Err().Error())
		}
		now := time.Now()
		if !now.Before(poll) {
			// The call is taking long: how much CPU has it used? (Not
			// counting the program's start: its init functions are no
			// call's, and the check's deadline bounds them.)
			if used, ok := c.cpu(c.cmd.Process.Pid); ok && c.serving.Load() {
				if !call.known {
					call = callWatch{base: used, cpu: used, at: now, known: true}
				} else if used-call.base >= cpuLimit {
					c.timedOut(what(), cpuLimit)
				}
			}
			poll = now.Add(cpuPoll)
		}
		if now.Before(due) {
			continue
		}
		if !c.serving.Load() {
			// It has not started serving: its init functions run. As for
			// a call, the deadline stands for CPU time where this OS
			// tells it, so that a busy machine cannot turn a slow start
			// (a program touching its memory until it runs out) into a
			// timeout; never past the hard deadline.
			if used, ok := c.cpu(c.cmd.Process.Pid); ok && c.checkCPUKnown && now.Before(c.hard) && used-c.checkCPU < c.limit {
				due = now.Add(min(max(c.limit-(used-c.checkCPU), cpuPoll), c.hard.Sub(now)))
				continue
			}
			c.fail(lostTimeout, "") // it never started serving: no call to name
		}
		wait, why, over := c.overtime(&call)
		if over {
			c.lost = &lostError{kind: lostTimeout, call: what(), blocked: why == overBlocked, whole: why == overWhole}
			c.stop()
			panic(c.lost)
		}
		due = now.Add(wait)
	}
}

// readDirectly lets a child read its answers where they are awaited where
// answerPipe allows it; tests turn it off to test the reader goroutine that
// other platforms use.
var readDirectly = true

// earlier returns the earlier of two times.
func earlier(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

// event is what await saw.
type event int

const (
	gotLine     event = iota // an answer
	woke                     // the time it was given came first
	streamEnded              // the answers ended: the process exited, or its stream broke
	canceled                 // the grading was cancelled
)

// await waits, until the time until at the latest, for the child's next
// line after its hello.
func (c *child) await(until time.Time) ([]byte, event) {
	if c.ctx.Err() != nil {
		return nil, canceled
	}
	if c.direct {
		return c.readDirect(until)
	}
	if c.wake == nil {
		c.wake = time.NewTimer(time.Until(until))
	} else {
		c.wake.Reset(time.Until(until))
	}
	defer c.wake.Stop()
	select {
	case line, ok := <-c.lines:
		if !ok {
			return nil, streamEnded
		}
		return line, gotLine
	case <-c.exited:
		// It exited (os.Exit, a fatal error), perhaps with a grandchild
		// still holding its output open: its last answer, if any, is in
		// the pipe already.
		select {
		case line, ok := <-c.lines:
			if ok {
				return line, gotLine
			}
		case <-time.After(100 * time.Millisecond):
		}
		return nil, streamEnded
	case <-c.wake.C:
		// An answer there already is taken (select chooses at random
		// among what is ready): see readDirect.
		select {
		case line, ok := <-c.lines:
			if !ok {
				return nil, streamEnded
			}
			return line, gotLine
		default:
			return nil, woke
		}
	case <-c.ctx.Done():
		return nil, canceled
	}
}

// readDirect reads the child's next line after its hello from out, as read
// does for the channel, waiting until the time until at the latest. It
// waits in slices of at most cancelPoll, so that a cancelled grading is
// noticed within one.
func (c *child) readDirect(until time.Time) ([]byte, event) {
	for {
		if i := bytes.IndexByte(c.pending[c.from:], '\n'); i >= 0 {
			line := bytes.TrimSuffix(c.pending[c.from:c.from+i], []byte("\r"))
			c.from += i + 1
			answer, err := c.isAnswer(line)
			if err != nil {
				c.err = err
				return nil, streamEnded
			}
			if answer {
				return line, gotLine
			}
			continue
		}
		if len(c.pending)-c.from > wire.MaxLine {
			c.err = errLongLine
			return nil, streamEnded
		}
		if c.ctx.Err() != nil {
			return nil, canceled
		}
		// Past the time given, the pipe is still looked at once: a grader
		// that did not get the CPU until then (a busy machine) must not
		// take an answer that is there for one that did not come.
		wait := max(time.Until(until), 0)
		ready, err := waitReadable(c.out, min(wait, cancelPoll))
		if err != nil {
			c.err = err
			return nil, streamEnded
		}
		if !ready && wait == 0 {
			select {
			case <-c.exited:
				// It exited with a grandchild holding its output open:
				// nothing more will come.
				return nil, streamEnded
			default:
				return nil, woke
			}
		}
		if !ready {
			continue
		}
		// Keep the line's start, make room, read what is there.
		c.pending = c.pending[:copy(c.pending, c.pending[c.from:])]
		c.from = 0
		c.pending = slices.Grow(c.pending, 64<<10)
		n, err := c.out.Read(c.pending[len(c.pending):cap(c.pending)])
		c.pending = c.pending[:len(c.pending)+n]
		if n == 0 {
			if err == nil {
				err = io.EOF
			}
			c.err = err
			return nil, streamEnded
		}
	}
}

// cancelPoll is the longest a direct read waits before it looks whether
// the grading was cancelled.
const cancelPoll = 50 * time.Millisecond

// overtime decides, when the check's deadline has passed during a call,
// whether the check is over. The deadline stands for the child's CPU time
// where this OS tells it (cpuUsed): on a machine so busy that the child got
// less of the CPU than that in the time, the check goes on until the child
// has used it, so that the load cannot turn a slow check into a timeout;
// but never past the hard deadline (hardFactor times the check's), and not
// for a call that is not running (blocked: waiting on a lock, a channel or
// a sleep, which no CPU time ends; a process that can run gets more than
// 1% of a CPU however busy the machine, the Go runtime's own upkeep far
// less). call is what the call's polls read, which overtime starts if no
// poll has yet, and brings up to date. It returns how long to wait before
// asking again, or that the check is over, and why.
func (c *child) overtime(call *callWatch) (wait time.Duration, why overWhy, over bool) {
	now := time.Now()
	used, ok := c.cpu(c.cmd.Process.Pid)
	// Over: is it this call's doing, or that of the calls before it?
	whose := overCall
	if ok && (!call.known || used-call.base < c.callLimit/2) {
		whose = overWhole
	}
	if !now.Before(c.hard) || !ok || !c.checkCPUKnown || used-c.checkCPU >= c.limit {
		return 0, whose, true
	}
	if !call.known {
		*call = callWatch{base: used, cpu: used, at: now, known: true}
		return min(time.Second, c.hard.Sub(now)), 0, false
	}
	// The kernel counts CPU time in ticks (10 ms): a look too soon after
	// the last one may find none even on a call that runs, on a busy
	// machine. A call is judged not running only over blockedWindow.
	if since := now.Sub(call.at); since < blockedWindow {
		return min(blockedWindow-since, c.hard.Sub(now)), 0, false
	} else if used-call.cpu < since/100 {
		return 0, overBlocked, true
	}
	call.cpu, call.at = used, now // running: the next look asks whether it still is
	return min(max(c.limit-(used-c.checkCPU), time.Second), c.hard.Sub(now)), 0, false
}

// blockedWindow is the least time over which overtime judges whether a
// call is running: a hundredth of it is one tick of the kernel's count of
// CPU time.
const blockedWindow = time.Second

// overWhy is why overtime ended a check.
type overWhy int

const (
	overCall    overWhy = iota + 1 // the call running had not returned
	overBlocked                    // the call running was not running: it waited
	overWhole                      // the check's calls took its time together
)

// callWatch is what the polls of one call read of the child's CPU time:
// base at the first, cpu at the latest, at when.
type callWatch struct {
	base, cpu time.Duration
	at        time.Time
	known     bool
}

// timedOut loses the child to a timeout of call, past cpu of CPU time (0:
// past the check's deadline).
func (c *child) timedOut(call string, cpu time.Duration) {
	c.lost = &lostError{kind: lostTimeout, call: call, cpu: cpu}
	c.stop()
	panic(c.lost)
}

// answer decodes one line from the child as its answer.
func (c *child) answer(line []byte) wire.Response {
	resp, err := wire.ParseAnswer(line)
	if err != nil {
		c.fail(lostProtocol, fmt.Sprintf("the grading program answered something that is not an answer (%v): %.200q", err, line))
	}
	if resp.Err != "" {
		c.fail(lostProtocol, "the grading program could not make the call: "+resp.Err)
	}
	return resp
}

// Call implements check.Remote.
func (c *child) Call(obj wire.Obj, fn string, args []any, out ...any) {
	defer c.hang()
	raw, err := wire.Args(args)
	if err != nil {
		c.fail(lostProtocol, "the grader could not encode a call: "+err.Error())
	}
	line := wire.AppendCall(nil, obj, fn, raw)
	what := func() string { return callText(fn, args, c.params[fn]) }
	var answer []byte
	ahead := c.lost == nil && c.sendsAhead(line)
	c.counts.call(ahead)
	if ahead {
		answer = c.answered(line, what)
	} else {
		answer = c.receive(c.send(line, what), what, c.callLimit)
	}
	if c.again != nil {
		c.given = append(c.given, answer)
	}
	resp := c.answer(answer)
	if resp.Panic != nil {
		panic(*resp.Panic)
	}
	if err := wire.Results(resp.Ret, out); err != nil {
		c.fail(lostProtocol, fmt.Sprintf("the grading program answered %s with %v", fn, err))
	}
}

// hang, deferred by Call, turns the loss of the child to the call's own
// CPU limit into a check.Hang while the check may meet one more (hangs):
// the process is stopped already, and the next call starts another, so
// that the check can report which call did not return and go on with
// scripts that do not reach it. Any other loss, or one past hangs, stays
// what it was.
func (c *child) hang() {
	r := recover()
	if r == nil {
		return
	}
	if l, ok := r.(*lostError); ok && l == c.lost && l.kind == lostTimeout && l.cpu > 0 && c.hangs > 0 {
		c.hangs--
		c.lost = nil
		panic(check.Hang{Message: l.describe(c.limit)})
	}
	panic(r)
}

// Base implements check.Ahead: each replay's objects are numbered from a
// handle of their own, above every handle given before, so that the
// reference's replay numbers them as the process will. While calls sent
// ahead are still to be asked for (a whole check's, say), it is 0: the
// replays within are among them.
func (c *child) Base() wire.Obj {
	if c.noAhead || c.lost != nil || len(c.batch) > 0 || len(c.later) > 0 {
		return 0
	}
	c.base += 1 << 32
	return c.base
}

// SendAhead implements check.Ahead. The calls go out a batch at a time
// when the replay asks for the first of them (see sendsAhead), so that
// whatever happens to the process happens within a call, as it would to
// the call sent by itself.
func (c *child) SendAhead(calls, answers []json.RawMessage, again func(given []json.RawMessage) (calls, answers []json.RawMessage)) {
	c.endAhead()
	if c.lost != nil || c.noAhead {
		return
	}
	c.later, c.again, c.fresh = pairs(calls, answers), again, true
}

// pairs are calls with the answer expected of each.
func pairs(calls, answers []json.RawMessage) []sentAhead {
	out := make([]sentAhead, min(len(calls), len(answers)))
	for i := range out {
		out[i] = sentAhead{calls[i], answers[i]}
	}
	return out
}

// maxBatch bounds the bytes of the calls and answers of one batch, so
// that its request stays under wire.MaxLine.
const maxBatch = wire.MaxLine / 2

// sendsAhead reports whether line, the call the replay makes, is the next
// call of a batch, sending the next batch first if none is out: the next
// calls recorded, or, once the process answered otherwise than recorded,
// the calls again foresees from the answers given so far.
func (c *child) sendsAhead(line []byte) bool {
	if len(c.batch) > 0 {
		return true
	}
	if len(c.later) == 0 && c.again != nil {
		calls, answers := c.again(c.given)
		if len(calls) == 0 || !bytes.Equal(calls[0], line) {
			c.again = nil // it foresees nothing that fits: one by one
			return false
		}
		c.later = pairs(calls, answers)
	}
	if len(c.later) == 0 || !bytes.Equal(c.later[0].call, line) {
		c.later = nil
		return false
	}
	n, size := 0, 0
	for n < len(c.later) && (n == 0 || size+len(c.later[n].call)+len(c.later[n].expect)+2 <= maxBatch) {
		size += len(c.later[n].call) + len(c.later[n].expect) + 2
		n++
	}
	if size > maxBatch {
		c.later = nil // a call too long to send ahead: by itself
		return false
	}
	var calls, answers []json.RawMessage
	for _, p := range c.later[:n] {
		calls, answers = append(calls, p.call), append(answers, p.expect)
	}
	base := wire.Obj(0) // the objects of a replay's later batches go on from those before
	if c.fresh {
		base, c.fresh = c.base, false
	}
	c.batch, c.later = c.later[:n], c.later[n:]
	c.send(wire.AppendAhead(nil, calls, answers, base), func() string { return "the calls sent ahead" })
	return true
}

// answered returns the answer line of line, the next call of the batch
// out, waiting for it as for the call sent by itself (the time counted
// from now, when the replay asks for it). The process stops the batch at
// the first answer that is not the one expected: after it, or after the
// last, it says how many calls it made, which must be as many as it
// answered. The replay asks for the calls sent ahead in the order they
// were sent, as long as their answers are the reference's; anything else
// is the grader's own fault.
func (c *child) answered(line []byte, what func() string) []byte {
	if !bytes.Equal(line, c.batch[0].call) {
		c.fail(lostProtocol, outOfStep)
	}
	sent := c.batch[0]
	c.batch = c.batch[1:]
	c.made++
	answer := c.receive(time.Now(), what, c.callLimit)
	if other := !bytes.Equal(answer, sent.expect); other || len(c.batch) == 0 {
		if end := c.receive(time.Now(), what, c.callLimit); !bytes.Equal(end, stopLine(c.made)) {
			c.fail(lostProtocol, fmt.Sprintf("the grading program ended the answers of %d calls sent ahead with %.200q", c.made, end))
		}
		if other {
			if c.made == 1 && !c.fresh {
				c.again = nil // foreseen calls that are not: one by one
			}
			c.batch, c.later = nil, nil
		}
		c.made = 0
	}
	return answer
}

// stopLine is the line that ends the answers of n calls sent ahead.
func stopLine(n int) []byte {
	b, _ := wire.AppendAnswer(nil, wire.Response{Stop: strconv.Itoa(n)})
	return b
}

// EndAhead implements check.Ahead.
func (c *child) EndAhead() {
	if len(c.batch) > 0 {
		c.lose(lostProtocol, outOfStep)
	}
	c.endAhead()
}

// endAhead forgets the calls sent ahead.
func (c *child) endAhead() {
	c.batch, c.later, c.again, c.given, c.made = nil, nil, nil, nil, 0
}

// outOfStep says that a replay did not ask for the calls sent ahead as
// they were sent.
const outOfStep = "the grader's replay went out of step with the calls it had sent ahead: this is a fault of the grader, not of your code (please report it)"

// Bench implements check.Remote: the child runs the loop, the grader times
// it from outside, as the CPU time the kernel counted for the child's
// threads where the OS tells (see cpuTime), else by the child's own clock.
func (c *child) Bench(spec check.BenchSpec) check.BenchRun {
	// Prepare the run (also starts the child if need be): its state, its
	// traffic and its warm-up are not timed.
	setup := func() string {
		return fmt.Sprintf("the benchmark's setup and warm-up (%d calls, before its timed run)", spec.Warm)
	}
	resp := c.roundTrip(c.request(wire.Request{Prepare: spec.Loop, Seed: strconv.FormatUint(spec.Seed, 10), N: strconv.Itoa(spec.Warm)}), setup, benchCPULimit)
	if resp.Panic != nil {
		return check.BenchRun{Panic: &check.Panic{Value: *resp.Panic}}
	}
	pid := c.cmd.Process.Pid
	before, measured := cpuTime(pid)
	timed := func() string { return fmt.Sprintf("the benchmark's run of %d calls", spec.N) }
	resp = c.roundTrip(c.request(wire.Request{Bench: spec.Loop, N: strconv.Itoa(spec.N)}), timed, benchCPULimit)
	after, _ := cpuTime(pid)
	if resp.Panic != nil {
		return check.BenchRun{Panic: &check.Panic{Value: *resp.Panic}}
	}
	digest, err1 := strconv.ParseUint(resp.Digest, 10, 64)
	allocs, err2 := strconv.ParseUint(resp.Allocs, 10, 64)
	wall, err3 := strconv.ParseInt(resp.WallNs, 10, 64)
	if err := errors.Join(err1, err2, err3); err != nil {
		c.fail(lostProtocol, "the grading program's benchmark answer is not one: "+err.Error())
	}
	run := check.BenchRun{Digest: digest, Allocs: allocs}
	if measured {
		run.Time, run.Clock = after-before, "CPU time the kernel counted for the grading program, one thread (GOMAXPROCS=1)"
	} else {
		run.Time, run.Clock = time.Duration(wall), "the grading program's own clock (this OS does not give the grader its CPU time)"
	}
	return run
}

// profileCPULimit is callCPULimit for the profiled run of a benchmark
// (see Profile): recording every allocation makes each one slower, and
// the run is made for information alone, so it is given up sooner than a
// timed one.
const profileCPULimit = 10 * time.Second

// apart runs f, which talks to the process on no check's behalf, and
// reports whether it ended without losing the process. A loss is
// forgotten (the process is stopped, and the next call starts another)
// unless it is one the next call would meet again: the process cannot
// start, the grading was cancelled.
func (c *child) apart(f func()) (ok bool) {
	defer func() {
		if r := recover(); r != nil {
			l, lost := r.(*lostError)
			if !lost {
				panic(r)
			}
			if l.kind != lostStart && l.kind != lostCanceled {
				c.lost = nil
			}
			ok = false
		}
	}()
	f()
	return true
}

// Profile implements check.Profiler: the run is prepared as Bench prepares
// one, and made with Profile naming the learner's package, so that the
// child charges every allocation of it to the innermost line of that
// package on its stack. What the child answers is checked before it is
// passed on: at most wire.MaxSites lines, each a line of a file of the
// learner's package, with no more allocations in all than the run made;
// an answer that breaks any of it gives no lines.
// Like SendAhead, it never panics: if the child is lost on the way, the
// loss is forgotten, whatever it was, but for a cancelled grading: the
// check's verdict, made before, stands, and the next check meets what is
// wrong, if anything still is.
func (c *child) Profile(spec check.BenchSpec) []check.AllocRecord {
	if c.pkg == "" || len(c.files) == 0 || c.lost != nil {
		return nil
	}
	var sites []check.AllocRecord
	if !c.apart(func() { sites = c.profile(spec) }) && c.lost != nil && c.lost.kind != lostCanceled {
		c.lost = nil
	}
	return sites
}

// profile makes the profiled run of Profile.
func (c *child) profile(spec check.BenchSpec) []check.AllocRecord {
	setup := func() string { return "the profiled benchmark run's setup and warm-up" }
	resp := c.roundTrip(c.request(wire.Request{Prepare: spec.Loop, Seed: strconv.FormatUint(spec.Seed, 10), N: strconv.Itoa(spec.Warm)}), setup, profileCPULimit)
	if resp.Panic != nil {
		return nil
	}
	run := func() string { return fmt.Sprintf("the profiled benchmark run of %d calls", spec.N) }
	resp = c.roundTrip(c.request(wire.Request{Bench: spec.Loop, N: strconv.Itoa(spec.N), Profile: c.pkg}), run, profileCPULimit)
	if resp.Panic != nil {
		return nil
	}
	return c.allocRecords(resp)
}

// allocRecords returns the sites of a profiled run's answer, or nil if
// they are not what an honest child answers (see Profile).
func (c *child) allocRecords(resp wire.Response) []check.AllocRecord {
	made, err := strconv.ParseUint(resp.Allocs, 10, 64)
	if err != nil || len(resp.Sites) > wire.MaxSites {
		return nil
	}
	var out []check.AllocRecord
	var total uint64
	for _, s := range resp.Sites {
		line, err1 := strconv.Atoi(s.Line)
		count, err2 := strconv.ParseUint(s.Count, 10, 64)
		file, ok := c.files[s.File]
		if err1 != nil || err2 != nil || !ok || line < 1 || line > file.lines || count > made-total {
			return nil
		}
		total += count
		callee := s.Callee
		if len(callee) > 256 {
			callee = "" // no runtime function has such a name: no kind
		}
		out = append(out, check.AllocRecord{File: s.File, Line: line, Callee: callee, Count: count, FuncLit: file.funcLits[line]})
	}
	return out
}

// sourceFile is what the grader knows of one of the learner's files: how
// many lines it has, and the lines a function literal starts on (none if
// the file does not parse).
type sourceFile struct {
	lines    int
	funcLits map[int]bool
}

// sourceFiles returns the non-test Go files in dir (none if dir is ""),
// by base name.
func sourceFiles(dir string) map[string]sourceFile {
	files := map[string]sourceFile{}
	if dir == "" {
		return files
	}
	paths, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	fset := token.NewFileSet()
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		src, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		f := sourceFile{lines: bytes.Count(src, []byte("\n")) + 1, funcLits: map[int]bool{}}
		if file, err := parser.ParseFile(fset, p, src, parser.SkipObjectResolution); err == nil {
			ast.Inspect(file, func(n ast.Node) bool {
				if lit, ok := n.(*ast.FuncLit); ok {
					f.funcLits[fset.Position(lit.Pos()).Line] = true
				}
				return true
			})
		}
		files[filepath.Base(p)] = f
	}
	return files
}

// request is req's line.
func (c *child) request(req wire.Request) []byte {
	b, err := json.Marshal(req)
	if err != nil {
		c.fail(lostProtocol, "the grader could not encode a request: "+err.Error())
	}
	return b
}

// callText writes a call as the report writes calls, "TryAcquire(nowNs=1000,
// n=1)", with its parameters' names if names has one for each argument,
// else its arguments alone; cut to 300 bytes.
func callText(fn string, args []any, names []string) string {
	var b strings.Builder
	b.WriteString(fn + "(")
	for i, a := range args {
		if i > 0 {
			b.WriteString(", ")
		}
		if len(names) == len(args) {
			b.WriteString(names[i] + "=")
		}
		if s, ok := a.(string); ok {
			fmt.Fprintf(&b, "%q", s)
		} else {
			fmt.Fprintf(&b, "%+v", a)
		}
	}
	b.WriteString(")")
	if s := b.String(); len(s) > 300 {
		return s[:300] + "…)"
	}
	return b.String()
}

// paramNames reads the parameters' names of every function and method
// declared in the Go files of dir (the exercise's stub, whose API is the
// contract's), by name: "TryAcquire" → ["nowNs", "n"]. A name declared
// twice (a method of two types) keeps its first declaration; a folder it
// cannot read gives what it read, perhaps nothing.
func paramNames(dir string) map[string][]string {
	names := map[string][]string{}
	files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		for _, d := range file.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || !fd.Name.IsExported() {
				continue
			}
			if _, seen := names[fd.Name.Name]; seen {
				continue
			}
			var ps []string
			for _, field := range fd.Type.Params.List {
				for _, n := range field.Names {
					ps = append(ps, n.Name)
				}
				if len(field.Names) == 0 {
					ps = append(ps, "_")
				}
			}
			names[fd.Name.Name] = ps
		}
	}
	return names
}

// excerpt keeps the first quarter of max bytes written to it (where a fatal
// error's first line is) and the last three quarters.
type excerpt struct {
	mu      sync.Mutex
	max     int
	head    []byte
	buf     bytes.Buffer
	dropped bool
}

func (t *excerpt) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := len(p)
	if room := t.max/4 - len(t.head); room > 0 {
		k := min(room, len(p))
		t.head = append(t.head, p[:k]...)
		p = p[k:]
	}
	t.buf.Write(p)
	if over := t.buf.Len() - (t.max - t.max/4); over > 0 {
		t.buf.Next(over)
		t.dropped = true
	}
	return n, nil
}

func (t *excerpt) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	sep := ""
	if t.dropped {
		sep = "\n…\n"
	}
	return strings.TrimSpace(string(t.head) + sep + t.buf.String())
}
