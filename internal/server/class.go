package server

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/labstack/echo/v4"
	"golang.org/x/crypto/bcrypt"

	"ratelab/internal/class"
	"ratelab/internal/lti"
	"ratelab/internal/quota"
	"ratelab/internal/store"
	"ratelab/web/page"
)

// Class mode's handlers are split by concern: sign-in (class_auth.go),
// CSRF and the cookies (class_csrf.go), the upload (class_upload.go), the
// drafts and checks (class_drafts.go), Yours (class_yours.go), the live websockets
// (class_live.go), and the pages and the CSV gradebook (class_pages.go).
// This file wires them: what they need, their routes, and how their errors
// reach programs.

// Class configures class mode. Nil in Config leaves the server as the
// single learner's local lab: no /class routes at all.
type Class struct {
	// Class is the running class; its store holds the accounts and the
	// submissions.
	Class *class.Class
	// SecureCookies says the class is served over HTTPS (by a TLS proxy in
	// front): its cookies are then __Host- cookies, Secure, and a write's
	// Origin must be https (see class_csrf.go). A request that came over
	// TLS, or through a trusted proxy saying X-Forwarded-Proto: https, is
	// taken as HTTPS without it.
	SecureCookies bool
	// SessionTTL is how long a login lasts; 0 means 12 hours.
	SessionTTL time.Duration
	// SignIn sets the sign-in budgets (per account name, per client
	// address) and how many password checks run at once; zero fields take
	// quota.SignInConfig's defaults.
	SignIn quota.SignInConfig
	// SignInWait is how long a sign-in waits for a free password check
	// before it is refused (503); 0 means 10s.
	SignInWait time.Duration
	// ComparePassword compares a bcrypt hash with a password; nil means
	// bcrypt.CompareHashAndPassword. Tests count its calls.
	ComparePassword func(hash, password []byte) error
	// MaxLivePerUser bounds the live websockets one user holds open at
	// once; 0 means 8. Beyond, 429.
	MaxLivePerUser int
	// Yours, if set, builds each learner's code for their lesson pages'
	// visualizations (class_yours.go; a *yours.Builds); nil serves no
	// /class/lessons.
	Yours YoursBuilds
	// LTI, if set, puts the class in learning platforms (LTI 1.3,
	// class_lti.go): /lti/login, /lti/launch, /lti/jwks and /class/lti.
	LTI *lti.Tool
}

// accounts signs class users in: learners by token, instructors by name and
// password, then both by a session cookie.
type accounts interface {
	// LearnerByToken returns the learner whose token hashes to tokenHash,
	// or an error matching store.ErrNotFound.
	LearnerByToken(ctx context.Context, tokenHash []byte) (store.User, error)
	// Instructor returns an instructor and their bcrypt password hash, or
	// an error matching store.ErrNotFound.
	Instructor(ctx context.Context, name string) (u store.User, passwordHash string, err error)
	CreateSession(ctx context.Context, idHash []byte, userID int64, expires time.Time) error
	// SessionUser returns the user of a session unexpired at now, or an
	// error matching store.ErrNotFound.
	SessionUser(ctx context.Context, idHash []byte, now time.Time) (store.User, error)
	DeleteSession(ctx context.Context, idHash []byte, now time.Time) error
}

// submissions reads what learners submitted, with each one's latest job.
type submissions interface {
	// Submission returns one submission with its files, or an error
	// matching store.ErrNotFound.
	Submission(ctx context.Context, id int64) (store.Submission, error)
	// Submissions returns a learner's (userID > 0) or everyone's (0)
	// submissions, newest first, at most limit.
	Submissions(ctx context.Context, userID int64, limit int) ([]store.Submission, error)
	CountJobs(ctx context.Context, state store.JobState) (int, error)
}

// grading is the class's queue and its gradebook.
type grading interface {
	// Limits returns the upload limits in force.
	Limits() class.Limits
	// Submit stores a validated upload and queues it; class.ErrQueueFull
	// when the queue is full.
	Submit(ctx context.Context, user store.User, exercise string, files []store.File) (store.Submission, error)
	// Regrade queues every learner's latest submissions again and returns
	// how many.
	Regrade(ctx context.Context) (int, error)
	Gradebook(ctx context.Context) (*class.Gradebook, error)
	// PitfallSubmissions returns the submissions counted in the
	// gradebook's count of exercise's pitfall: each learner's latest
	// graded one whose result fails a check of it.
	PitfallSubmissions(ctx context.Context, exercise, pitfall string) ([]int64, error)
	// DatabaseAway is the last time the database was away (Postgres).
	DatabaseAway() class.Away
	// CourseChanged tells the live views that a due date or an
	// extension changed.
	CourseChanged()
}

// live hands out gradings' events as they happen.
type live interface {
	// Subscribe returns one submission's events (submission > 0), those
	// of its grading so far first, or every submission's (0).
	Subscribe(submission int64) *class.Subscription
}

var (
	_ accounts    = (*store.Store)(nil)
	_ submissions = (*store.Store)(nil)
	_ grading     = (*class.Class)(nil)
	_ live        = (*class.Class)(nil)
	_ class.Clock = (*class.Class)(nil)
)

// classHandlers serves /class. Each method parses the request, asks the
// interfaces it needs, and renders a page, answers JSON or returns an
// error to the server's one error handler (handleError, which asks
// handleClassError first).
type classHandlers struct {
	*handlers // pageAssets, the time zone, the log

	accounts    accounts
	submissions submissions
	grading     grading
	live        live
	throttle    *quota.PerUser // each learner's submission budget
	signIn      *quota.SignIn  // sign-in budgets and password checks at once
	devices     *devices       // instructors' trusted browsers
	clock       class.Clock    // the class's time: sessions, throttles
	course      *store.Store   // the due dates (class_due.go; package due changes them)

	secureCookies   bool
	sessionTTL      time.Duration
	signInWait      time.Duration
	comparePassword func(hash, password []byte) error
	dummyOnce       sync.Once
	dummy           string // dummyHash's
	liveSockets     *perUser
	downloads       *perUser    // builds of Yours being downloaded (class_yours.go)
	builds          YoursBuilds // nil: no Yours in class mode
}

// problemError is a refusal that lists what was wrong, one sentence each.
type problemError struct {
	code     int
	message  string
	problems []string
}

func (e *problemError) Error() string {
	return e.message + ": " + strings.Join(e.problems, "; ")
}

func (h *handlers) routeClass(e *echo.Echo, cfg Class) {
	if cfg.SessionTTL == 0 {
		cfg.SessionTTL = 12 * time.Hour
	}
	if cfg.SignInWait <= 0 {
		cfg.SignInWait = 10 * time.Second
	}
	if cfg.ComparePassword == nil {
		cfg.ComparePassword = bcrypt.CompareHashAndPassword
	}
	if cfg.MaxLivePerUser <= 0 {
		cfg.MaxLivePerUser = 8
	}
	st := cfg.Class.Store()
	ch := &classHandlers{
		handlers: h,
		accounts: st, submissions: st,
		grading: cfg.Class, live: cfg.Class, throttle: cfg.Class.Throttle, clock: cfg.Class, course: st,
		signIn:        quota.NewSignIn(cfg.SignIn, cfg.Class.Now()),
		devices:       newDevices(),
		secureCookies: cfg.SecureCookies, sessionTTL: cfg.SessionTTL,
		signInWait: cfg.SignInWait, comparePassword: cfg.ComparePassword,
		liveSockets: newPerUser(cfg.MaxLivePerUser),
		downloads:   newPerUser(maxDownloads),
	}
	// Before the CSRF check (which parses the form, an upload's included),
	// a POST other than signing in or out needs a user.
	g := e.Group("/class", inClass, ch.limitBody, ch.authenticate, ch.signedInToPost, ch.csrf)
	get := []string{http.MethodGet, http.MethodHead}
	g.Match(get, "", ch.index)
	g.Match(get, "/login", ch.loginPage)
	g.POST("/login", ch.login)
	g.POST("/logout", ch.logout)
	g.Match(get, "/me", ch.learnerHome, ch.require(store.Learner))
	g.POST("/submissions", ch.submit, ch.require(store.Learner))
	g.Match(get, "/submissions", ch.pitfallSubmissions, ch.require(store.Instructor))
	g.Match(get, "/submissions/:id", ch.submission, ch.require(anyone))
	g.GET("/submissions/:id/live", ch.submissionLive, ch.require(anyone))
	g.GET("/me/live", ch.learnerLive, ch.require(store.Learner))
	g.Match(get, "/dashboard", ch.dashboard, ch.require(store.Instructor))
	g.Match(get, "/dashboard/pitfalls", ch.dashboardPitfalls, ch.require(store.Instructor))
	g.GET("/dashboard/live", ch.dashboardLive, ch.require(store.Instructor))
	g.Match(get, "/gradebook.csv", ch.gradebookCSV, ch.require(store.Instructor))
	g.POST("/regrade", ch.regrade, ch.require(store.Instructor))
	g.POST("/course/due", ch.setDue, ch.require(store.Instructor))
	g.POST("/course/extend", ch.extend, ch.require(store.Instructor))
	g.Match(get, "/lessons/:slug", ch.classLesson, ch.require(anyone))
	ch.routeDrafts(g, cfg)
	if cfg.Yours != nil {
		ch.builds = cfg.Yours
		ch.routeYours(g)
	}
	if cfg.LTI != nil {
		ch.routeLTI(e, g, cfg.LTI)
	}
}

// inClass renders every /class page in class mode (page.InClass): its
// links lead to the class's pages, its words speak of the editor.
func inClass(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		c.SetRequest(c.Request().WithContext(page.InClass(c.Request().Context())))
		return next(c)
	}
}

// bearer returns the request's bearer token (a learner's, sent by the
// submit command), or "".
func bearer(c echo.Context) string {
	a := c.Request().Header.Get(echo.HeaderAuthorization)
	if t, ok := strings.CutPrefix(a, "Bearer "); ok {
		return strings.TrimSpace(t)
	}
	return ""
}

// wantsJSON reports whether the client is a program (the submit command,
// the editor) rather than a browser's page: /class/api/ always answers
// JSON.
func wantsJSON(c echo.Context) bool {
	return bearer(c) != "" || strings.Contains(c.Request().Header.Get(echo.HeaderAccept), echo.MIMEApplicationJSON) ||
		strings.HasPrefix(c.Request().URL.Path, "/class/api/")
}

// isWebsocket reports whether the request asks to upgrade to a websocket.
func isWebsocket(c echo.Context) bool {
	return strings.EqualFold(c.Request().Header.Get("Upgrade"), "websocket")
}

// handleClassError answers errors on /class for programs, in JSON:
// {"error": message, "problems": [...]}. It reports whether it answered.
func handleClassError(err error, c echo.Context) bool {
	if !strings.HasPrefix(c.Request().URL.Path, "/class") || !wantsJSON(c) {
		return false
	}
	code, msg, problems := http.StatusInternalServerError, "The class server hit an unexpected error.", []string(nil)
	var he *echo.HTTPError
	var pe *problemError
	switch {
	case errors.As(err, &pe):
		code, msg, problems = pe.code, pe.message, pe.problems
	case errors.As(err, &he):
		code = he.Code
		if m, ok := he.Message.(string); ok {
			msg = m
		}
	}
	body, _ := json.Marshal(map[string]any{"error": msg, "problems": problems})
	c.Response().Header().Set(echo.HeaderContentType, echo.MIMEApplicationJSONCharsetUTF8)
	c.Response().WriteHeader(code)
	c.Response().Write(body)
	return true
}
