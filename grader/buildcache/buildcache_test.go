package buildcache_test

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"ratelab/grader/buildcache"
)

func key(parts ...string) buildcache.Key {
	h := buildcache.NewHasher()
	for i, p := range parts {
		h.AddString(string(rune('a'+i)), p)
	}
	return h.Sum()
}

func writeFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func open(t *testing.T, max int64) *buildcache.Cache {
	t.Helper()
	c, err := buildcache.Open(filepath.Join(t.TempDir(), "cache"), max)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestPutThenGet(t *testing.T) {
	c := open(t, 0)
	tmp := t.TempDir()
	k := key("program one")
	dst := filepath.Join(tmp, "child")
	if c.Get(k, dst, 0o755) {
		t.Fatal("Get on an empty cache = true, want false")
	}
	if _, err := os.Stat(dst); !os.IsNotExist(err) {
		t.Errorf("a miss left %s behind (%v)", dst, err)
	}
	if err := c.Put(k, writeFile(t, tmp, "built", "\x7fELF the program")); err != nil {
		t.Fatal(err)
	}
	if !c.Get(k, dst, 0o755) {
		t.Fatal("Get after Put = false, want true")
	}
	got, err := os.ReadFile(dst)
	if err != nil || string(got) != "\x7fELF the program" {
		t.Errorf("Get wrote %q, %v; want the stored content", got, err)
	}
	if fi, err := os.Stat(dst); err != nil || fi.Mode().Perm() != 0o755&^umask() {
		t.Errorf("Get wrote mode %v, %v; want 0755 less the umask", fi.Mode(), err)
	}
	if c.Get(key("program two"), dst, 0o755) {
		t.Error("Get of another key = true, want false")
	}
	if s := c.Stats(); s != (buildcache.Stats{Hits: 1, Misses: 2, Puts: 1}) {
		t.Errorf("Stats() = %+v; want 1 hit, 2 misses, 1 put", s)
	}
}

func umask() os.FileMode {
	dir, _ := os.MkdirTemp("", "umask")
	defer os.RemoveAll(dir)
	p := filepath.Join(dir, "f")
	os.WriteFile(p, nil, 0o777)
	fi, _ := os.Stat(p)
	return 0o777 &^ fi.Mode().Perm()
}

func TestKeysSeparateParts(t *testing.T) {
	for _, c := range []struct{ a, b []string }{
		{[]string{"ab", "c"}, []string{"a", "bc"}},
		{[]string{"a", ""}, []string{"a"}},
		{[]string{"x"}, []string{"y"}},
	} {
		if key(c.a...) == key(c.b...) {
			t.Errorf("key(%q) == key(%q); want different keys", c.a, c.b)
		}
	}
	if key("same", "parts") != key("same", "parts") {
		t.Error("the same parts gave different keys")
	}
	h1, h2 := buildcache.NewHasher(), buildcache.NewHasher()
	h1.AddString("file", "tokenbucket.go")
	h2.AddString("name", "tokenbucket.go")
	if h1.Sum() == h2.Sum() {
		t.Error("the same data under another label gave the same key")
	}
}

// A damaged entry is a miss, never a wrong file, and is removed.
func TestDamagedEntriesAreMisses(t *testing.T) {
	for name, damage := range map[string]func([]byte) []byte{
		"truncated":      func(b []byte) []byte { return b[:len(b)-3] },
		"a byte flipped": func(b []byte) []byte { b[len(b)-1] ^= 1; return b },
		"longer":         func(b []byte) []byte { return append(b, 'x') },
		"no header":      func(b []byte) []byte { return b[bytes.IndexByte(b, '\n')+1:] },
		"empty":          func([]byte) []byte { return nil },
	} {
		t.Run(name, func(t *testing.T) {
			c := open(t, 0)
			tmp := t.TempDir()
			k := key(name)
			if err := c.Put(k, writeFile(t, tmp, "built", "the whole program")); err != nil {
				t.Fatal(err)
			}
			entry := filepath.Join(c.Dir(), k.String())
			b, err := os.ReadFile(entry)
			if err != nil {
				t.Fatal(err)
			}
			os.WriteFile(entry, damage(b), 0o600)
			dst := filepath.Join(tmp, "child")
			if c.Get(k, dst, 0o755) {
				got, _ := os.ReadFile(dst)
				t.Fatalf("Get of a %s entry = true (wrote %q); want a miss", name, got)
			}
			if _, err := os.Stat(dst); !os.IsNotExist(err) {
				t.Errorf("a damaged entry left %s behind", dst)
			}
			if _, err := os.Stat(entry); !os.IsNotExist(err) {
				t.Errorf("the damaged entry is still there (%v)", err)
			}
		})
	}
}

func TestUnreadableEntryIsAMiss(t *testing.T) {
	if os.Getuid() == 0 {
		t.Skip("root reads any file")
	}
	c := open(t, 0)
	tmp := t.TempDir()
	k := key("unreadable")
	if err := c.Put(k, writeFile(t, tmp, "built", "program")); err != nil {
		t.Fatal(err)
	}
	os.Chmod(filepath.Join(c.Dir(), k.String()), 0)
	if c.Get(k, filepath.Join(tmp, "child"), 0o755) {
		t.Error("Get of an unreadable entry = true, want a miss")
	}
}

// The cap evicts the entries least recently used: Get, Read and Has
// count as a use.
func TestCapEvictsLeastRecentlyUsed(t *testing.T) {
	for _, use := range []string{"Get", "Read", "Has"} {
		t.Run(use, func(t *testing.T) { testCapEvictsLeastRecentlyUsed(t, use) })
	}
}

func testCapEvictsLeastRecentlyUsed(t *testing.T, use string) {
	const size = 1000
	// An entry is its content and a header line under 100 bytes: three
	// fit in the cap, four do not.
	c := open(t, 3*size+300)
	tmp := t.TempDir()
	src := writeFile(t, tmp, "built", strings.Repeat("x", size))
	dst := filepath.Join(tmp, "child")
	base := time.Now().Add(-time.Hour)
	put := func(i int, name string) {
		t.Helper()
		if err := c.Put(key(name), src); err != nil {
			t.Fatal(err)
		}
		// Times set apart by a second, so the order does not hang on the
		// file system's timestamp granularity.
		at := base.Add(time.Duration(i) * time.Second)
		os.Chtimes(filepath.Join(c.Dir(), key(name).String()), at, at)
	}
	put(0, "a")
	put(1, "b")
	put(2, "c")
	var hit bool // a is now the most recently used
	switch use {
	case "Get":
		hit = c.Get(key("a"), dst, 0o755)
	case "Read":
		_, hit = c.Read(key("a"))
	case "Has":
		hit = c.Has(key("a"))
	}
	if !hit {
		t.Fatal("a is missing before the cap was reached")
	}
	put(3, "d")
	for name, want := range map[string]bool{"a": true, "b": false, "c": true, "d": true} {
		if _, err := os.Stat(filepath.Join(c.Dir(), key(name).String())); (err == nil) != want {
			t.Errorf("entry %s kept = %v, want %v", name, err == nil, want)
		}
	}
	if s := c.Stats(); s.Evictions != 1 {
		t.Errorf("Stats().Evictions = %d, want 1", s.Evictions)
	}
}

func TestStaleTemporaryFilesAreRemoved(t *testing.T) {
	c := open(t, 0)
	tmp := t.TempDir()
	stale := writeFile(t, c.Dir(), ".tmp-dead-put", "half a program")
	fresh := writeFile(t, c.Dir(), ".tmp-live-put", "a program being written")
	old := time.Now().Add(-2 * time.Hour)
	os.Chtimes(stale, old, old)
	if err := c.Put(key("x"), writeFile(t, tmp, "built", "program")); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Error("a temporary file two hours old is still there")
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Errorf("a Put under way lost its temporary file: %v", err)
	}
}

// Concurrent Puts and Gets of one key never show a partial entry, and
// Lock lets one caller at a time through.
func TestConcurrentUse(t *testing.T) {
	c := open(t, 0)
	tmp := t.TempDir()
	content := strings.Repeat("program ", 1<<15)
	src := writeFile(t, tmp, "built", content)
	k := key("shared")
	var wg sync.WaitGroup
	var mu sync.Mutex
	inside, most := 0, 0
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			unlock := c.Lock(k)
			mu.Lock()
			inside++
			most = max(most, inside)
			mu.Unlock()
			dst := filepath.Join(tmp, "child"+string(rune('0'+i)))
			if c.Get(k, dst, 0o755) {
				if got, _ := os.ReadFile(dst); string(got) != content {
					t.Errorf("Get wrote %d bytes, want the %d stored", len(got), len(content))
				}
			} else if err := c.Put(k, src); err != nil {
				t.Error(err)
			}
			mu.Lock()
			inside--
			mu.Unlock()
			unlock()
		}()
	}
	wg.Wait()
	if most != 1 {
		t.Errorf("%d callers held the key's lock at once, want 1", most)
	}
	if s := c.Stats(); s.Puts != 1 || s.Hits != 7 {
		t.Errorf("Stats() = %+v; want 1 put and 7 hits", s)
	}
}

func TestOpenRejectsBadArguments(t *testing.T) {
	if _, err := buildcache.Open("", 0); err == nil {
		t.Error(`Open("", 0) = nil error, want one`)
	}
	if _, err := buildcache.Open(t.TempDir(), -1); err == nil || !strings.Contains(err.Error(), "cap") {
		t.Errorf("Open(dir, -1) = %v, want an error about the cap", err)
	}
}

func TestHasAndReadIntoMemory(t *testing.T) {
	c := open(t, 0)
	tmp := t.TempDir()
	k := key("a build")
	if c.Has(k) {
		t.Error("Has on an empty cache = true")
	}
	if _, ok := c.Read(k); ok {
		t.Error("Read on an empty cache = true")
	}
	if err := c.Put(k, writeFile(t, tmp, "built", "\x00asm the lab")); err != nil {
		t.Fatal(err)
	}
	if !c.Has(k) {
		t.Error("Has after Put = false")
	}
	if got, ok := c.Read(k); !ok || string(got) != "\x00asm the lab" {
		t.Errorf("Read = %q, %v; want the stored content", got, ok)
	}
	// A damaged entry is a miss, and is removed.
	p := filepath.Join(c.Dir(), k.String())
	b, _ := os.ReadFile(p)
	os.WriteFile(p, bytes.Replace(b, []byte("lab"), []byte("LAB"), 1), 0o600)
	if got, ok := c.Read(k); ok {
		t.Errorf("Read of a damaged entry = %q, true; want a miss", got)
	}
	if c.Has(k) {
		t.Error("a damaged entry read stays in the cache")
	}
}

func TestOpenReadsFromTheFile(t *testing.T) {
	c := open(t, 0)
	tmp := t.TempDir()
	k := key("a large build")
	if _, ok := c.Open(k); ok {
		t.Error("Open on an empty cache = true")
	}
	content := bytes.Repeat([]byte("\x00asm0123456789abcdef"), 400_000) // 8 MB
	if err := c.Put(k, writeFile(t, tmp, "built", string(content))); err != nil {
		t.Fatal(err)
	}
	// Opening checks the whole content without holding it: what Open
	// allocates is a small fraction of the entry's size.
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	e, ok := c.Open(k)
	runtime.ReadMemStats(&after)
	if !ok {
		t.Fatal("Open after Put = false")
	}
	defer e.Close()
	if got := after.TotalAlloc - before.TotalAlloc; got > 1<<20 {
		t.Errorf("Open allocated %d bytes for an entry of %d; want under 1 MiB (never the entry in memory)", got, len(content))
	}
	if e.Size() != int64(len(content)) {
		t.Errorf("Size() = %d; want %d", e.Size(), len(content))
	}
	// Another Put of the name while it is open does not change what the
	// open entry reads; it seeks within the content alone.
	if err := c.Put(k, writeFile(t, tmp, "other", "\x00asm another")); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Seek(int64(len(content))-16, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	tail, err := io.ReadAll(e)
	if err != nil || !bytes.Equal(tail, content[len(content)-16:]) {
		t.Errorf("the last 16 bytes = %q, %v; want %q", tail, err, content[len(content)-16:])
	}
	// A damaged entry is a miss, and is removed.
	p := filepath.Join(c.Dir(), k.String())
	b, _ := os.ReadFile(p)
	os.WriteFile(p, bytes.Replace(b, []byte("another"), []byte("ANOTHER"), 1), 0o600)
	if _, ok := c.Open(k); ok {
		t.Error("Open of a damaged entry = true; want a miss")
	}
	if c.Has(k) {
		t.Error("a damaged entry opened stays in the cache")
	}
	// A header without a line break is not an entry.
	os.WriteFile(p, bytes.Repeat([]byte("x"), 1<<20), 0o600)
	if _, ok := c.Open(k); ok {
		t.Error("Open of a file without a header = true; want a miss")
	}
}
