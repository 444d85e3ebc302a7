//go:build !unix

package main

import "time"

// cpuTime is not measured here.
func cpuTime() (self, all time.Duration, ok bool) { return 0, 0, false }

// loadAverage is not known here.
func loadAverage() float64 { return -1 }
