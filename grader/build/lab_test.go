package build_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"ratelab/grader/build"
	"ratelab/grader/sandbox"
)

// root is the module's root, two folders up.
func root(t testing.TB) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// labFiles is the reference token bucket's files with src appended to
// tokenbucket.go (a learner's variant).
func labFiles(t testing.TB, extra string) map[string]map[string][]byte {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(root(t), "solutions", "tokenbucket", "tokenbucket.go"))
	if err != nil {
		t.Fatal(err)
	}
	return map[string]map[string][]byte{"tokenbucket": {"tokenbucket.go": append(src, extra...)}}
}

func TestLabKeyFollowsTheFiles(t *testing.T) {
	a := build.Lab{Root: root(t), Files: labFiles(t, "")}
	same := build.Lab{Root: root(t), Files: labFiles(t, "")}
	other := build.Lab{Root: root(t), Files: labFiles(t, "\n// one more line\n")}
	renamed := build.Lab{Root: root(t), Files: map[string]map[string][]byte{"tokenbucket": {"bucket.go": a.Files["tokenbucket"]["tokenbucket.go"]}}}
	stubs := build.Lab{Root: root(t)}
	sandboxed := build.Lab{Root: root(t), Files: labFiles(t, ""), Sandbox: &sandbox.Sandbox{Log: t.Logf}}
	key := func(b build.Lab) string {
		k, err := b.Key()
		if err != nil {
			t.Fatal(err)
		}
		return k.String()
	}
	if key(a) != key(same) {
		t.Error("identical files gave two keys")
	}
	for name, b := range map[string]build.Lab{"a changed file": other, "a renamed file": renamed, "the stubs": stubs, "the sandbox": sandboxed} {
		if key(b) == key(a) {
			t.Errorf("%s gave the same key", name)
		}
	}
}

func TestLabBuildsTheLearnersCode(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the lab's WebAssembly")
	}
	b := build.Lab{Root: root(t), Files: labFiles(t, "\n// the learner's\n"), Sandbox: &sandbox.Sandbox{Log: t.Logf}, TempDir: t.TempDir()}
	out := filepath.Join(t.TempDir(), "lab.wasm")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if err := b.Build(ctx, out); err != nil {
		t.Fatal(err)
	}
	wasm, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(wasm, []byte("\x00asm")) {
		t.Errorf("the build wrote %d bytes that are not WebAssembly", len(wasm))
	}
	if left, _ := os.ReadDir(b.TempDir); len(left) > 0 {
		t.Errorf("the build left %s in its temporary folder", left[0].Name())
	}
}

func TestLabReportsTheCompilersLines(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the lab's WebAssembly")
	}
	files := map[string]map[string][]byte{"tokenbucket": {"tokenbucket.go": []byte("package tokenbucket\n\nfunc broken() int { return undefinedName }\n")}}
	b := build.Lab{Root: root(t), Files: files, Sandbox: &sandbox.Sandbox{Log: t.Logf}, TempDir: t.TempDir()}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	err := b.Build(ctx, filepath.Join(t.TempDir(), "lab.wasm"))
	var be *build.Error
	if !errors.As(err, &be) {
		t.Fatalf("Build = %v, want a *build.Error", err)
	}
	if !strings.Contains(be.Lines, "tokenbucket/tokenbucket.go:3:") || !strings.Contains(be.Lines, "undefinedName") {
		t.Errorf("compiler lines = %q, want the learner's file and line named as tokenbucket/tokenbucket.go:3", be.Lines)
	}
	if strings.Contains(be.Lines, b.TempDir) || strings.Contains(be.Lines, "# ") {
		t.Errorf("compiler lines = %q, want neither the server's folders nor the package headings", be.Lines)
	}
}

// bigArray is a learner file that makes the compiler write an object of
// about 512 MiB.
const bigArray = `package tokenbucket

var bigA = [1 << 29]byte{1<<29 - 1: 7}
`

// The build runs confined as a grading's: under the sandbox's memory
// limit, a learner's 512 MiB array fails to compile instead of taking
// the server's memory.
func TestLabIsConfined(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the lab's WebAssembly")
	}
	if runtime.GOOS != "linux" {
		t.Skip("the build's limits are Linux's")
	}
	sb := &sandbox.Sandbox{Log: t.Logf, Build: sandbox.BuildLimits{Memory: 1 << 30}}
	files := labFiles(t, "")
	files["tokenbucket"]["big.go"] = []byte(bigArray)
	b := build.Lab{Root: root(t), Files: files, Sandbox: sb, TempDir: t.TempDir()}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	err := b.Build(ctx, filepath.Join(t.TempDir(), "lab.wasm"))
	var be *build.Error
	if !errors.As(err, &be) || !strings.Contains(be.Lines, "out of memory") {
		t.Errorf("a 512 MiB array under a 1 GiB memory limit: %v; want the compiler out of memory", err)
	}
}
