package build

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"ratelab/grader/buildcache"
)

// toolchainVars are the go env settings that change what go build writes.
var toolchainVars = []string{"GOVERSION", "GOOS", "GOARCH", "GOAMD64", "GOARM", "GOARM64", "GO386", "GORISCV64", "GOPPC64", "GOMIPS", "GOMIPS64", "GOWASM", "GOEXPERIMENT", "GOFLAGS"}

var toolchainMemo struct {
	sync.Mutex
	stamp, desc string
}

// Toolchain describes the go command on PATH as go env reports it. It is
// asked again whenever the go binary or the environment changes.
func Toolchain() (string, error) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		return "", err
	}
	fi, err := os.Stat(goBin)
	if err != nil {
		return "", err
	}
	env := os.Environ()
	slices.Sort(env)
	stamp := fmt.Sprintf("%s %d %d %x", goBin, fi.Size(), fi.ModTime().UnixNano(), sha256.Sum256([]byte(strings.Join(env, "\x00"))))
	toolchainMemo.Lock()
	defer toolchainMemo.Unlock()
	if toolchainMemo.stamp == stamp {
		return toolchainMemo.desc, nil
	}
	cmd := exec.Command(goBin, append([]string{"env"}, toolchainVars...)...)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go env: %w", err)
	}
	toolchainMemo.stamp, toolchainMemo.desc = stamp, string(out)
	return toolchainMemo.desc, nil
}

// NonStdImports lists the imports of the .go files in dir (tests aside)
// that are not in the standard library: their path's first element has a
// dot, or is the module's.
func NonStdImports(dir, module string) ([]string, error) {
	paths, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	files := map[string][]byte{}
	for _, f := range paths {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			continue // the build reports it
		}
		files[f] = src
	}
	return ImportsOf(files, module), nil
}

// Sources returns the hash of the packages pkgs depend on, within the
// module under root: the path and content of each of their .go files
// (tests aside), go.mod and go.sum. env, if any, is added to go list's
// environment (GOOS=js GOARCH=wasm: the lab's WebAssembly imports other
// packages than it does natively).
func Sources(root string, pkgs []string, env ...string) (buildcache.Key, error) {
	return sources.sum(root, pkgs, env...)
}

// sources hashes the module's packages a program depends on, remembering
// each file's hash by its path, size and modification time, so that a
// grading reads only the files that changed, and the list of packages, so
// that go list runs only when one of their files changed.
var sources = &sourceHasher{files: map[string]fileHash{}, deps: map[string]depList{}}

type sourceHasher struct {
	mu    sync.Mutex
	files map[string]fileHash // absolute path → its last hash
	deps  map[string]depList  // root and packages → their folders in the module
}

// depList is the module's folders some packages depend on, and the hash of
// their files when go list said so.
type depList struct {
	dirs  []string
	stamp buildcache.Key
}

type fileHash struct {
	size    int64
	modTime time.Time
	sum     [sha256.Size]byte
}

// racyWindow is how recent a file's modification may be for its hash to be
// remembered: a file written twice within the file system's timestamp
// granularity keeps its time, so a file this fresh is read every time
// (git's "racy" rule).
const racyWindow = 2 * time.Second

// sum is Sources, with s's memory of files and package lists.
func (s *sourceHasher) sum(root string, pkgs []string, env ...string) (buildcache.Key, error) {
	root, err := filepath.Abs(root)
	if err != nil {
		return buildcache.Key{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	memo := root + "\x00" + strings.Join(pkgs, "\x00") + "\x00env\x00" + strings.Join(env, "\x00")
	if d, ok := s.deps[memo]; ok {
		if stamp, err := s.hashDirs(root, d.dirs); err == nil && stamp == d.stamp {
			return stamp, nil
		}
	}
	dirs, err := goListDeps(root, pkgs, env...)
	if err != nil {
		return buildcache.Key{}, err
	}
	stamp, err := s.hashDirs(root, dirs)
	if err != nil {
		return buildcache.Key{}, err
	}
	s.deps[memo] = depList{dirs, stamp}
	return stamp, nil
}

// goListDeps lists the folders, within the module under root, of pkgs and
// every package they import, directly or not, for the platform env sets
// (none: this one).
func goListDeps(root string, pkgs []string, env ...string) ([]string, error) {
	cmd := exec.Command("go", append([]string{"list", "-e", "-deps", "-f", "{{if not .Standard}}{{.Dir}}{{end}}"}, pkgs...)...)
	cmd.Dir = root
	cmd.Env = append(append(os.Environ(), "CGO_ENABLED=0"), env...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list -deps: %w: %s", err, strings.TrimSpace(stderr.String()))
	}
	var dirs []string
	for _, d := range strings.Fields(string(out)) {
		if rel, err := filepath.Rel(root, d); err == nil && filepath.IsLocal(rel) && !slices.Contains(dirs, d) {
			dirs = append(dirs, d)
		}
	}
	slices.Sort(dirs)
	return dirs, nil
}

// hashDirs hashes go.mod, go.sum and the .go files (tests aside) of dirs.
func (s *sourceHasher) hashDirs(root string, dirs []string) (buildcache.Key, error) {
	h := buildcache.NewHasher()
	files := []string{filepath.Join(root, "go.mod"), filepath.Join(root, "go.sum")}
	for _, d := range dirs {
		gos, err := filepath.Glob(filepath.Join(d, "*.go"))
		if err != nil {
			return buildcache.Key{}, err
		}
		for _, f := range gos {
			if !strings.HasSuffix(f, "_test.go") {
				files = append(files, f)
			}
		}
	}
	for _, f := range files {
		fi, err := os.Stat(f)
		if errors.Is(err, fs.ErrNotExist) && strings.HasSuffix(f, "go.sum") {
			continue // a module without dependencies has none
		}
		if err != nil {
			return buildcache.Key{}, err
		}
		sum, err := s.file(f, fi)
		if err != nil {
			return buildcache.Key{}, err
		}
		rel, _ := filepath.Rel(root, f)
		h.Add(filepath.ToSlash(rel), sum[:])
	}
	return h.Sum(), nil
}

func (s *sourceHasher) file(p string, fi fs.FileInfo) ([sha256.Size]byte, error) {
	if m, ok := s.files[p]; ok && m.size == fi.Size() && m.modTime.Equal(fi.ModTime()) {
		return m.sum, nil
	}
	f, err := os.Open(p)
	if err != nil {
		return [sha256.Size]byte{}, err
	}
	defer f.Close()
	hs := sha256.New()
	if _, err := io.Copy(hs, f); err != nil {
		return [sha256.Size]byte{}, err
	}
	var sum [sha256.Size]byte
	hs.Sum(sum[:0])
	if time.Since(fi.ModTime()) > racyWindow {
		s.files[p] = fileHash{fi.Size(), fi.ModTime(), sum}
	} else {
		delete(s.files, p)
	}
	return sum, nil
}

// ImportsOf lists the imports of files (names to contents) that are not in
// the standard library (see NonStdImports), in the files' names' order.
func ImportsOf(files map[string][]byte, module string) []string {
	var imps []string
	fset := token.NewFileSet()
	for _, name := range slices.Sorted(maps.Keys(files)) {
		af, err := parser.ParseFile(fset, name, files[name], parser.ImportsOnly)
		if err != nil {
			continue // the build reports it
		}
		for _, is := range af.Imports {
			p, err := strconv.Unquote(is.Path.Value)
			if err != nil {
				continue
			}
			first, _, _ := strings.Cut(p, "/")
			if (strings.Contains(first, ".") || first == module) && !slices.Contains(imps, p) {
				imps = append(imps, p)
			}
		}
	}
	return imps
}
