package server

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/labstack/echo/v4"

	"ratelab/internal/class"
	"ratelab/internal/store"
	"ratelab/lab/course"
)

// The single-learner lab's files API, which the exercise page's editor
// speaks (web/editor, local mode):
//
//	GET /api/exercises/{name}/files → {"files": {"name.go": "…"}, "version": "…"}
//	PUT /api/exercises/{name}/files {"files": {…}, "base": "…"} → {"version": "…"}
//
// It reads and writes the learner's own exercises/<name>/ in the served
// checkout, and nothing else: the .go files whose names a submission may
// have (class.NameProblem: no folder, no "..", no _test.go), at most the
// sizes a submission may have (class.DefaultLimits). A save writes each
// changed file to a temporary file in the same folder, then renames it
// over the old one, so an editor or the live loop never reads half a
// file; it never deletes a file. The live loop watches the folder and
// grades the save as any other. The version is a hash of the files' names
// and contents: a PUT whose base is not what the disk holds now (the
// learner saved from their own editor meanwhile) is refused with 409 and
// the disk's files, so that nothing is overwritten silently; the page then
// lets the learner choose.
//
// Another site must not write the learner's files through their browser:
// the Hosts check already refuses other names (DNS rebinding), a PUT must
// be JSON (so a cross-site one needs a CORS preflight this server never
// grants), and a PUT that a browser marks as coming from another origin
// (Sec-Fetch-Site, Origin) is refused. A client that is not a browser (a
// script, curl) sends neither and is let through: it runs as the learner.

// filesBodyLimit bounds a PUT's body: the files' limit in all, with room
// for JSON's escapes.
const filesBodyLimit = 2 << 20

// exerciseFiles reads and writes exercises/<name>/ under root.
type exerciseFiles struct {
	root string
	mu   sync.Mutex // one save at a time: a save compares and writes
}

// filesBody is the JSON of a GET's answer, a PUT's body and a 409's answer.
type filesBody struct {
	Files   map[string]string `json:"files"`
	Base    string            `json:"base,omitempty"`
	Version string            `json:"version,omitempty"`
}

// dir returns the folder of exercise name, or a 404 when there is no such
// exercise in the course or in the checkout.
func (x *exerciseFiles) dir(name string) (string, error) {
	if _, ok := course.Lookup(name); !ok {
		return "", notFound("There is no exercise called %q: the course lists every exercise.", name)
	}
	dir := filepath.Join(x.root, "exercises", name)
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return "", notFound("exercises/%s is not in this checkout.", name)
	}
	return dir, nil
}

// readFiles returns the editable files of dir by name (class.ReadExercise).
func readFiles(dir, exercise string) (map[string]string, error) {
	files, err := class.ReadExercise(dir, exercise)
	if err != nil {
		return nil, err
	}
	return store.ByName(files), nil
}

// filesVersion is the hash of the files' names and contents: each name and
// content with its length, in the names' order, so that no two sets of
// files run together into the same bytes.
func filesVersion(files map[string]string) string {
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	slices.Sort(names)
	h := sha256.New()
	for _, n := range names {
		fmt.Fprintf(h, "%d:%s%d:", len(n), n, len(files[n]))
		io.WriteString(h, files[n])
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// getFiles is GET /api/exercises/{name}/files.
func (x *exerciseFiles) getFiles(c echo.Context) error {
	name := c.Param("name")
	dir, err := x.dir(name)
	if err != nil {
		return err
	}
	files, err := readFiles(dir, name)
	if err != nil {
		return fmt.Errorf("reading exercises/%s: %w", name, err)
	}
	return c.JSON(http.StatusOK, filesBody{Files: files, Version: filesVersion(files)})
}

// putFiles is PUT /api/exercises/{name}/files.
func (x *exerciseFiles) putFiles(c echo.Context) error {
	if err := sameOrigin(c.Request()); err != nil {
		return err
	}
	name := c.Param("name")
	dir, err := x.dir(name)
	if err != nil {
		return err
	}
	if ct := c.Request().Header.Get(echo.HeaderContentType); !strings.HasPrefix(ct, echo.MIMEApplicationJSON) {
		return echo.NewHTTPError(http.StatusUnsupportedMediaType, "Send the files as JSON (Content-Type: application/json): {\"files\": {\"name.go\": \"…\"}, \"base\": \"<version read>\"}.")
	}
	var body filesBody
	dec := json.NewDecoder(http.MaxBytesReader(c.Response(), c.Request().Body, filesBodyLimit))
	if err := dec.Decode(&body); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return &problemError{code: http.StatusRequestEntityTooLarge, message: "The files were not saved",
				problems: []string{fmt.Sprintf("the request is over %d bytes", filesBodyLimit)}}
		}
		return echo.NewHTTPError(http.StatusBadRequest, "The body is not JSON of the form {\"files\": {\"name.go\": \"…\"}, \"base\": \"<version read>\"}: "+err.Error())
	}
	// Names and sizes by a submission's rules; not the code, which a
	// learner's save may not compile yet.
	if ps := class.ValidateDraft(name, store.FilesOf(body.Files), class.DefaultLimits()); len(ps) > 0 {
		return &problemError{code: http.StatusUnprocessableEntity, message: "The files were not saved", problems: ps}
	}

	x.mu.Lock()
	defer x.mu.Unlock()
	disk, err := readFiles(dir, name)
	if err != nil {
		return fmt.Errorf("reading exercises/%s: %w", name, err)
	}
	if v := filesVersion(disk); v != body.Base {
		return c.JSON(http.StatusConflict, filesBody{Files: disk, Version: v})
	}
	names := make([]string, 0, len(body.Files))
	for n := range body.Files {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		if old, ok := disk[n]; ok && old == body.Files[n] {
			continue // unchanged: not rewritten, so the live loop sees only real changes
		}
		if err := writeAtomic(dir, n, []byte(body.Files[n])); err != nil {
			return fmt.Errorf("saving exercises/%s/%s: %w", name, n, err)
		}
	}
	// What was read, with what was written over it (a save never deletes):
	// the version of the files this save made, not of a later write by
	// another editor, which the page must still hear of.
	for n, src := range body.Files {
		disk[n] = src
	}
	return c.JSON(http.StatusOK, map[string]string{"version": filesVersion(disk)})
}

// writeAtomic writes data to dir/name through a temporary file in dir
// renamed over it, keeping the old file's permissions (0644 for a new
// one). The temporary name does not end in .go: the live loop ignores it.
func writeAtomic(dir, name string, data []byte) error {
	mode := fs.FileMode(0o644)
	if fi, err := os.Stat(filepath.Join(dir, name)); err == nil {
		mode = fi.Mode().Perm()
	}
	tmp, err := os.CreateTemp(dir, "."+name+".saving-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after the rename, nothing is there
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), filepath.Join(dir, name))
}

// sameOrigin refuses a request that a browser marks as sent by a page of
// another origin: Sec-Fetch-Site other than same-origin, or an Origin
// whose host is not the request's.
func sameOrigin(r *http.Request) error {
	refuse := echo.NewHTTPError(http.StatusForbidden, "Only the lab's own pages may save your files: this request came from another site.")
	if s := r.Header.Get("Sec-Fetch-Site"); s != "" && s != "same-origin" {
		return refuse
	}
	if o := r.Header.Get("Origin"); o != "" {
		u, err := url.Parse(o)
		if err != nil || !strings.EqualFold(u.Host, r.Host) {
			return refuse
		}
	}
	return nil
}

// filesError answers the files API's errors in JSON, {"error", "problems"},
// as the editor reads them (the pages' error handler answers HTML).
func filesError(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		err := next(c)
		if err == nil || c.Response().Committed {
			return err
		}
		var p *problemError
		if errors.As(err, &p) {
			return c.JSON(p.code, map[string]any{"error": p.message, "problems": p.problems})
		}
		var he *echo.HTTPError
		if errors.As(err, &he) {
			msg, _ := he.Message.(string)
			return c.JSON(he.Code, map[string]any{"error": msg})
		}
		return err // a fault: logged and answered by the error handler
	}
}

// routeFiles adds the files API over root's exercises/.
func routeFiles(e *echo.Echo, root string) {
	x := &exerciseFiles{root: root}
	g := e.Group("/api/exercises/:name/files", filesError)
	g.GET("", x.getFiles)
	g.PUT("", x.putFiles)
}
