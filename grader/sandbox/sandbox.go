// Package sandbox confines what runs untrusted code: the grading child,
// which runs a learner's code (Confine), and the go build that compiles it
// (ConfineBuild, BuildLimits), in process groups of their own (OwnGroup,
// KillGroup). The grader and class mode's builds of Yours use it; on a
// learner's own machine nothing is confined.
package sandbox

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"time"
)

// Sandbox confines the grading child when the code under test is not
// trusted (class mode grades uploads from a whole class). The zero value is
// a usable sandbox with the defaults below; grader.Options.Sandbox nil leaves the
// child as `labserver grade` runs it on a learner's own machine.
//
// What it enforces, and how:
//   - the build (see BuildLimits): CGO_ENABLED=0, GOPROXY=off,
//     GOTOOLCHAIN=local and GOFLAGS=-mod=readonly, so a build neither
//     downloads nor edits go.mod; a minimal environment, limits on CPU
//     time, memory and file size, a build cache of its own kept under a size
//     cap, its work folder inside the grading's, its process group killed
//     whole on a timeout;
//   - limits set before the child's first instruction (learner init
//     functions run before any code of ours), by starting it through
//     prlimit(1), or `sh -c 'ulimit ...; exec ...'` where prlimit is
//     missing (that fallback cannot limit processes, and says so in Log):
//     CPU time, address space, processes and file size, core dumps off;
//   - an empty working folder, a minimal environment, its own process group
//     (killed whole on a timeout, as without a sandbox);
//   - when the grader runs as root: the child runs as User/Group (the
//     process limit only binds non-root users) in a new network namespace,
//     so it has no network at all, not even loopback, and in a new PID
//     namespace whose process 1 it is, so that killing it kills whatever
//     it started, even a process that left its process group. Without the
//     privilege, it runs as the grader's user with the network, and Log
//     says so once;
//
// It does not need to keep the child from writing anything it likes on its
// output: the child only answers calls (see package wire), and the grader
// judges every answer, so a forged line is at best a wrong answer.
type Sandbox struct {
	CPUTime   time.Duration // RLIMIT_CPU for the whole child; 0 means 2 minutes
	Memory    int64         // RLIMIT_AS in bytes; 0 means 1 GiB
	Processes int           // RLIMIT_NPROC (threads count); 0 means 64
	FileSize  int64         // RLIMIT_FSIZE in bytes; 0 means 1 MiB
	// User and Group the child runs as when the grader is root; 0 means
	// 65534 (nobody).
	User, Group int
	// Log is told, once per Sandbox, which confinements this machine does
	// not allow. Nil means os.Stderr.
	Log func(format string, args ...any)
	// Build limits the build of untrusted sources (see BuildLimits).
	Build BuildLimits

	once    sync.Once
	prlimit string // path of prlimit(1), or ""
	asRoot  bool   // the grader is root: drop to User/Group
	netns   bool   // a new network namespace works here
	pidns   bool   // a new PID namespace works here
}

func (s *Sandbox) defaults() {
	if s.CPUTime <= 0 {
		s.CPUTime = 2 * time.Minute
	}
	if s.Memory <= 0 {
		s.Memory = 1 << 30
	}
	if s.Processes <= 0 {
		s.Processes = 64
	}
	if s.FileSize <= 0 {
		s.FileSize = 1 << 20
	}
	if s.User <= 0 {
		s.User = 65534
	}
	if s.Group <= 0 {
		s.Group = 65534
	}
	if s.Log == nil {
		s.Log = func(format string, args ...any) { fmt.Fprintf(os.Stderr, format+"\n", args...) }
	}
	s.Build.defaults()
}

// probe finds out once what this machine allows.
func (s *Sandbox) probe() {
	s.once.Do(func() {
		s.defaults()
		s.prlimit, _ = exec.LookPath("prlimit")
		if s.prlimit == "" {
			s.Log("sandbox: prlimit not found: limiting the grading child with the shell's ulimit, which cannot limit its processes")
		}
		s.asRoot = os.Geteuid() == 0
		s.netns = newNetNSWorks()
		s.pidns = newPIDNSWorks()
		switch {
		case !s.asRoot:
			s.Log("sandbox: not running as root: the grading child runs as this user, with its network and no process limit, and a process it starts in a session of its own outlives it")
		case !s.netns:
			s.Log("sandbox: this machine refuses a new network namespace: the grading child keeps the network")
		}
		if s.asRoot && !s.pidns {
			s.Log("sandbox: this machine refuses a new PID namespace: a process the grading child starts in a session of its own outlives it")
		}
		s.probeBuild()
	})
}

// Confine rewrites cmd (the child, its pipes set) to run confined in a
// fresh empty folder under tmp.
func (s *Sandbox) Confine(cmd *exec.Cmd, tmp string) error {
	s.probe()
	dir, err := os.MkdirTemp(tmp, "run-")
	if err != nil {
		return err
	}
	if s.asRoot {
		// The child's user must reach its binary and own its folder.
		if err := os.Chmod(tmp, 0o711); err != nil {
			return err
		}
		if err := os.Chown(dir, s.User, s.Group); err != nil {
			return err
		}
	}
	args := append([]string{cmd.Path}, cmd.Args[1:]...)
	if s.prlimit != "" {
		cmd.Path = s.prlimit
		cmd.Args = append([]string{"prlimit",
			"--cpu=" + strconv.FormatInt(int64(s.CPUTime/time.Second), 10),
			"--as=" + strconv.FormatInt(s.Memory, 10),
			"--nproc=" + strconv.Itoa(s.Processes),
			"--fsize=" + strconv.FormatInt(s.FileSize, 10),
			"--core=0", "--"}, args...)
	} else {
		script := fmt.Sprintf("ulimit -t %d -v %d -f %d -c 0 && exec \"$0\" \"$@\"",
			int64(s.CPUTime/time.Second), s.Memory/1024, s.FileSize/512)
		cmd.Path = "/bin/sh"
		cmd.Args = append([]string{"sh", "-c", script}, args...)
	}
	cmd.Dir = dir
	cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + dir, "TMPDIR=" + dir, "GOTRACEBACK=none", "GOMAXPROCS=1"}
	s.isolate(cmd)
	return nil
}
