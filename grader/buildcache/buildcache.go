package buildcache

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// DefaultMax is the cap on a cache's size when Open is given 0: 1 GiB,
// about 300 grading programs of 3 MiB.
const DefaultMax = 1 << 30

// Key names an entry: the SHA-256 of everything that went into it.
type Key [sha256.Size]byte

// String is the key in hexadecimal, the entry's file name.
func (k Key) String() string { return hex.EncodeToString(k[:]) }

// Hasher computes a Key from labelled parts. Each part is written with its
// label and its length, so that no two different lists of parts give the
// same key by running into each other.
type Hasher struct{ h hash.Hash }

// NewHasher returns a Hasher with nothing added.
func NewHasher() *Hasher { return &Hasher{h: sha256.New()} }

// Add adds one labelled part.
func (h *Hasher) Add(label string, data []byte) {
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(len(label)))
	h.h.Write(n[:])
	io.WriteString(h.h, label)
	binary.BigEndian.PutUint64(n[:], uint64(len(data)))
	h.h.Write(n[:])
	h.h.Write(data)
}

// AddString adds one labelled part given as a string.
func (h *Hasher) AddString(label, data string) { h.Add(label, []byte(data)) }

// Sum returns the key of the parts added so far.
func (h *Hasher) Sum() Key {
	var k Key
	h.h.Sum(k[:0])
	return k
}

// Cache is a folder of entries by key. Its methods are safe for concurrent
// use.
type Cache struct {
	dir string
	max int64

	mu       sync.Mutex
	locks    map[Key]*keyLock    // the keys held or awaited in this process
	verified map[Key]os.FileInfo // the files Open checked whole (see Open)

	hits, misses, puts, evictions atomic.Int64
}

// Stats counts what a Cache did since Open.
type Stats struct {
	Hits      int64 // Get found a whole entry
	Misses    int64 // Get found none, or a damaged one
	Puts      int64 // entries written
	Evictions int64 // entries removed to keep within the cap
}

// Open returns the cache in dir, creating the folder (readable by its
// owner only). max is the cap in bytes on the entries' total size; 0 means
// DefaultMax, a negative value is an error.
func Open(dir string, max int64) (*Cache, error) {
	if dir == "" {
		return nil, errors.New("build cache: no folder given")
	}
	if max < 0 {
		return nil, fmt.Errorf("build cache: cap %d bytes: want 0 (the default, %d) or more", max, DefaultMax)
	}
	if max == 0 {
		max = DefaultMax
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(abs, 0o700); err != nil {
		return nil, fmt.Errorf("build cache: %w", err)
	}
	return &Cache{dir: abs, max: max, locks: map[Key]*keyLock{}, verified: map[Key]os.FileInfo{}}, nil
}

// Dir is the cache's folder.
func (c *Cache) Dir() string { return c.dir }

// Max is the cap on the entries' total size, in bytes.
func (c *Cache) Max() int64 { return c.max }

// Stats returns the counts so far.
func (c *Cache) Stats() Stats {
	return Stats{Hits: c.hits.Load(), Misses: c.misses.Load(), Puts: c.puts.Load(), Evictions: c.evictions.Load()}
}

// Lock holds key for the caller until it calls the returned unlock: a
// second caller of Lock with the same key in this process waits, so that
// gradings of identical files build once and the others find the entry.
// Processes sharing the folder do not wait for each other: each builds,
// and each Put is whole.
func (c *Cache) Lock(key Key) (unlock func()) {
	c.mu.Lock()
	l := c.locks[key]
	if l == nil {
		l = &keyLock{}
		c.locks[key] = l
	}
	l.users++
	c.mu.Unlock()
	l.mu.Lock()
	return func() {
		l.mu.Unlock()
		c.mu.Lock()
		if l.users--; l.users == 0 {
			delete(c.locks, key)
		}
		c.mu.Unlock()
	}
}

// keyLock is one key's lock and how many callers hold or await it (the
// map forgets a key nobody uses).
type keyLock struct {
	mu    sync.Mutex
	users int
}

// header starts every entry: the format, the content's length and its
// SHA-256, on one line.
const magic = "ratelab-buildcache/v1"

func (c *Cache) path(key Key) string { return filepath.Join(c.dir, key.String()) }

// Get writes the entry for key to dst (created with mode perm, replaced if
// it exists) and reports whether it did. An entry that is missing,
// unreadable or does not match its checksum is a miss: dst is removed and
// a damaged entry too, so the caller builds again. A hit marks the entry
// as recently used.
func (c *Cache) Get(key Key, dst string, perm fs.FileMode) bool {
	p := c.path(key)
	err := copyEntry(p, dst, perm)
	if err != nil {
		os.Remove(dst)
	}
	return c.settle(p, err)
}

// Has reports whether there is an entry for key, without reading it: Get
// and Read still check that it is whole. A hit marks the entry as
// recently used, as Get and Read do: a caller asks because it means to
// serve it (a learner's build of Yours, polled while its page is open,
// and served from another entry, its gzip copy), so it is trimmed last.
func (c *Cache) Has(key Key) bool {
	p := c.path(key)
	fi, err := os.Stat(p)
	if err != nil || !fi.Mode().IsRegular() {
		return false
	}
	now := time.Now()
	os.Chtimes(p, now, now)
	return true
}

// Read returns the content of the entry for key and reports whether there
// was one, as Get does (a damaged entry is a miss and is removed; a hit
// marks the entry as recently used), into memory instead of a file.
func (c *Cache) Read(key Key) ([]byte, bool) {
	p := c.path(key)
	var buf bytes.Buffer
	if !c.settle(p, readEntry(p, &buf)) {
		return nil, false
	}
	return buf.Bytes(), true
}

// settle counts a read of entry p that ended with err: a miss removes a
// damaged entry (not a missing one), a hit marks it as recently used. It
// reports whether it was a hit.
func (c *Cache) settle(p string, err error) bool {
	if err != nil {
		c.misses.Add(1)
		if !errors.Is(err, fs.ErrNotExist) {
			os.Remove(p) // damaged: the next Put writes it whole
		}
		return false
	}
	now := time.Now()
	os.Chtimes(p, now, now)
	c.hits.Add(1)
	return true
}

// Entry is an entry's content opened for reading from its file, as Open
// returns it: a reader that seeks within the content (http.ServeContent
// serves it, ranges included), never a copy in memory. Close it when done.
type Entry struct {
	*io.SectionReader
	f    *os.File
	size int64
}

// Size is the content's length in bytes.
func (e *Entry) Size() int64 { return e.size }

// Close closes the entry's file.
func (e *Entry) Close() error { return e.f.Close() }

// Open returns the content of the entry for key as a file to read, and
// reports whether there was one, as Read does (a damaged entry is a miss
// and is removed; a hit marks the entry as recently used), without
// reading it into memory: the checksum is computed as the file is read
// through, with a small buffer, before Open returns, the first time this
// process opens that file (the same file, not a new one renamed over it:
// os.SameFile); later opens of it check its header alone. Entries are
// never written in place (Put renames a whole new file over the old), so
// the open file stays the entry that was checked, whatever happens to the
// name meanwhile.
func (c *Cache) Open(key Key) (*Entry, bool) {
	p := c.path(key)
	e, err := c.openEntry(key, p)
	if !c.settle(p, err) {
		return nil, false
	}
	return e, true
}

// maxVerified bounds the files Open remembers as checked; past it, it
// forgets them all (and checks each again at its next Open).
const maxVerified = 1024

// openEntry opens entry p of key and checks its length and checksum, or
// only its header if this process checked that very file before.
func (c *Cache) openEntry(key Key, p string) (*Entry, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	e, err := c.checked(key, f)
	if err != nil {
		f.Close()
		return nil, err
	}
	return e, nil
}

func (c *Cache) checked(key Key, f *os.File) (*Entry, error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	old, seen := c.verified[key]
	c.mu.Unlock()
	r := bufio.NewReader(f)
	line, err := header(r)
	if err != nil {
		return nil, err
	}
	var size int64
	if seen && os.SameFile(old, fi) && old.Size() == fi.Size() {
		if _, err := fmt.Sscanf(line, magic+" %d ", &size); err != nil {
			return nil, errors.New("entry header: bad length")
		}
	} else {
		if size, err = checkEntry(r, line, io.Discard); err != nil {
			return nil, err
		}
		c.mu.Lock()
		if len(c.verified) >= maxVerified {
			clear(c.verified)
		}
		c.verified[key] = fi
		c.mu.Unlock()
	}
	if off := int64(len(line)); off+size != fi.Size() {
		return nil, fmt.Errorf("entry holds %d bytes, its header says %d", fi.Size()-off, size)
	}
	return &Entry{SectionReader: io.NewSectionReader(f, int64(len(line)), size), f: f, size: size}, nil
}

// copyEntry copies the content of entry p to dst, checking its length and
// checksum.
func copyEntry(p, dst string, perm fs.FileMode) error {
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, perm)
	if err != nil {
		return err
	}
	err = readEntry(p, out)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	return err
}

// readEntry writes the content of entry p to w, checking its length and
// checksum: an error means w may have received part of it.
func readEntry(p string, w io.Writer) error {
	f, err := os.Open(p)
	if err != nil {
		return err
	}
	defer f.Close()
	r := bufio.NewReader(f)
	line, err := header(r)
	if err != nil {
		return err
	}
	_, err = checkEntry(r, line, w)
	return err
}

// header reads an entry's header line, which is short: a damaged entry
// without a line break is not read whole into memory looking for one.
func header(r *bufio.Reader) (string, error) {
	line, err := r.ReadSlice('\n')
	if err != nil {
		return "", fmt.Errorf("entry header: %w", err)
	}
	return string(line), nil
}

// checkEntry writes the content that follows the header line to w from r,
// checking its length and checksum, and returns its length.
func checkEntry(r io.Reader, line string, w io.Writer) (int64, error) {
	fields := strings.Fields(line)
	if len(fields) != 3 || fields[0] != magic {
		return 0, errors.New("entry header: not an entry")
	}
	size, err := strconv.ParseInt(fields[1], 10, 64)
	if err != nil || size < 0 {
		return 0, errors.New("entry header: bad length")
	}
	want, err := hex.DecodeString(fields[2])
	if err != nil || len(want) != sha256.Size {
		return 0, errors.New("entry header: bad checksum")
	}
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(w, h), io.LimitReader(r, size+1))
	switch {
	case err != nil:
		return 0, err
	case n != size:
		return 0, fmt.Errorf("entry holds %d bytes, its header says %d", n, size)
	case !bytes.Equal(h.Sum(nil), want):
		return 0, errors.New("entry does not match its checksum")
	}
	return size, nil
}

// tmpPrefix names the files a Put is writing; only Put and trim touch them.
const tmpPrefix = ".tmp-"

// staleTmp is the age past which a temporary file is a Put that died (a
// killed process) and trim removes it.
const staleTmp = time.Hour

// Put stores the file src as the entry for key, then removes the entries
// least recently used until the cache is within its cap. An entry already
// there is replaced by an identical one.
func (c *Cache) Put(key Key, src string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	fi, err := in.Stat()
	if err != nil {
		return err
	}
	h := sha256.New()
	if _, err := io.Copy(h, in); err != nil {
		return err
	}
	if _, err := in.Seek(0, io.SeekStart); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(c.dir, tmpPrefix+key.String()[:16]+"-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after the rename, there is nothing by that name
	_, err = fmt.Fprintf(tmp, "%s %d %x\n", magic, fi.Size(), h.Sum(nil))
	if err == nil {
		var n int64
		n, err = io.Copy(tmp, in)
		if err == nil && n != fi.Size() {
			err = fmt.Errorf("%s changed while it was stored", src)
		}
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), c.path(key))
	}
	if err != nil {
		return fmt.Errorf("build cache: storing %s: %w", key, err)
	}
	c.puts.Add(1)
	c.trim()
	return nil
}

// Clear removes every entry and temporary file, and returns the bytes it
// freed: what a server does when its disk is full. A build storing an entry
// meanwhile may keep it.
func (c *Cache) Clear() int64 {
	des, err := os.ReadDir(c.dir)
	if err != nil {
		return 0
	}
	var freed int64
	for _, de := range des {
		fi, err := de.Info()
		if err != nil || !fi.Mode().IsRegular() {
			continue
		}
		if os.Remove(filepath.Join(c.dir, de.Name())) == nil {
			freed += fi.Size()
		}
	}
	return freed
}

// trim removes the least recently used entries until the total is within
// the cap, and temporary files older than staleTmp. Processes trimming at
// once may both remove an entry: the second removal fails, harmlessly.
func (c *Cache) trim() {
	des, err := os.ReadDir(c.dir)
	if err != nil {
		return
	}
	type entry struct {
		name string
		size int64
		used time.Time
	}
	var entries []entry
	var total int64
	for _, de := range des {
		fi, err := de.Info()
		if err != nil || !fi.Mode().IsRegular() {
			continue
		}
		if strings.HasPrefix(de.Name(), tmpPrefix) {
			if time.Since(fi.ModTime()) > staleTmp {
				os.Remove(filepath.Join(c.dir, de.Name()))
			}
			continue
		}
		entries = append(entries, entry{de.Name(), fi.Size(), fi.ModTime()})
		total += fi.Size()
	}
	sort.Slice(entries, func(i, j int) bool {
		if !entries[i].used.Equal(entries[j].used) {
			return entries[i].used.Before(entries[j].used)
		}
		return entries[i].name < entries[j].name
	})
	for _, e := range entries {
		if total <= c.max {
			return
		}
		if os.Remove(filepath.Join(c.dir, e.name)) == nil {
			c.evictions.Add(1)
		}
		total -= e.size
	}
}
