package grader

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// cpuTime returns the CPU time the kernel has counted for every thread of
// process pid, to the nanosecond (the first field of each thread's
// /proc/<pid>/task/<tid>/schedstat), and whether it could read it.
//
// The kernel brings a thread's count up to date when the thread stops
// running, and otherwise only at its scheduler ticks: read while a thread
// runs, the count can be a whole tick (4 ms and more) behind. So cpuTime
// first waits, a little, for every thread to be off the CPU (the child,
// having answered, is blocked reading its next request).
func cpuTime(pid int) (time.Duration, bool) {
	dir := "/proc/" + strconv.Itoa(pid) + "/task/"
	for range 200 {
		if !running(dir) {
			break
		}
		time.Sleep(100 * time.Microsecond)
	}
	return cpuUsed(pid)
}

// cpuUsed is cpuTime without the wait: the count as it stands, which for
// a thread on the CPU can be a tick behind. It is what the per-call limit
// reads while a call runs (see child.roundTrip), where a tick is nothing.
func cpuUsed(pid int) (time.Duration, bool) {
	dir := "/proc/" + strconv.Itoa(pid) + "/task/"
	tasks, err := filepath.Glob(dir + "*/schedstat")
	if err != nil || len(tasks) == 0 {
		return 0, false
	}
	var sum time.Duration
	for _, t := range tasks {
		b, err := os.ReadFile(t)
		if err != nil {
			continue // a thread that ended between the listing and the read
		}
		f := strings.Fields(string(b))
		if len(f) == 0 {
			return 0, false
		}
		ns, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil {
			return 0, false
		}
		sum += time.Duration(ns)
	}
	return sum, true
}

// running reports whether a thread under dir (a /proc/<pid>/task/) is
// running or runnable: state R in its stat file.
func running(dir string) bool {
	stats, _ := filepath.Glob(dir + "*/stat")
	for _, s := range stats {
		b, err := os.ReadFile(s)
		if err != nil {
			continue
		}
		// The state follows the command name, which is in parentheses
		// and may itself contain spaces or parentheses.
		if i := strings.LastIndexByte(string(b), ')'); i >= 0 && i+2 < len(b) && b[i+2] == 'R' {
			return true
		}
	}
	return false
}
