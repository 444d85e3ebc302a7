package main

import (
	"flag"
	"time"

	"ratelab/internal/class"
)

// gradingFlags say how a class's submissions are graded: the same flags
// for `serve --class` and `worker`, so that a worker on another machine
// grades as the server does when given the same values.
type gradingFlags struct {
	noBench       bool
	seed          int64
	checkTimeout  time.Duration
	callCPU       time.Duration
	jobTimeout    time.Duration
	buildCache    string // "" builds every time
	buildCacheMax int64  // MiB; 0 means buildcache.DefaultMax
}

// register defines the flags on fs, each usage after prefix ("class mode:
// " for serve, whose other flags are the single learner's); the build
// cache defaults to cacheDir, which cacheDefault describes.
func (g *gradingFlags) register(fs *flag.FlagSet, prefix, cacheDir, cacheDefault string) {
	fs.BoolVar(&g.noBench, "no-bench", false, prefix+"skip benchmark checks")
	fs.Int64Var(&g.seed, "seed", class.DefaultConfig.Seed, prefix+"the property seed")
	fs.DurationVar(&g.checkTimeout, "check-timeout", 10*time.Second, prefix+"deadline of one property or case check")
	fs.DurationVar(&g.callCPU, "call-cpu", 0, prefix+"CPU time one call of the learner's code may take before it counts as one that does not return; 0 means the grader's 2s")
	fs.DurationVar(&g.jobTimeout, "job-timeout", class.DefaultConfig.JobTimeout, prefix+"deadline of one whole grading")
	fs.StringVar(&g.buildCache, "build-cache", cacheDir, prefix+`folder keeping graded programs by content, so a regrade or an identical resubmission does not build again; `+cacheDefault)
	fs.Int64Var(&g.buildCacheMax, "build-cache-max", 0, prefix+"the build cache's cap in MiB, its oldest programs removed beyond; 0 means the cache's default")
}

// config fills the grading part of a class's Config: the checks' options
// and the build cache the flags name (opened here).
func (g gradingFlags) config(c *class.Config) error {
	cache, err := openBuildCache(g.buildCache, g.buildCacheMax)
	if err != nil {
		return err
	}
	c.Seed, c.NoBench, c.CheckTimeout, c.CallCPULimit, c.JobTimeout, c.BuildCache = g.seed, g.noBench, g.checkTimeout, g.callCPU, g.jobTimeout, cache
	return nil
}
