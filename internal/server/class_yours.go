package server

import (
	"context"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"ratelab/internal/store"
	"ratelab/internal/weekbuild"
	"ratelab/internal/yours"
	"ratelab/lab/course"
	"ratelab/web/page"
)

// "Yours" in class mode: the lesson pages of a signed-in learner run their
// own submitted code beside the reference, built by the server (package
// yours).
//
//   - GET /class/lessons/:slug is the lesson of /lessons/:slug, whose
//     visualizations take Yours from the learner's build (the session
//     cookie is sent under /class only, so the class's lessons live there);
//   - GET /class/api/yours?week=N answers the state of the learner's
//     build of week N (internal/weekbuild: what week N's lesson runs; no
//     week: every week's, what the exercise pages replay with), starting
//     the build if need be: {"state": "ready|building|failed", "wasm":
//     "/class/yours/<key>.wasm", "error": "the compiler's lines", "note":
//     "the exercises left as stubs, and why"};
//   - GET /class/yours/<key>.wasm serves a build to the learner whose
//     code it is (yours.Builds.Mine: its key, the SHA-256 of the code
//     built with the toolchain's and the checkout's, can be computed by
//     anyone holding the code, and must not tell them whether someone
//     built it), and to instructors. It is served from its file in the
//     cache (http.ServeContent: ranges, conditional requests), never read
//     into memory, at most maxDownloads at once per user. A build never
//     changes, so it is cached by the browser for a year; in Brotli or
//     gzip (the copies kept with it) to a browser that accepts it. A
//     learner's own build that this process does not keep (another
//     process of the class answered /class/api/yours, on a machine that
//     does not share --yours-cache) is built here while the request
//     waits.

// YoursBuilds builds the learners' Yours: *yours.Builds.
type YoursBuilds interface {
	// Want returns the state of the learner's build of week (0: every
	// week) with their code as the store has it now, starting the build
	// if need be.
	Want(ctx context.Context, userID int64, week int) (yours.Status, error)
	// Open returns the build named name (a Status.Key) as a file to
	// serve, in the first encoding accept takes that a copy is kept in
	// (encoding names it; "" is the build itself), and whether there is
	// one. The caller closes it.
	Open(name string, accept func(encoding string) bool) (f io.ReadSeekCloser, encoding string, ok bool)
	// Mine reports whether name is the build of the learner's code.
	Mine(ctx context.Context, userID int64, name string) bool
	// Ensure builds name here if it is the learner's current build and
	// is not kept here (another process answered their page), waiting
	// for it; it reports whether it is kept now.
	Ensure(ctx context.Context, userID int64, name string) bool
}

var _ YoursBuilds = (*yours.Builds)(nil)

// maxDownloads bounds the builds one user downloads at once: a page fetches
// one, and a slow reader holds its download (its file and a connection)
// until the write timeout.
const maxDownloads = 2

// yoursAPI is where a learner's lesson page asks for their build.
const yoursAPI = "/class/api/yours"

// YoursJSON is GET /class/api/yours.
type YoursJSON struct {
	State yours.State `json:"state"`
	Wasm  string      `json:"wasm,omitempty"`  // the build's URL, once ready
	Error string      `json:"error,omitempty"` // why it failed
	// Note, of a ready build: the exercises it runs as their stub, their
	// code not building for the browser, with the compiler's lines.
	Note string `json:"note,omitempty"`
}

func (h *classHandlers) routeYours(g *echo.Group) {
	get := []string{http.MethodGet, http.MethodHead}
	g.Match(get, "/api/yours", h.yoursState, h.require(store.Learner))
	g.Match(get, "/yours/:file", h.yoursWasm, h.require(anyone))
}

// classLesson is a lesson for a signed-in user, its links to the class's
// pages (served with or without Yours): a learner's visualizations run
// their build as Yours when the class builds them; an instructor's show
// Yours as the server's exercises/ (the stubs), as on /lessons.
func (h *classHandlers) classLesson(c echo.Context) error {
	slug := c.Param("slug")
	u, _ := currentUser(c)
	a := h.userAssets(u)
	for _, w := range course.Weeks() {
		if w.Lesson.Slug == slug {
			return render(c, http.StatusOK, page.LessonPage(w, a))
		}
	}
	return notFound("There is no lesson called %q. The course lists every lesson.", slug)
}

func (h *classHandlers) yoursState(c echo.Context) error {
	u, _ := currentUser(c)
	week := 0
	if w := c.QueryParam("week"); w != "" {
		n, err := strconv.Atoi(w)
		if err != nil || !weekbuild.IsWeek(n) {
			return echo.NewHTTPError(http.StatusBadRequest, fmt.Sprintf("The course has no week %q: each lesson's page asks for its own week's build.", w))
		}
		week = n
	}
	st, err := h.builds.Want(c.Request().Context(), u.ID, week)
	if err != nil {
		return err
	}
	out := YoursJSON{State: st.State, Error: st.Error, Note: st.Note}
	if st.State == yours.Ready {
		out.Wasm = "/class/yours/" + st.Key + ".wasm"
	}
	c.Response().Header().Set(echo.HeaderCacheControl, "no-store")
	return c.JSON(http.StatusOK, out)
}

func (h *classHandlers) yoursWasm(c echo.Context) error {
	name, ok := strings.CutSuffix(c.Param("file"), ".wasm")
	noBuild := notFound("There is no build %s on this server (it may have been removed to make room): reload the lesson, which builds it again.", name)
	if !ok {
		return notFound("There is no build at %s.", c.Request().URL.Path)
	}
	ctx := c.Request().Context()
	u, _ := currentUser(c)
	learner := u.Role == store.Learner
	// Another's build is answered as no build at all: the answer tells
	// nothing of whether someone built that code.
	if learner && !(isKey(name) && h.builds.Mine(ctx, u.ID, name)) {
		return noBuild
	}
	if !h.downloads.take(u.ID) {
		c.Response().Header().Set("Retry-After", "5")
		return echo.NewHTTPError(http.StatusTooManyRequests, fmt.Sprintf(
			"You are downloading %d builds at once already, the most one person may: wait for them, then reload.", h.downloads.max))
	}
	defer h.downloads.release(u.ID)
	header := c.Request().Header.Get(echo.HeaderAcceptEncoding)
	accept := func(enc string) bool { return accepts(header, enc) }
	f, enc, ok := h.builds.Open(name, accept)
	// A learner's own build, removed to make room, is built again.
	if !ok && learner && h.builds.Ensure(ctx, u.ID, name) {
		f, enc, ok = h.builds.Open(name, accept)
	}
	if !ok {
		return noBuild
	}
	defer f.Close()
	hdr := c.Response().Header()
	hdr.Set(echo.HeaderContentType, "application/wasm")
	hdr.Set(echo.HeaderCacheControl, "private, max-age=31536000, immutable")
	hdr.Add(echo.HeaderVary, echo.HeaderAcceptEncoding)
	hdr.Set("ETag", `"`+name+`"`)
	if enc != "" {
		hdr.Set(echo.HeaderContentEncoding, enc)
		hdr.Set("ETag", `"`+name+`-`+enc+`"`)
		// ServeContent leaves the length out of encoded responses; the
		// whole copy is sent unless a range is asked.
		if size, err := f.Seek(0, io.SeekEnd); err == nil {
			hdr.Set(echo.HeaderContentLength, strconv.FormatInt(size, 10))
		}
	}
	http.ServeContent(c.Response(), c.Request(), "", time.Time{}, f)
	return nil
}

// isKey reports whether name can be a build's key: a SHA-256 in hex.
func isKey(name string) bool {
	if len(name) != 64 {
		return false
	}
	_, err := hex.DecodeString(name)
	return err == nil
}
