package sandbox

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// BuildLimits confine the build of untrusted sources (go build compiles
// whatever the learner wrote: a huge array literal, a chain of generic
// types that doubles at each level). The zero value is the defaults below.
//
//   - CPU time, memory (address space) and file size per process of the
//     build (the go command, the compiler, the linker), through prlimit(1)
//     as for the grading child: a build that needs more fails, and the
//     learner is told their code does not build;
//   - a minimal environment (GOENV=off: no user settings), GOTMPDIR inside
//     the grading's own folder, which is removed after the grading whatever
//     happened, and the build's own process group, killed whole when the
//     grading is cancelled or times out;
//   - its own build cache (Cache), shared by the sandbox's builds so that
//     the course's code is compiled once, and emptied whenever a build
//     leaves it larger than CacheMax: a learner cannot grow it without
//     bound;
//   - when the grader is root and the toolchain, the module cache and the
//     course's tree can be read by the sandbox's user, the build runs as
//     that user too; otherwise it runs as the grader's user, and Log says
//     why once.
type BuildLimits struct {
	CPUTime  time.Duration // per process; 0 means 2 minutes
	Memory   int64         // address space per process; 0 means 4 GiB
	FileSize int64         // largest file a process may write; 0 means 256 MiB
	Cache    string        // the build cache; "" means ratelab-build-cache under the system's temporary folder
	CacheMax int64         // bytes; 0 means 2 GiB

	mu      sync.RWMutex // builds read the cache; emptying it writes
	asUser  bool         // the build drops to the sandbox's user
	gocache string       // the module cache, readable where the build runs
}

func (b *BuildLimits) defaults() {
	if b.CPUTime <= 0 {
		b.CPUTime = 2 * time.Minute
	}
	if b.Memory <= 0 {
		b.Memory = 4 << 30
	}
	if b.FileSize <= 0 {
		b.FileSize = 256 << 20
	}
	if b.Cache == "" {
		b.Cache = filepath.Join(os.TempDir(), "ratelab-build-cache")
	}
	if b.CacheMax <= 0 {
		b.CacheMax = 2 << 30
	}
}

// probeBuild finds out where the build may run: as the sandbox's user only
// if that user can read everything the build reads.
func (s *Sandbox) probeBuild() {
	out, _ := exec.Command("go", "env", "GOROOT", "GOMODCACHE").Output()
	paths := strings.Fields(string(out))
	s.Build.gocache = ""
	if len(paths) == 2 {
		s.Build.gocache = paths[1]
	}
	if !s.asRoot {
		return
	}
	wd, _ := os.Getwd()
	for _, p := range append(paths, wd) {
		if !othersCanRead(p) {
			s.Log("sandbox: %s cannot be read by user %d: the build runs as this user (with its limits)", p, s.User)
			return
		}
	}
	s.Build.asUser = true
}

// othersCanRead reports whether every folder on the way to dir can be
// searched, and dir read, by anyone.
func othersCanRead(dir string) bool {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return false
	}
	for p := abs; ; p = filepath.Dir(p) {
		fi, err := os.Stat(p)
		if err != nil || fi.Mode().Perm()&0o001 == 0 || (p == abs && fi.Mode().Perm()&0o004 == 0) {
			return false
		}
		if p == filepath.Dir(p) {
			return true
		}
	}
}

// ConfineBuild rewrites cmd, a go build of untrusted sources, to run
// within the limits, with its work under tmp. The caller runs the returned
// done after the build, whatever happened.
func (s *Sandbox) ConfineBuild(cmd *exec.Cmd, tmp string) (done func(), err error) {
	s.probe()
	b := &s.Build
	work := filepath.Join(tmp, "build")
	if err := os.MkdirAll(work, 0o755); err != nil {
		return nil, err
	}
	b.mu.RLock()
	done = func() {
		b.mu.RUnlock()
		b.trim(s.Log)
	}
	if err := os.MkdirAll(b.Cache, 0o700); err != nil {
		done()
		return nil, err
	}
	if b.asUser {
		for _, d := range []string{tmp, work} {
			os.Chmod(d, 0o755)
		}
		if err := os.Chown(work, s.User, s.Group); err != nil {
			done()
			return nil, err
		}
		if fi, err := os.Stat(b.Cache); err == nil && !ownedBy(fi, s.User) {
			chownTree(b.Cache, s.User, s.Group)
		}
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		done()
		return nil, err
	}
	cmd.Env = []string{
		"PATH=" + filepath.Dir(goBin) + ":/usr/bin:/bin",
		"HOME=" + work, "GOTMPDIR=" + work, "TMPDIR=" + work,
		"GOCACHE=" + b.Cache, "GOMODCACHE=" + b.gocache,
		"GOENV=off", "GOTELEMETRY=off", "GOFLAGS=-mod=readonly", "GOPROXY=off", "GOTOOLCHAIN=local",
		"CGO_ENABLED=0", "GODEBUG=goindex=0", // see grader/build.NoModuleIndex: builds here go over overlays
	}
	if s.prlimit != "" {
		args := append([]string{cmd.Path}, cmd.Args[1:]...)
		cmd.Path = s.prlimit
		cmd.Args = append([]string{"prlimit",
			"--cpu=" + strconv.FormatInt(int64(b.CPUTime/time.Second), 10),
			"--as=" + strconv.FormatInt(b.Memory, 10),
			"--fsize=" + strconv.FormatInt(b.FileSize, 10),
			"--core=0", "--"}, args...)
	}
	if b.asUser {
		runAs(cmd, s.User, s.Group)
	}
	return done, nil
}

// OwnBuildOutput gives dir, where a build ConfineBuild rewrote writes its
// output, to the user the build runs as, if it drops to the sandbox's.
func (s *Sandbox) OwnBuildOutput(dir string) error {
	s.probe()
	if !s.Build.asUser {
		return nil
	}
	return os.Chown(dir, s.User, s.Group)
}

// ClearBuildCache empties the sandbox's Go build cache and returns the
// bytes it held: what a server does when its disk is full (the next build
// compiles the standard library again).
func (s *Sandbox) ClearBuildCache() int64 {
	s.probe()
	size := treeSize(s.Build.Cache)
	if os.RemoveAll(s.Build.Cache) != nil {
		return size - treeSize(s.Build.Cache)
	}
	return size
}

// trim empties the build cache if it has grown past CacheMax, waiting for
// the builds that use it to end.
func (b *BuildLimits) trim(log func(string, ...any)) {
	if size := treeSize(b.Cache); size > b.CacheMax {
		b.mu.Lock()
		defer b.mu.Unlock()
		if size = treeSize(b.Cache); size > b.CacheMax {
			log("sandbox: the build cache holds %d MiB, over its %d MiB cap: emptying it", size>>20, b.CacheMax>>20)
			os.RemoveAll(b.Cache)
		}
	}
}

func treeSize(dir string) int64 {
	var n int64
	filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	return n
}

func chownTree(dir string, uid, gid int) {
	filepath.WalkDir(dir, func(p string, _ fs.DirEntry, err error) error {
		if err == nil {
			os.Lchown(p, uid, gid)
		}
		return nil
	})
}
