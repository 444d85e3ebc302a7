package grader

// GoBuilds is how many go build commands this process has run.
func GoBuilds() int64 { return goBuilds.Load() }
