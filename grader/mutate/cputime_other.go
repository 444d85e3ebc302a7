//go:build !unix

package mutate

import "time"

// cpuTime is 0 where getrusage does not exist: the report leaves the
// figure out.
func cpuTime() time.Duration { return 0 }
