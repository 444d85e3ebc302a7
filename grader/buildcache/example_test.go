package buildcache_test

import (
	"fmt"
	"os"
	"path/filepath"

	"ratelab/grader/buildcache"
)

func Example() {
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	cache, _ := buildcache.Open(filepath.Join(dir, "programs"), 0)

	// The key: everything that goes into the program, part by part.
	h := buildcache.NewHasher()
	h.AddString("toolchain", "go1.26.8 linux/amd64")
	h.AddString("tokenbucket.go", "package tokenbucket // the learner's code")
	key := h.Sum()

	child := filepath.Join(dir, "child")
	if !cache.Get(key, child, 0o755) {
		os.WriteFile(child, []byte("the built program"), 0o755) // go build, in the grader
		cache.Put(key, child)
	}
	// A regrade of the same files copies the program.
	again := filepath.Join(dir, "child-again")
	fmt.Println(cache.Get(key, again, 0o755))
	b, _ := os.ReadFile(again)
	fmt.Println(string(b))
	fmt.Printf("%+v\n", cache.Stats())
	// Output:
	// true
	// the built program
	// {Hits:1 Misses:1 Puts:1 Evictions:0}
}
