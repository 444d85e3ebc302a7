package grader_test

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"ratelab/grader"
	"ratelab/grader/report"
	"ratelab/grader/sandbox"
)

// sandboxed grades the reference token bucket plus one extra file, extra,
// in the sandbox, and returns its exercise report.
func sandboxed(t *testing.T, sb *sandbox.Sandbox, extra string) *report.Exercise {
	t.Helper()
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join(root(t), "solutions", "tokenbucket", "tokenbucket.go"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "tokenbucket.go"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	if extra != "" {
		if err := os.WriteFile(filepath.Join(dir, "extra.go"), []byte(extra), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if sb == nil {
		sb = &sandbox.Sandbox{Log: t.Logf}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	r, err := grader.Grade(ctx, grader.Options{
		Root: root(t), Exercises: []string{"tokenbucket"}, Seed: grader.DefaultSeed, NoBench: true,
		Replace: map[string]string{"tokenbucket": dir}, CheckTimeout: 5 * time.Second, Sandbox: sb,
	})
	if err != nil {
		t.Fatalf("Grade: %v", err)
	}
	return &r.Exercises[0]
}

func TestSandboxGradesTheReference(t *testing.T) {
	ex := sandboxed(t, nil, "")
	for _, c := range ex.Checks {
		if c.Kind != report.Benchmark && c.Status != report.Passed {
			t.Errorf("%s: %s (%s), want passed in the sandbox", c.ID, c.Status, c.Message)
		}
	}
}

// TestSandboxLimitsMemory: a program that asks for more memory than the
// sandbox allows is out of memory. Its blocks are not touched, so it meets
// the limit in its first milliseconds however busy the machine: the
// verdict cannot turn into "did not start" on a loaded one.
func TestSandboxLimitsMemory(t *testing.T) {
	ex := sandboxed(t, nil, `package tokenbucket

var hog [][]byte

func init() {
	for i := 0; i < 64; i++ { // 16 GiB against the 1 GiB default
		hog = append(hog, make([]byte, 256<<20))
	}
}
`)
	if ex.Status != report.Error || !strings.Contains(ex.Message, "out of memory") {
		t.Errorf("memory hog: %s %q; want an error saying out of memory", ex.Status, ex.Message)
	}
}

func TestSandboxLimitsProcesses(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("the process limit binds only when the grader is root and drops to another user")
	}
	ex := sandboxed(t, &sandbox.Sandbox{Processes: 32, Log: t.Logf}, `package tokenbucket

import (
	"fmt"
	"os/exec"
)

func init() {
	n := 0
	for ; n < 200; n++ {
		if exec.Command("/bin/sleep", "30").Start() != nil {
			break
		}
	}
	panic(fmt.Sprintf("started %d processes", n))
}
`)
	m := regexp.MustCompile(`started (\d+) processes`).FindStringSubmatch(ex.Message)
	if m == nil {
		t.Fatalf("fork attempt: %s %q; want the panic naming how many processes started", ex.Status, ex.Message)
	}
	if n, _ := strconv.Atoi(m[1]); n >= 32 {
		t.Errorf("the child started %d processes under a limit of 32", n)
	}
}

func TestSandboxHasNoNetwork(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("a new network namespace needs root")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan struct{}, 1)
	go func() {
		if c, err := ln.Accept(); err == nil {
			c.Close()
			accepted <- struct{}{}
		}
	}()
	ex := sandboxed(t, nil, `package tokenbucket

import "net"

func init() {
	c, err := net.Dial("tcp", "`+ln.Addr().String()+`")
	if err != nil {
		panic("dial: " + err.Error())
	}
	c.Close()
	panic("dial: connected")
}
`)
	select {
	case <-accepted:
		t.Errorf("the sandboxed child connected to the grader's loopback (%s)", ex.Message)
	default:
	}
	if !strings.Contains(ex.Message, "dial: ") || strings.Contains(ex.Message, "connected") {
		t.Errorf("network attempt: %q; want the dial to fail", ex.Message)
	}
}

// A process the child starts in a session of its own (out of its process
// group, which the grader kills) dies with the grading: the child is
// process 1 of its own PID namespace. Counted in /proc after the grading,
// by a mark in its arguments.
func TestSandboxLeavesNoProcessBehind(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("a new PID namespace needs root")
	}
	mark := "ratelab-escape-" + strconv.FormatInt(time.Now().UnixNano(), 36)
	ex := sandboxed(t, nil, `package tokenbucket

import (
	"os/exec"
	"syscall"
)

func init() {
	for range 3 {
		cmd := exec.Command("/bin/sleep", "300")
		cmd.Args[0] = "`+mark+`" // its name in /proc
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		if err := cmd.Start(); err != nil {
			panic("start: " + err.Error())
		}
	}
}
`)
	if ex.Status == report.Error && strings.Contains(ex.Message, "start:") {
		t.Fatalf("the child could not start its processes (%q): the test would prove nothing", ex.Message)
	}
	// The kernel kills a namespace's processes as its process 1 dies: at
	// once, but not before Grade returns, so wait for them, boundedly.
	var left []string
	for deadline := time.Now().Add(10 * time.Second); ; {
		left = processesWith(t, mark)
		if len(left) == 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if len(left) > 0 {
		t.Errorf("%d processes the child started outlived the grading: %q", len(left), left)
		for _, pid := range left {
			if n, err := strconv.Atoi(pid); err == nil {
				if p, err := os.FindProcess(n); err == nil {
					p.Kill()
				}
			}
		}
	}
}

// processesWith returns the pids of the processes whose arguments include
// mark.
func processesWith(t *testing.T, mark string) []string {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Skipf("no /proc to count processes in: %v", err)
	}
	var pids []string
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		cmdline, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && strings.Contains(string(cmdline), mark) {
			pids = append(pids, e.Name())
		}
	}
	return pids
}
