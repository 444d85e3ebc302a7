package server

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"net/netip"
	"strings"
	"time"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	push "ratelab/internal/live" // class.go has a live of its own
	"ratelab/internal/store"
	"ratelab/lab/course"
	"ratelab/web/page"
)

// Reports is what the pages read from the saved grades. *store.Store
// satisfies it.
type Reports interface {
	// LatestResults returns the latest result of every exercise of target.
	LatestResults(ctx context.Context, target string) (map[string]store.Result, error)
	// LatestResult returns one exercise's latest result, or an error
	// matching store.ErrNotFound.
	LatestResult(ctx context.Context, target, exerciseID string) (store.Result, error)
}

var _ Reports = (*store.Store)(nil)

// Config is what New needs.
type Config struct {
	// Reports holds the saved grades. Nil means none: every exercise shows
	// as not graded.
	Reports Reports
	// Static holds the assets served under /static/, e.g. web.Static(dir).
	Static fs.FS
	// Target is the graded tree whose results the pages show; "" means
	// "exercises", the learner's.
	Target string
	// Location is the time zone save times are shown in; nil means UTC.
	Location *time.Location
	// Log receives server errors; nil means slog.Default().
	Log *slog.Logger
	// Class, if set, serves class mode under /class (see Class).
	Class *Class
	// Live, if set, is the single-learner lab's live loop: the pages load
	// live.js, which follows its events on the websocket /live.
	Live *push.Hub
	// TrustedProxies are the reverse proxies in front of the server, as
	// Limits.TrustedProxies (labserver sets both from --trusted-proxy): a
	// request through one is the client's X-Forwarded-For names last.
	TrustedProxies []netip.Prefix
	// Files, if set, is the repository root whose exercises/<name>/ the
	// exercise pages' editor reads and writes through the files API
	// (files.go). labserver sets it in single-learner mode, where the live
	// loop grades each save; never in class mode.
	Files string
	// Hosts, if set, are the Host headers answered (see Hosts): the
	// single-learner lab sets it; class mode, behind its own names and
	// proxies, does not.
	Hosts *Hosts
}

// contentSecurityPolicy allows only this origin. 'wasm-unsafe-eval' lets
// the visualization compile lab.wasm; inline styles are allowed because
// the visualization's script may size its elements through style attributes.
const contentSecurityPolicy = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; " +
	"style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; " +
	"object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

// New returns the lab's HTTP handler, routes and middleware included.
func New(cfg Config) *echo.Echo {
	h := &handlers{
		reports: cfg.Reports,
		static:  newAssets(cfg.Static),
		target:  cfg.Target,
		loc:     cfg.Location,
		log:     cfg.Log,
		hub:     cfg.Live,
		files:   cfg.Files != "",

		trustedProxies: cfg.TrustedProxies,
	}
	if h.target == "" {
		h.target = "exercises"
	}
	if h.loc == nil {
		h.loc = time.UTC
	}
	if h.log == nil {
		h.log = slog.Default()
	}

	e := echo.New()
	e.HideBanner = true
	e.HidePort = true
	e.HTTPErrorHandler = h.handleError

	if cfg.Hosts != nil {
		e.Pre(checkHosts(*cfg.Hosts))
	}
	e.Pre(middleware.RemoveTrailingSlashWithConfig(middleware.TrailingSlashConfig{
		RedirectCode: http.StatusMovedPermanently,
	}))
	e.Use(middleware.Recover())
	e.Use(middleware.SecureWithConfig(middleware.SecureConfig{
		XSSProtection:         "0", // the legacy filter does more harm than good; CSP replaces it
		ContentTypeNosniff:    "nosniff",
		XFrameOptions:         "DENY",
		ReferrerPolicy:        "no-referrer",
		ContentSecurityPolicy: contentSecurityPolicy,
	}))
	e.Use(middleware.GzipWithConfig(middleware.GzipConfig{
		Level:     5,
		MinLength: 1024,
		// Static files are compressed once and cached by serveStatic,
		// class mode's builds of Yours when they are built.
		Skipper: func(c echo.Context) bool {
			p := c.Request().URL.Path
			return strings.HasPrefix(p, "/static/") || strings.HasPrefix(p, "/class/yours/") || isWebsocket(c)
		},
	}))

	// HEAD answers like GET without the body (net/http drops it).
	methods := []string{http.MethodGet, http.MethodHead}
	e.Match(methods, "/", h.home)
	e.Match(methods, "/lessons/:slug", h.lesson)
	e.Match(methods, "/exercises/:id", h.exercise)
	e.Match(methods, "/static/*", h.serveStatic)
	e.Match(methods, "/favicon.ico", func(c echo.Context) error {
		return c.Redirect(http.StatusMovedPermanently, "/static/favicon.svg")
	})
	if cfg.Live != nil {
		e.GET("/live", h.liveSocket)
	}
	if cfg.Files != "" {
		routeFiles(e, cfg.Files)
	}
	if cfg.Class != nil {
		h.routeClass(e, *cfg.Class)
	}
	return e
}

// handlers serves the pages. Each method parses the request, asks the
// catalogue and the reports, and renders a component.
type handlers struct {
	reports Reports
	static  *assets
	target  string
	loc     *time.Location
	log     *slog.Logger
	hub     *push.Hub // nil: no live loop (class mode, tests)
	files   bool      // the files API is served: the exercise pages carry the editor

	trustedProxies []netip.Prefix // see Config.TrustedProxies
}

func (h *handlers) home(c echo.Context) error {
	home := page.Home{Grades: map[string]page.Graded{}}
	if h.reports != nil {
		latest, err := h.reports.LatestResults(c.Request().Context(), h.target)
		if err != nil {
			return fmt.Errorf("reading the latest grades: %w", err)
		}
		for id, r := range latest {
			home.Grades[id] = h.graded(r)
		}
	}
	return render(c, http.StatusOK, page.HomePage(home, h.pageAssets()))
}

func (h *handlers) lesson(c echo.Context) error {
	slug := c.Param("slug")
	for _, w := range course.Weeks() {
		if w.Lesson.Slug == slug {
			return render(c, http.StatusOK, page.LessonPage(w, h.pageAssets()))
		}
	}
	return notFound("There is no lesson called %q. The course lists every lesson.", slug)
}

func (h *handlers) exercise(c echo.Context) error {
	id := c.Param("id")
	ex, ok := course.Lookup(id)
	if !ok {
		return notFound("There is no exercise called %q. The course lists every exercise.", id)
	}
	var g *page.Graded
	if h.reports != nil {
		r, err := h.reports.LatestResult(c.Request().Context(), h.target, id)
		switch {
		case errors.Is(err, store.ErrNotFound):
		case err != nil:
			return fmt.Errorf("reading the latest grade of %s: %w", id, err)
		default:
			gr := h.graded(r)
			g = &gr
		}
	}
	return render(c, http.StatusOK, page.ExercisePage(ex, g, h.pageAssets()))
}

func (h *handlers) graded(r store.Result) page.Graded {
	return page.Graded{Result: r.Exercise, SavedAt: r.SavedAt.In(h.loc), Seed: r.Seed}
}

// pageAssets tells the pages which optional assets exist right now (lab.wasm
// may be built while the server runs, into the static override folder):
// the ones page.OptionalAssets names, which follow from the lessons' declared
// visualization mounts.
func (h *handlers) pageAssets() page.Assets {
	a := page.FindAssets(h.static.exists)
	if h.hub != nil {
		a = a.WithLive()
	}
	if h.files {
		a = a.WithEditor()
	}
	return a
}

// notFound is a 404 whose message the error page shows.
func notFound(format string, args ...any) error {
	return echo.NewHTTPError(http.StatusNotFound, fmt.Sprintf(format, args...))
}

// render renders a component fully before writing, so a rendering error
// still reaches the error handler instead of a half-written page.
func render(c echo.Context, status int, comp templ.Component) error {
	var buf bytes.Buffer
	if err := comp.Render(c.Request().Context(), &buf); err != nil {
		return fmt.Errorf("rendering %s: %w", c.Path(), err)
	}
	return c.HTMLBlob(status, buf.Bytes())
}

// handleError is the one place errors become responses: an HTML error page
// with the right status, and a log line for server faults.
func (h *handlers) handleError(err error, c echo.Context) {
	if c.Response().Committed {
		return
	}
	if handleClassError(err, c) {
		var he *echo.HTTPError
		var pe *problemError
		if !errors.As(err, &he) && !errors.As(err, &pe) {
			h.log.Error("request failed", "method", c.Request().Method, "path", c.Request().URL.Path, "err", err)
		}
		return
	}
	var pe *problemError
	if errors.As(err, &pe) {
		err = echo.NewHTTPError(pe.code, pe.message+": "+strings.Join(pe.problems, " · "))
	}
	code := http.StatusInternalServerError
	heading := "Something went wrong"
	message := "The lab hit an unexpected error. The terminal running the server has the details."
	var he *echo.HTTPError
	if errors.As(err, &he) {
		code = he.Code
		msg, _ := he.Message.(string)
		switch {
		case code == http.StatusNotFound:
			heading = "Page not found"
			if errors.Is(err, echo.ErrNotFound) || msg == "" {
				message = "There is nothing at " + c.Request().URL.Path + ". Start again from the course."
			} else {
				message = msg
			}
		case code == http.StatusMethodNotAllowed:
			heading = "Not allowed"
			message = "The lab's pages only answer GET and HEAD requests."
		case code < 500, code == http.StatusServiceUnavailable && msg != "":
			// A 503 with a message is the server saying it is busy (a
			// full queue, sign-ins waiting), not a fault.
			heading = http.StatusText(code)
			if msg != "" {
				message = msg
			}
		}
	}
	if code >= 500 && !(code == http.StatusServiceUnavailable && errors.As(err, &he)) {
		h.log.Error("request failed", "method", c.Request().Method, "path", c.Request().URL.Path, "err", err)
	}
	if c.Request().Method == http.MethodHead {
		_ = c.NoContent(code)
		return
	}
	if rerr := render(c, code, page.ErrorPage(code, heading, message, h.pageAssets())); rerr != nil {
		h.log.Error("rendering the error page", "err", rerr)
		_ = c.String(code, heading)
	}
}
