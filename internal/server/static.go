package server

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"ratelab/internal/precompress"
)

// assets serves files from a file system, each compressed once and kept in
// memory until the file changes (a file under the override folder may be
// rebuilt while the server runs; embedded files never change).
//
// A file may come with precompressed copies beside it, name.br and name.gz
// (internal/precompress writes them for lab.wasm at build time: Brotli's
// best quality is too slow for a request). A copy is served only once it
// has been decoded to the file's exact content, so a copy left by an older
// build is never served: not when lab.wasm was rebuilt without its copies
// (`go build` alone, or the live loop's rebuild served over the embedded
// files), nor when embedded files have no times to compare. Without a good
// copy, gzip is made here, as it was before there were copies, and Brotli
// is not offered.
type assets struct {
	fsys  fs.FS
	mu    sync.Mutex
	cache map[string]*asset
}

type asset struct {
	version version
	modTime time.Time
	raw     []byte
	br      []byte // the checked name.br; nil when there is none
	gz      []byte // the checked name.gz, else gzip made here; nil when compression does not pay
	etag    string // of raw; a compressed variant appends "-br" or "-gz"
}

// version tells whether a file or its copies changed since they were read.
type version [3]stamp // name, name.br, name.gz

type stamp struct {
	exists  bool
	modTime time.Time
	size    int64
}

func newAssets(fsys fs.FS) *assets {
	if fsys == nil {
		fsys = emptyFS{}
	}
	return &assets{fsys: fsys, cache: map[string]*asset{}}
}

// exists reports whether name is a regular file.
func (a *assets) exists(name string) bool {
	fi, err := fs.Stat(a.fsys, name)
	return err == nil && fi.Mode().IsRegular()
}

func (a *assets) stamp(name string) stamp {
	fi, err := fs.Stat(a.fsys, name)
	if err != nil || !fi.Mode().IsRegular() {
		return stamp{}
	}
	return stamp{exists: true, modTime: fi.ModTime(), size: fi.Size()}
}

// get returns the current content of name, or an error matching
// fs.ErrNotExist.
func (a *assets) get(name string) (*asset, error) {
	fi, err := fs.Stat(a.fsys, name)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fs.ErrNotExist
	}
	v := version{{exists: true, modTime: fi.ModTime(), size: fi.Size()}}
	if compressible(name) {
		v[1], v[2] = a.stamp(name+".br"), a.stamp(name+".gz")
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if c, ok := a.cache[name]; ok && c.version == v {
		return c, nil
	}
	raw, err := fs.ReadFile(a.fsys, name)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(raw)
	c := &asset{version: v, modTime: fi.ModTime(), raw: raw, etag: `"` + hex.EncodeToString(sum[:12]) + `"`}
	if compressible(name) && len(raw) >= 512 {
		c.br = a.precompressed(name+".br", "br", len(raw), sum)
		c.gz = a.precompressed(name+".gz", "gzip", len(raw), sum)
		if c.gz == nil {
			if gz, err := precompress.Compress("gzip", raw); err == nil && len(gz) < len(raw)*9/10 {
				c.gz = gz
			}
		}
	}
	a.cache[name] = c
	return c, nil
}

// precompressed returns the copy at name if it decodes, in encoding, to
// the content whose SHA-256 is sum and is smaller than its size; nil
// otherwise.
func (a *assets) precompressed(name, encoding string, size int, sum [sha256.Size]byte) []byte {
	body, err := fs.ReadFile(a.fsys, name)
	if err != nil || len(body) >= size || !precompress.Matches(encoding, body, sum) {
		return nil
	}
	return body
}

func (h *handlers) serveStatic(c echo.Context) error {
	name := path.Clean(strings.TrimPrefix(c.Param("*"), "/"))
	if !fs.ValidPath(name) || name == "." {
		return notFound("There is no file at %s.", c.Request().URL.Path)
	}
	f, err := h.static.get(name)
	if errors.Is(err, fs.ErrNotExist) {
		return notFound("There is no file at %s.", c.Request().URL.Path)
	}
	if err != nil {
		return err
	}
	hdr := c.Response().Header()
	hdr.Set(echo.HeaderContentType, contentType(name))
	// Revalidate every time: assets change whenever `make wasm` runs, and
	// the ETag makes an unchanged one cost a 304.
	hdr.Set(echo.HeaderCacheControl, "no-cache")
	body, etag := f.raw, f.etag
	if f.br != nil || f.gz != nil {
		hdr.Add(echo.HeaderVary, echo.HeaderAcceptEncoding)
		accept := c.Request().Header.Get(echo.HeaderAcceptEncoding)
		switch {
		case f.br != nil && accepts(accept, "br"):
			hdr.Set(echo.HeaderContentEncoding, "br")
			body, etag = f.br, strings.TrimSuffix(f.etag, `"`)+`-br"`
		case f.gz != nil && accepts(accept, "gzip"):
			hdr.Set(echo.HeaderContentEncoding, "gzip")
			body, etag = f.gz, strings.TrimSuffix(f.etag, `"`)+`-gz"`
		}
	}
	hdr.Set("ETag", etag)
	if hdr.Get(echo.HeaderContentEncoding) != "" && c.Request().Header.Get("Range") == "" {
		// ServeContent leaves the length out of encoded responses; the
		// whole compressed body is sent, so say how long it is (the
		// browser can then show download progress).
		hdr.Set(echo.HeaderContentLength, strconv.Itoa(len(body)))
	}
	http.ServeContent(c.Response(), c.Request(), name, f.modTime, bytes.NewReader(body))
	return nil
}

// contentType is the media type served for a file name. WebAssembly must be
// application/wasm for instantiateStreaming to accept it.
func contentType(name string) string {
	switch path.Ext(name) {
	case ".wasm":
		return "application/wasm"
	case ".js", ".mjs":
		return "text/javascript; charset=utf-8"
	case ".css":
		return "text/css; charset=utf-8"
	case ".svg":
		return "image/svg+xml"
	case ".json", ".map":
		return "application/json"
	}
	if t := mime.TypeByExtension(path.Ext(name)); t != "" {
		return t
	}
	return "application/octet-stream"
}

func compressible(name string) bool {
	switch path.Ext(name) {
	case ".wasm", ".js", ".mjs", ".css", ".svg", ".json", ".map", ".html", ".txt":
		return true
	}
	return false
}

// accepts reports whether an Accept-Encoding header allows the content
// coding (e.g. "br", "gzip"): named with a q-value above 0.
func accepts(header, coding string) bool {
	for _, part := range strings.Split(header, ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if !strings.EqualFold(strings.TrimSpace(name), coding) {
			continue
		}
		q := strings.ReplaceAll(params, " ", "")
		return q != "q=0" && q != "q=0.0" && q != "q=0.00" && q != "q=0.000"
	}
	return false
}

// emptyFS has no files.
type emptyFS struct{}

func (emptyFS) Open(name string) (fs.File, error) {
	return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
}
