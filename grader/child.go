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
	output := &tail{max: 4096}
	cmd.Stdout, cmd.Stderr = output, output
	if err := cmd.Start(); err != nil {
		pr.Close()
		pw.Close()
		ex.Status, ex.Message = report.Error, "could not start the grading program: "+err.Error()
		return 0, true
	}
	pw.Close()
	kill := func() { syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	defer func() {
		kill()
		cmd.Wait()
		pr.Close()
	}()

	events := make(chan harness.Event)
	go func() {
		defer close(events)
		sc := bufio.NewScanner(pr)
		sc.Buffer(make([]byte, 1<<16), 16<<20)
		for sc.Scan() {
			var e harness.Event
			if json.Unmarshal(sc.Bytes(), &e) != nil {
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

// tail keeps the last max bytes written to it.
type tail struct {
	mu  sync.Mutex
	max int
	buf bytes.Buffer
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf.Write(p)
	if over := t.buf.Len() - t.max; over > 0 {
		t.buf.Next(over)
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.TrimSpace(t.buf.String())
}
