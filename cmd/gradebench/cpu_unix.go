//go:build unix

package main

import (
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// cpuTime returns the CPU time, user and system, of this process, and
// that of it and its children that have been waited for.
func cpuTime() (self, all time.Duration, ok bool) {
	var me, children syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &me) != nil || syscall.Getrusage(syscall.RUSAGE_CHILDREN, &children) != nil {
		return 0, 0, false
	}
	tv := func(t syscall.Timeval) time.Duration { return time.Duration(t.Nano()) }
	self = tv(me.Utime) + tv(me.Stime)
	return self, self + tv(children.Utime) + tv(children.Stime), true
}

// loadAverage returns the 1-minute load average (/proc/loadavg), or -1.
func loadAverage() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return -1
	}
	f, err := strconv.ParseFloat(strings.Fields(string(b))[0], 64)
	if err != nil {
		return -1
	}
	return f
}
