package server

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"mime"
	"net/http"
	"os"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/labstack/echo/v4"
)

// assets serves files from a file system, each compressed once and kept in
// memory until the file changes (a file under the override folder may be
// rebuilt while the server runs; embedded files never change).
type assets struct {
	fsys  fs.FS
	mu    sync.Mutex
	cache map[string]*asset
}

type asset struct {
	modTime time.Time
	size    int64
	raw     []byte
	gz      []byte // nil when compression does not pay
	etag    string // of raw; the gzip variant appends "-gz"
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
	a.mu.Lock()
	defer a.mu.Unlock()
	if c, ok := a.cache[name]; ok && c.modTime.Equal(fi.ModTime()) && c.size == fi.Size() {
		return c, nil
	}
	raw, err := fs.ReadFile(a.fsys, name)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(raw)
	c := &asset{modTime: fi.ModTime(), size: fi.Size(), raw: raw, etag: `"` + hex.EncodeToString(sum[:12]) + `"`}
	if compressible(name) && len(raw) >= 512 {
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		zw.Write(raw)
		zw.Close()
		if buf.Len() < len(raw)*9/10 {
			c.gz = buf.Bytes()
		}
	}
	a.cache[name] = c
	return c, nil
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
	if f.gz != nil {
		hdr.Add(echo.HeaderVary, echo.HeaderAcceptEncoding)
		if acceptsGzip(c.Request().Header.Get(echo.HeaderAcceptEncoding)) {
			hdr.Set(echo.HeaderContentEncoding, "gzip")
			body, etag = f.gz, strings.TrimSuffix(f.etag, `"`)+`-gz"`
		}
	}
	hdr.Set("ETag", etag)
	if hdr.Get(echo.HeaderContentEncoding) != "" && c.Request().Header.Get("Range") == "" {
		// ServeContent leaves the length out of encoded responses; the
		// whole gzipped body is sent, so say how long it is (the browser
		// can then show download progress).
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

// acceptsGzip reports whether an Accept-Encoding header allows gzip.
func acceptsGzip(header string) bool {
	for _, part := range strings.Split(header, ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if !strings.EqualFold(strings.TrimSpace(name), "gzip") {
			continue
		}
		q := strings.ReplaceAll(params, " ", "")
		return q != "q=0" && q != "q=0.0" && q != "q=0.00" && q != "q=0.000"
	}
	return false
}

// Prefer returns base with the files of the folder dir served in its
// place, when dir has them: the live loop's rebuilt lab.wasm over the one
// the server started with.
func Prefer(dir string, base fs.FS) fs.FS {
	return overlay{top: os.DirFS(dir), base: base}
}

// overlay serves a file from top if top has it, otherwise from base.
type overlay struct {
	top, base fs.FS
}

func (o overlay) Open(name string) (fs.File, error) {
	f, err := o.top.Open(name)
	if err == nil {
		return f, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	return o.base.Open(name)
}

// emptyFS has no files.
type emptyFS struct{}

func (emptyFS) Open(name string) (fs.File, error) {
	return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
}
