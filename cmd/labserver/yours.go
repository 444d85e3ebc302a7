package main

import (
	"flag"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"

	"ratelab/grader/buildcache"
	"ratelab/grader/sandbox"
	"ratelab/internal/store"
	"ratelab/internal/yours"
)

// yoursFlags say where class mode keeps the learners' builds of Yours
// (package yours): serve --class builds them in its own process, on
// demand, one at a time.
type yoursFlags struct {
	cache    string
	cacheMax int64 // MiB
	parallel int
}

func (y *yoursFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&y.cache, "yours-cache", defaultYoursCache(), "class mode: folder keeping the learners' WebAssembly builds of Yours by content (identical code builds once)")
	fs.Int64Var(&y.cacheMax, "yours-cache-max", 512, "class mode: the Yours cache's cap in MiB (a build and its gzip copy take about 7 MiB), its least recently used builds removed beyond")
	fs.IntVar(&y.parallel, "yours-builds", 1, "class mode: builds of Yours at once (each takes a core for a second or more; the first, with an empty Go build cache, about 20 s)")
}

// defaultYoursCache is the Yours cache in the user's cache folder, or
// under the system's temporary folder if there is none.
func defaultYoursCache() string {
	dir, err := os.UserCacheDir()
	if err != nil {
		return filepath.Join(os.TempDir(), "ratelab-yours")
	}
	return filepath.Join(dir, "ratelab", "yours")
}

// start opens the cache and returns the class's builds of Yours, confined
// by sb (the gradings' sandbox, whose Go build cache they share).
func (y yoursFlags) start(root string, st *store.Store, sb *sandbox.Sandbox, log *slog.Logger) (*yours.Builds, error) {
	if y.cache == "" {
		return nil, fmt.Errorf("--yours-cache: want a folder")
	}
	if y.cacheMax < 16 {
		return nil, fmt.Errorf("--yours-cache-max %d: want at least 16 MiB (two builds)", y.cacheMax)
	}
	if y.parallel < 1 {
		return nil, fmt.Errorf("--yours-builds %d: want 1 or more", y.parallel)
	}
	cache, err := buildcache.Open(y.cache, y.cacheMax<<20)
	if err != nil {
		return nil, fmt.Errorf("--yours-cache: %w", err)
	}
	return yours.New(yours.Config{
		Root: root, Sources: yours.FromStore(st), Sandbox: sb, Cache: cache, Parallel: y.parallel, Log: log,
	}), nil
}
