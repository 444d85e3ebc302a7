package precompress

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/andybalholm/brotli"
)

// Encoding is a content coding written beside a file.
type Encoding struct {
	Name string // the Content-Encoding token: "br", "gzip"
	Ext  string // the suffix of the copy's file name: ".br", ".gz"
}

// Encodings are the codings Write writes, the server's order of
// preference: Brotli, then gzip.
var Encodings = []Encoding{
	{Name: "br", Ext: ".br"},
	{Name: "gzip", Ext: ".gz"},
}

// BrotliQuality is the Brotli quality Write uses: the best whose copy of
// lab.wasm costs at most 2 s of CPU time on the 2-core development machine.
// Each quality above it costs far more time than it saves bytes; 11, the
// best, takes tens of seconds, which held `make run` up before anything
// was served. (make bench and precompress/write print the sizes and the
// time.)
const BrotliQuality = 8

// GzipLevel is the gzip level Write uses: the default, much quicker than
// the best level for a few more bytes.
const GzipLevel = gzip.DefaultCompression

// Copy is one compressed copy Write made or found.
type Copy struct {
	Encoding Encoding
	Path     string        // the copy's file
	Size     int           // its bytes
	Took     time.Duration // compressing took; 0 if Kept
	Kept     bool          // the copy there already held the file's content: not rewritten
}

// Write writes path+".br" and path+".gz" from the file at path (or only
// the copies in the encodings named, "br" or "gzip"), at once, each unless
// the copy already there decodes to the file's content. A copy is written
// to a temporary file, hidden (its name starts with a dot, which go:embed
// and the server skip), and renamed into place, so a server never reads
// half of one.
func Write(path string, only ...string) ([]Copy, error) {
	encs := Encodings
	if len(only) > 0 {
		encs = nil
		for _, name := range only {
			i := slices.IndexFunc(Encodings, func(e Encoding) bool { return e.Name == name })
			if i < 0 {
				return nil, fmt.Errorf("precompress: unknown encoding %q", name)
			}
			encs = append(encs, Encodings[i])
		}
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(raw)
	copies := make([]Copy, len(encs))
	errs := make([]error, len(encs))
	var wg sync.WaitGroup
	for i, enc := range encs {
		wg.Go(func() { copies[i], errs[i] = write(path, raw, sum, enc) })
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return copies, nil
}

func write(path string, raw []byte, sum [sha256.Size]byte, enc Encoding) (Copy, error) {
	c := Copy{Encoding: enc, Path: path + enc.Ext}
	if old, err := os.ReadFile(c.Path); err == nil && Matches(enc.Name, old, sum) {
		c.Size, c.Kept = len(old), true
		return c, nil
	}
	start := time.Now()
	body, err := Compress(enc.Name, raw)
	if err != nil {
		return c, err
	}
	c.Took, c.Size = time.Since(start), len(body)
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(c.Path)+".*.tmp")
	if err != nil {
		return c, err
	}
	_, err = tmp.Write(body)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), c.Path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return c, err
	}
	return c, nil
}

// Compress returns raw compressed with the named coding ("br" or "gzip")
// at the quality Write uses.
func Compress(encoding string, raw []byte) ([]byte, error) {
	var buf bytes.Buffer
	var w io.WriteCloser
	switch encoding {
	case "br":
		w = brotli.NewWriterLevel(&buf, BrotliQuality)
	case "gzip":
		w, _ = gzip.NewWriterLevel(&buf, GzipLevel)
	default:
		return nil, fmt.Errorf("precompress: unknown encoding %q", encoding)
	}
	if _, err := w.Write(raw); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Matches reports whether body, in the named coding ("br" or "gzip"),
// decodes completely to content whose SHA-256 is sum. It reads the decoded
// stream without keeping it: about 20 ms for lab.wasm.
func Matches(encoding string, body []byte, sum [sha256.Size]byte) bool {
	var r io.Reader
	switch encoding {
	case "br":
		r = brotli.NewReader(bytes.NewReader(body))
	case "gzip":
		zr, err := gzip.NewReader(bytes.NewReader(body))
		if err != nil {
			return false
		}
		zr.Multistream(false)
		r = zr
	default:
		return false
	}
	h := sha256.New()
	if _, err := io.Copy(h, r); err != nil {
		return false
	}
	return bytes.Equal(h.Sum(nil), sum[:])
}
