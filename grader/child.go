package grader

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"ratelab/grader/harness"
	"ratelab/grader/report"
)

// runExercise runs the child for ex until every check has a result,
// restarting it after a check that hung or crashed it.
func (g *grading) runExercise(ctx context.Context, bin string, ex *report.Exercise) {
	ex.Checks = g.plan(ex.ID)
	from := 0
	for from < len(ex.Checks) {
		next, stop := g.runFrom(ctx, bin, ex, from)
		if stop || ctx.Err() != nil {
			break
		}
		from = next
	}
	finish(ex)
}

// runFrom runs the child from check index from. It returns the index to
// restart at, or stop when nothing more can or need be run.
func (g *grading) runFrom(ctx context.Context, bin string, ex *report.Exercise, from int) (next int, stop bool) {
	pr, pw, err := os.Pipe()
	if err != nil {
		ex.Status, ex.Message = report.Error, "could not start the grading program: "+err.Error()
		return 0, true
	}
	args := []string{"-exercise", ex.ID, "-seed", strconv.FormatInt(g.opts.Seed, 10), "-from", strconv.Itoa(from)}
	if g.opts.NoBench {
		args = append(args, "-no-bench")
	}
	cmd := exec.Command(bin, args...)
	cmd.Dir = g.tmp
	cmd.ExtraFiles = []*os.File{pw} // fd 3
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	output := &excerpt{max: 4096}
	cmd.Stdout, cmd.Stderr = output, output
	var key []byte // nil: the protocol is not authenticated
	started := func() {}
	if g.opts.Sandbox != nil {
		if key, started, err = g.opts.Sandbox.confine(cmd, g.tmp); err != nil {
			pr.Close()
			pw.Close()
			ex.Status, ex.Message = report.Error, "could not prepare the sandbox: "+err.Error()
			return 0, true
		}
	}
	if err := cmd.Start(); err != nil {
		started()
		pr.Close()
		pw.Close()
		ex.Status, ex.Message = report.Error, "could not start the grading program: "+err.Error()
		return 0, true
	}
	started()
	pw.Close()
	kill := func() { syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	defer func() {
		kill()
		cmd.Wait()
		pr.Close()
	}()

	events := make(chan harness.Event)
	var forged atomic.Bool // a line failed authentication
	go func() {
		defer close(events)
		sc := bufio.NewScanner(pr)
		sc.Buffer(make([]byte, 1<<16), 16<<20)
		for seq := uint64(0); sc.Scan(); seq++ {
			line := sc.Bytes()
			if key != nil {
				var err error
				if line, err = harness.Verify(key, seq, line); err != nil {
					forged.Store(true)
					return
				}
			}
			var e harness.Event
			if json.Unmarshal(line, &e) != nil {
				return // not ours: treat as a crash
			}
			events <- e
		}
	}()

	current := -1 // index of the check running
	timer := time.NewTimer(g.opts.CheckTimeout)
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return 0, true
		case <-timer.C:
			if current < 0 {
				ex.Status, ex.Message = report.Error, "the grading program did not start in time"
				if out := output.String(); out != "" {
					ex.Message += ":\n" + out
				}
				return 0, true
			}
			c := &ex.Checks[current]
			limit := g.deadline(c.Kind)
			c.Status, c.Score = report.Timeout, 0
			c.Message = fmt.Sprintf("did not return within %s: an endless loop, or work that grows with the arguments (one step per token, per nanosecond or per bucket).", limit)
			g.opts.Progress(Event{Exercise: ex.ID, Phase: "result", Result: c})
			return current + 1, false
		case e, ok := <-events:
			switch {
			case !ok && forged.Load():
				ex.Status = report.Error
				ex.Message = "the grading program's results failed authentication: something other than the grader wrote on its result channel, so nothing it reported was trusted."
				for i := range ex.Checks {
					ex.Checks[i].Status, ex.Checks[i].Score = report.Error, 0
					ex.Checks[i].Message = "not trusted: the run's results failed authentication."
				}
				return 0, true
			case !ok: // the child exited or wrote garbage
				cmd.Wait()
				if current < 0 {
					ex.Status = report.Error
					ex.Message = "the grading program stopped before running any check:\n" + output.String()
					return 0, true
				}
				c := &ex.Checks[current]
				c.Status, c.Score = report.Error, 0
				c.Message = "the program crashed while running this check (a panic in another goroutine, a stack overflow, os.Exit or running out of memory):\n" + output.String()
				g.opts.Progress(Event{Exercise: ex.ID, Phase: "result", Result: c})
				return current + 1, false
			case e.NotStarted:
				ex.Status = report.NotStarted
				ex.Message = "still the stub: implement it, then run make grade again."
				for i := range ex.Checks {
					ex.Checks[i].Message = "not run: the exercise is not started."
				}
				return 0, true
			case e.Start != "":
				current = indexOf(ex.Checks, e.Start)
				if current < 0 {
					ex.Status, ex.Message = report.Error, "the grading program ran an unknown check "+e.Start
					return 0, true
				}
				g.opts.Progress(Event{Exercise: ex.ID, Phase: "start", Check: e.Start})
				timer.Reset(g.deadline(ex.Checks[current].Kind))
			case e.Result != nil:
				if current < 0 || e.Result.ID != ex.Checks[current].ID {
					ex.Status, ex.Message = report.Error, "the grading program sent a result out of order"
					return 0, true
				}
				ex.Checks[current] = *e.Result
				g.opts.Progress(Event{Exercise: ex.ID, Phase: "result", Result: e.Result})
			case e.Done:
				return 0, true
			}
		}
	}
}

func (g *grading) deadline(kind string) time.Duration {
	if kind == report.Benchmark {
		return g.opts.BenchTimeout
	}
	return g.opts.CheckTimeout
}

func indexOf(cs []report.Check, id string) int {
	for i, c := range cs {
		if c.ID == id {
			return i
		}
	}
	return -1
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
