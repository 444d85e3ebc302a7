package harness

import (
	"cmp"
	"runtime"
	"runtime/metrics"
	"slices"
	"strconv"
	"strings"

	"ratelab/grader/wire"
)

// profiled makes n iterations of run, as measured does, with every heap
// allocation recorded (runtime.MemProfileRate 1 for the run alone), and
// returns their digest, or the panic's message, and the lines of package
// pkg they were made at (see sites).
func profiled(run func(int) uint64, n int, pkg string) (digest uint64, panicked *string, found []wire.Site) {
	// The profile publishes what was allocated up to the last collection:
	// one before the run and one after it, so that the difference between
	// the readings after each is the run's. The readings' own allocations
	// are not recorded (rate 0), but for the first after the rate changes,
	// which the runtime records whatever the rate (on each P: the child
	// has one): a reading before the first collection makes it, so that
	// it is in both.
	rate := runtime.MemProfileRate
	defer func() { runtime.MemProfileRate = rate }()
	runtime.MemProfileRate = 0
	memProfile()
	runtime.GC()
	before, tiny := memProfile(), tinyAllocs()
	runtime.MemProfileRate = 1
	digest, panicked = measured(run, n)
	runtime.MemProfileRate = 0
	runtime.GC()
	return digest, panicked, sites(memProfile(), before, tinyAllocs()-tiny, pkg)
}

// tinyMetric counts the tiny allocations (under 16 bytes, without
// pointers) made in a block an earlier one started: the heap profile
// records the block once, at the allocation that started it, and none of
// these.
var tinyMetric = []metrics.Sample{{Name: "/gc/heap/tiny/allocs:objects"}}

// tinyAllocs reads tinyMetric (0 where the runtime does not have it).
// Its count is up to date after a collection.
func tinyAllocs() uint64 {
	metrics.Read(tinyMetric)
	if tinyMetric[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return tinyMetric[0].Value.Uint64()
}

// memProfile returns every record of the heap profile.
func memProfile() []runtime.MemProfileRecord {
	n, _ := runtime.MemProfile(nil, true)
	for {
		p := make([]runtime.MemProfileRecord, n+64)
		k, ok := runtime.MemProfile(p, true)
		if ok {
			return p[:k]
		}
		n = k
	}
}

// sites charges the allocations the heap profile after records beyond
// before (an earlier reading of it) to lines of package pkg: each stack's
// to its innermost frame in pkg, inlined frames included, with the
// function that frame called (see wire.Site). Stacks with no frame in pkg
// (the harness's own, the runtime's) are left out. The tiny allocations
// the profile did not see (missed, see tinyMetric) are spread over the
// records of tiny blocks (16 bytes an object, where records of 16-byte
// objects are too) in proportion to their counts. It returns the lines by
// how often they allocated, the most first, at most wire.MaxSites.
func sites(after, before []runtime.MemProfileRecord, missed uint64, pkg string) []wire.Site {
	type made struct{ objects, bytes int64 }
	seen := make(map[[32]uintptr]made, len(before))
	for _, r := range before {
		m := seen[r.Stack0]
		seen[r.Stack0] = made{m.objects + r.AllocObjects, m.bytes + r.AllocBytes}
	}
	type key struct {
		file   string
		line   int
		callee string
	}
	counts := map[key]int64{}
	blocks := map[key]int64{} // of counts, those of tiny blocks
	var allBlocks int64
	for _, r := range after {
		objects, bytes := r.AllocObjects-seen[r.Stack0].objects, r.AllocBytes-seen[r.Stack0].bytes
		if objects <= 0 {
			continue
		}
		tiny := bytes == 16*objects
		if tiny {
			allBlocks += objects
		}
		file, line, callee, ok := learnerFrame(runtime.CallersFrames(r.Stack()), pkg)
		if !ok {
			continue
		}
		k := key{file, line, callee}
		counts[k] += objects
		if tiny {
			blocks[k] += objects
		}
	}
	if allBlocks > 0 && missed > 0 {
		for k, b := range blocks {
			counts[k] += int64(float64(b) * float64(missed) / float64(allBlocks))
		}
	}
	keys := make([]key, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b key) int {
		return cmp.Or(cmp.Compare(counts[b], counts[a]), cmp.Compare(a.file, b.file), cmp.Compare(a.line, b.line), cmp.Compare(a.callee, b.callee))
	})
	var out []wire.Site
	for _, k := range keys[:min(len(keys), wire.MaxSites)] {
		out = append(out, wire.Site{File: k.file, Line: strconv.Itoa(k.line), Callee: k.callee, Count: strconv.FormatInt(counts[k], 10)})
	}
	return out
}

// stackFrames is what learnerFrame reads of a stack: runtime.Frames, or a
// test's list.
type stackFrames interface {
	Next() (runtime.Frame, bool)
}

// learnerFrame returns the innermost frame of frames (innermost first)
// whose function is in package pkg, as its file's base name and line, with
// the function of the frame before it (the one it called, which made the
// allocation), or "" if there is none.
func learnerFrame(frames stackFrames, pkg string) (file string, line int, callee string, ok bool) {
	inner := ""
	for {
		f, more := frames.Next()
		if inPackage(f.Function, pkg) {
			return baseName(f.File), f.Line, inner, true
		}
		inner = f.Function
		if !more {
			return "", 0, "", false
		}
	}
}

// inPackage reports whether the function named fn (as runtime.Frame names
// it: "ratelab/exercises/fairqueue.(*Queue).Push", closures and generic
// instances included) is declared in the package whose import path is pkg.
func inPackage(fn, pkg string) bool {
	return pkg != "" && strings.HasPrefix(fn, pkg+".")
}

// baseName is the last element of a file's path, by either separator.
func baseName(file string) string {
	return file[strings.LastIndexAny(file, `/\`)+1:]
}
