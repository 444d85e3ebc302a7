package server

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"mime/multipart"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/coder/websocket"
	"github.com/coder/websocket/wsjson"
	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
	"golang.org/x/crypto/bcrypt"

	"ratelab/grader"
	"ratelab/grader/report"
	"ratelab/internal/class"
	"ratelab/internal/store"
	"ratelab/web/page"
)

// Class configures class mode. Nil in Config leaves the server as the
// single learner's local lab: no /class routes at all.
type Class struct {
	Class *class.Class
	// SecureCookies marks the session cookie Secure (serve the class over
	// HTTPS, or behind a proxy that does).
	SecureCookies bool
	// SessionTTL is how long a login lasts; 0 means 12 hours.
	SessionTTL time.Duration
}

const (
	sessionCookie = "ratelab_session"
	userKey       = "class.user"
	csrfKey       = "csrf"
	// formBodyLimit bounds every class POST but the upload.
	formBodyLimit = 64 << 10
	// multipartOverhead is room for the form's own bytes beyond the files.
	multipartOverhead = 64 << 10
)

// classHandlers serves /class.
type classHandlers struct {
	*handlers
	cfg Class
	cl  *class.Class
	st  *store.Store
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
	ch := &classHandlers{handlers: h, cfg: cfg, cl: cfg.Class, st: cfg.Class.Store()}
	g := e.Group("/class", ch.limitBody, ch.authenticate, middleware.CSRFWithConfig(middleware.CSRFConfig{
		TokenLookup:    "form:_csrf",
		CookieName:     "ratelab_csrf",
		CookiePath:     "/class",
		CookieHTTPOnly: true,
		CookieSecure:   cfg.SecureCookies,
		CookieSameSite: http.SameSiteStrictMode,
		// A bearer token is never sent by a browser on its own: no CSRF.
		Skipper: func(c echo.Context) bool { return bearer(c) != "" },
		ErrorHandler: func(err error, c echo.Context) error {
			return echo.NewHTTPError(http.StatusForbidden, "This form has expired or did not come from this site: reload the page and try again.")
		},
	}))
	get := []string{http.MethodGet, http.MethodHead}
	g.Match(get, "", ch.index)
	g.Match(get, "/login", ch.loginPage)
	g.POST("/login", ch.login)
	g.POST("/logout", ch.logout)
	g.Match(get, "/me", ch.learnerHome, ch.require(store.Learner))
	g.POST("/submissions", ch.submit, ch.require(store.Learner))
	g.Match(get, "/submissions/:id", ch.submission, ch.require(""))
	g.GET("/submissions/:id/live", ch.submissionLive, ch.require(""))
	g.Match(get, "/dashboard", ch.dashboard, ch.require(store.Instructor))
	g.GET("/dashboard/live", ch.dashboardLive, ch.require(store.Instructor))
	g.Match(get, "/gradebook.csv", ch.gradebookCSV, ch.require(store.Instructor))
	g.POST("/regrade", ch.regrade, ch.require(store.Instructor))
}

func bearer(c echo.Context) string {
	a := c.Request().Header.Get(echo.HeaderAuthorization)
	if t, ok := strings.CutPrefix(a, "Bearer "); ok {
		return strings.TrimSpace(t)
	}
	return ""
}

// wantsJSON reports whether the client is a program (the submit command)
// rather than a browser.
func wantsJSON(c echo.Context) bool {
	return bearer(c) != "" || strings.Contains(c.Request().Header.Get(echo.HeaderAccept), echo.MIMEApplicationJSON)
}

// limitBody refuses a body over the limit before anything reads it, and
// bounds what is read when the client did not say its length.
func (h *classHandlers) limitBody(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		if r.Method != http.MethodPost {
			return next(c)
		}
		limit := int64(formBodyLimit)
		if r.URL.Path == "/class/submissions" {
			limit = h.cl.Limits().MaxTotalBytes + multipartOverhead
		}
		if r.ContentLength > limit {
			return echo.NewHTTPError(http.StatusRequestEntityTooLarge,
				fmt.Sprintf("The upload is %d bytes; a submission may be at most %d bytes of source (%d per file).",
					r.ContentLength, h.cl.Limits().MaxTotalBytes, h.cl.Limits().MaxFileBytes))
		}
		r.Body = http.MaxBytesReader(c.Response(), r.Body, limit)
		return next(c)
	}
}

// authenticate finds the user from a bearer token (learners' command line)
// or the session cookie, if any.
func (h *classHandlers) authenticate(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		ctx := c.Request().Context()
		if t := bearer(c); t != "" {
			u, err := h.st.LearnerByToken(ctx, store.Hash(t))
			if errors.Is(err, store.ErrNotFound) {
				return echo.NewHTTPError(http.StatusUnauthorized, "This token is not on the class roster: check it with your instructor.")
			}
			if err != nil {
				return err
			}
			c.Set(userKey, u)
		} else if ck, err := c.Cookie(sessionCookie); err == nil && ck.Value != "" {
			u, err := h.st.SessionUser(ctx, store.Hash(ck.Value), h.cl.Now())
			switch {
			case err == nil:
				c.Set(userKey, u)
			case !errors.Is(err, store.ErrNotFound):
				return err
			}
		}
		return next(c)
	}
}

func currentUser(c echo.Context) (store.User, bool) {
	u, ok := c.Get(userKey).(store.User)
	return u, ok
}

// require refuses anyone without a session, and anyone of another role
// (role "" lets any signed-in user through; the handler checks ownership).
func (h *classHandlers) require(role string) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			u, ok := currentUser(c)
			if !ok {
				if !wantsJSON(c) && c.Request().Method == http.MethodGet && !isWebsocket(c) {
					return c.Redirect(http.StatusSeeOther, "/class/login")
				}
				return echo.NewHTTPError(http.StatusUnauthorized, "Sign in first: this page belongs to the class.")
			}
			if role != "" && u.Role != role {
				return echo.NewHTTPError(http.StatusForbidden, "This page is for "+role+"s only.")
			}
			return next(c)
		}
	}
}

func isWebsocket(c echo.Context) bool {
	return strings.EqualFold(c.Request().Header.Get("Upgrade"), "websocket")
}

func csrfToken(c echo.Context) string {
	s, _ := c.Get(csrfKey).(string)
	return s
}

func (h *classHandlers) index(c echo.Context) error {
	u, ok := currentUser(c)
	switch {
	case !ok:
		return c.Redirect(http.StatusSeeOther, "/class/login")
	case u.Role == store.Instructor:
		return c.Redirect(http.StatusSeeOther, "/class/dashboard")
	}
	return c.Redirect(http.StatusSeeOther, "/class/me")
}

func (h *classHandlers) loginPage(c echo.Context) error {
	return render(c, http.StatusOK, page.ClassLogin(csrfToken(c), "", h.pageAssets()))
}

func (h *classHandlers) login(c echo.Context) error {
	ctx := c.Request().Context()
	var (
		u   store.User
		err error
	)
	if token := strings.TrimSpace(c.FormValue("token")); token != "" {
		u, err = h.st.LearnerByToken(ctx, store.Hash(token))
	} else {
		var pw string
		u, pw, err = h.st.Instructor(ctx, strings.TrimSpace(c.FormValue("name")))
		if err == nil && bcrypt.CompareHashAndPassword([]byte(pw), []byte(c.FormValue("password"))) != nil {
			err = store.ErrNotFound
		}
	}
	if errors.Is(err, store.ErrNotFound) {
		return render(c, http.StatusUnauthorized, page.ClassLogin(csrfToken(c),
			"That token, or that name and password, did not match anyone in this class.", h.pageAssets()))
	}
	if err != nil {
		return err
	}
	raw := make([]byte, 32)
	rand.Read(raw)
	id := base64.RawURLEncoding.EncodeToString(raw)
	now := h.cl.Now()
	if err := h.st.CreateSession(ctx, store.Hash(id), u.ID, now.Add(h.cfg.SessionTTL)); err != nil {
		return err
	}
	c.SetCookie(&http.Cookie{Name: sessionCookie, Value: id, Path: "/class", HttpOnly: true,
		Secure: h.cfg.SecureCookies, SameSite: http.SameSiteLaxMode, MaxAge: int(h.cfg.SessionTTL / time.Second)})
	return c.Redirect(http.StatusSeeOther, "/class")
}

func (h *classHandlers) logout(c echo.Context) error {
	if ck, err := c.Cookie(sessionCookie); err == nil {
		if err := h.st.DeleteSession(c.Request().Context(), store.Hash(ck.Value), h.cl.Now()); err != nil {
			return err
		}
	}
	c.SetCookie(&http.Cookie{Name: sessionCookie, Value: "", Path: "/class", HttpOnly: true, MaxAge: -1})
	return c.Redirect(http.StatusSeeOther, "/class/login")
}

func (h *classHandlers) learnerHome(c echo.Context) error {
	u, _ := currentUser(c)
	subs, err := h.st.Submissions(c.Request().Context(), u.ID, 100)
	if err != nil {
		return err
	}
	lim := h.cl.Limits()
	return render(c, http.StatusOK, page.ClassLearner(page.ClassLearnerView{
		Name: u.Name, CSRF: csrfToken(c), Exercises: grader.Gradable(), Submissions: pageSubmissions(subs),
		MaxFileBytes: lim.MaxFileBytes, MaxTotalBytes: lim.MaxTotalBytes,
	}, h.pageAssets()))
}

// submitReply is the JSON answer to an accepted upload.
type submitReply struct {
	ID       int64  `json:"id"`
	Exercise string `json:"exercise"`
	URL      string `json:"url"`  // the submission's page
	Live     string `json:"live"` // its websocket of progress events
}

func (h *classHandlers) submit(c echo.Context) error {
	u, _ := currentUser(c)
	now := h.cl.Now()
	if ok, retry := h.cl.Throttle.Allow(u.ID, now); !ok {
		secs := int(math.Ceil(retry.Seconds()))
		c.Response().Header().Set("Retry-After", strconv.Itoa(secs))
		return echo.NewHTTPError(http.StatusTooManyRequests, fmt.Sprintf(
			"Throttled: you have used your submission budget (%d at once, then one every %s). It refills in %ds, at %s: submit again then.",
			h.cl.Throttle.Burst, h.cl.Throttle.Every, secs, now.Add(time.Duration(secs)*time.Second).UTC().Format("15:04:05 MST")))
	}
	exercise, files, err := h.readUpload(c)
	if err != nil {
		return err
	}
	if problems := class.Validate(exercise, files, h.cl.Limits()); len(problems) > 0 {
		return &problemError{code: http.StatusUnprocessableEntity, message: "The submission was not accepted", problems: problems}
	}
	sub, err := h.cl.Submit(c.Request().Context(), u, exercise, files)
	if errors.Is(err, class.ErrQueueFull) {
		c.Response().Header().Set("Retry-After", "60")
		return echo.NewHTTPError(http.StatusServiceUnavailable, "The grading queue is full: submit again in a minute.")
	}
	if err != nil {
		return err
	}
	url := "/class/submissions/" + strconv.FormatInt(sub.ID, 10)
	if wantsJSON(c) {
		return c.JSON(http.StatusAccepted, submitReply{ID: sub.ID, Exercise: exercise, URL: url, Live: url + "/live"})
	}
	return c.Redirect(http.StatusSeeOther, url)
}

// readUpload reads the multipart form: field "exercise" and the files
// "files", each at most the per-file limit.
func (h *classHandlers) readUpload(c echo.Context) (string, []store.File, error) {
	lim := h.cl.Limits()
	if f := c.Request().MultipartForm; f != nil {
		return fromParsedForm(f, lim)
	}
	mr, err := c.Request().MultipartReader()
	if err != nil {
		return "", nil, echo.NewHTTPError(http.StatusBadRequest, "The upload is not a multipart form ("+err.Error()+"): send the exercise's files as multipart/form-data.")
	}
	var (
		exercise string
		files    []store.File
	)
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return "", nil, uploadError(err)
		}
		switch {
		case p.FormName() == "exercise":
			b, err := io.ReadAll(io.LimitReader(p, 256))
			if err != nil {
				return "", nil, uploadError(err)
			}
			exercise = strings.TrimSpace(string(b))
		case p.FormName() == "files" && p.FileName() != "":
			b, err := io.ReadAll(io.LimitReader(p, lim.MaxFileBytes+1))
			if err != nil {
				return "", nil, uploadError(err)
			}
			files = append(files, store.File{Name: rawFileName(p), Content: b})
		}
		p.Close()
	}
	return exercise, files, nil
}

// fromParsedForm reads an upload that the CSRF check already parsed (a
// browser's form, whose token is a form field). Its file names have lost
// any folder; the sizes are checked as they are when streaming.
func fromParsedForm(f *multipart.Form, lim class.Limits) (string, []store.File, error) {
	var exercise string
	if v := f.Value["exercise"]; len(v) > 0 {
		exercise = strings.TrimSpace(v[0])
	}
	var files []store.File
	for _, fh := range f.File["files"] {
		if fh.Size > lim.MaxFileBytes {
			files = append(files, store.File{Name: fh.Filename, Content: make([]byte, lim.MaxFileBytes+1)})
			continue
		}
		r, err := fh.Open()
		if err != nil {
			return "", nil, uploadError(err)
		}
		b, err := io.ReadAll(io.LimitReader(r, lim.MaxFileBytes+1))
		r.Close()
		if err != nil {
			return "", nil, uploadError(err)
		}
		files = append(files, store.File{Name: fh.Filename, Content: b})
	}
	return exercise, files, nil
}

// rawFileName is the file name as the client sent it: Part.FileName drops
// folders, and a name with a folder or ".." must be refused, not trimmed.
func rawFileName(p *multipart.Part) string {
	cd := p.Header.Get("Content-Disposition")
	if i := strings.Index(cd, `filename="`); i >= 0 {
		rest := cd[i+len(`filename="`):]
		if j := strings.IndexByte(rest, '"'); j >= 0 {
			return rest[:j]
		}
	}
	return p.FileName()
}

func uploadError(err error) error {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return echo.NewHTTPError(http.StatusRequestEntityTooLarge, fmt.Sprintf("The upload is over %d bytes: a submission is a few small .go files.", mbe.Limit))
	}
	return echo.NewHTTPError(http.StatusBadRequest, "The upload is not a well-formed multipart form ("+err.Error()+").")
}

// ownSubmission loads submission :id if the user may see it: its learner,
// or an instructor. Others get 404, as if it did not exist.
func (h *classHandlers) ownSubmission(c echo.Context) (store.Submission, error) {
	u, _ := currentUser(c)
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil {
		return store.Submission{}, notFound("There is no submission %q.", c.Param("id"))
	}
	sub, err := h.st.Submission(c.Request().Context(), id)
	if errors.Is(err, store.ErrNotFound) || (err == nil && u.Role != store.Instructor && sub.UserID != u.ID) {
		return store.Submission{}, notFound("There is no submission %d of yours.", id)
	}
	return sub, err
}

// SubmissionJSON is GET /class/submissions/:id for programs.
type SubmissionJSON struct {
	ID       int64            `json:"id"`
	Learner  string           `json:"learner"`
	Exercise string           `json:"exercise"`
	State    string           `json:"state"`
	Error    string           `json:"error,omitempty"`
	Result   *report.Exercise `json:"result"`
}

func (h *classHandlers) submission(c echo.Context) error {
	sub, err := h.ownSubmission(c)
	if err != nil {
		return err
	}
	if wantsJSON(c) {
		return c.JSON(http.StatusOK, SubmissionJSON{ID: sub.ID, Learner: sub.Learner, Exercise: sub.Exercise,
			State: sub.Job.State, Error: sub.Job.Error, Result: sub.Job.Result})
	}
	u, _ := currentUser(c)
	return render(c, http.StatusOK, page.ClassSubmissionPage(page.ClassSubmissionView{
		Submission: pageSubmission(sub), Files: pageFiles(sub.Files), Instructor: u.Role == store.Instructor,
		SavedAt: sub.Job.FinishedAt.In(h.loc),
	}, h.pageAssets()))
}

// submissionLive streams a submission's grading: what happened so far,
// then each event, until it is done.
func (h *classHandlers) submissionLive(c echo.Context) error {
	sub, err := h.ownSubmission(c)
	if err != nil {
		return err
	}
	s := h.cl.Subscribe(sub.ID)
	defer s.Close()
	conn, err := websocket.Accept(c.Response(), c.Request(), nil)
	if err != nil {
		return nil // Accept answered the request
	}
	defer conn.CloseNow()
	ctx := conn.CloseRead(c.Request().Context())
	// Read the state after subscribing: a grading that ends in between is
	// then either read here as done or received below.
	sub, err = h.st.Submission(ctx, sub.ID)
	if err != nil {
		conn.Close(websocket.StatusInternalError, "reading the submission")
		return nil
	}
	if sub.Job.State == store.Done {
		h.writeEvent(ctx, conn, class.DoneEvent(sub))
		conn.Close(websocket.StatusNormalClosure, "graded")
		return nil
	}
	h.writeEvent(ctx, conn, class.Event{Type: sub.Job.State, Submission: sub.ID, Job: sub.Job.ID, Learner: sub.Learner, Exercise: sub.Exercise})
	return h.stream(ctx, conn, s.C, func(e class.Event) bool { return e.Type == "done" })
}

// stream writes the subscription's events until last says an event was the
// last, the client goes away, or the subscriber falls behind (resync).
func (h *classHandlers) stream(ctx context.Context, conn *websocket.Conn, events <-chan class.Event, last func(class.Event) bool) error {
	ping := time.NewTicker(25 * time.Second)
	defer ping.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-ping.C:
			if err := conn.Ping(ctx); err != nil {
				return nil
			}
		case e, ok := <-events:
			if !ok {
				h.writeEvent(ctx, conn, class.Event{Type: "resync"})
				conn.Close(websocket.StatusTryAgainLater, "fell behind: reload")
				return nil
			}
			if err := h.writeEvent(ctx, conn, e); err != nil {
				return nil
			}
			if last(e) {
				conn.Close(websocket.StatusNormalClosure, "graded")
				return nil
			}
		}
	}
}

func (h *classHandlers) writeEvent(ctx context.Context, conn *websocket.Conn, e class.Event) error {
	wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	return wsjson.Write(wctx, conn, e)
}

func (h *classHandlers) dashboard(c echo.Context) error {
	ctx := c.Request().Context()
	gb, err := h.cl.Gradebook(ctx)
	if err != nil {
		return err
	}
	recent, err := h.st.Submissions(ctx, 0, 20)
	if err != nil {
		return err
	}
	queued, err := h.st.CountJobs(ctx, store.Queued)
	if err != nil {
		return err
	}
	u, _ := currentUser(c)
	return render(c, http.StatusOK, page.ClassDashboard(pageDashboard(gb, u.Name, csrfToken(c), pageSubmissions(recent), queued, c.QueryParam("regraded")), h.pageAssets()))
}

// dashboardLive streams every submission's queued, running and done events
// (not each check's: the dashboard shows scores, not progress).
func (h *classHandlers) dashboardLive(c echo.Context) error {
	s := h.cl.Subscribe(0)
	defer s.Close()
	conn, err := websocket.Accept(c.Response(), c.Request(), nil)
	if err != nil {
		return nil
	}
	defer conn.CloseNow()
	ctx := conn.CloseRead(c.Request().Context())
	h.writeEvent(ctx, conn, class.Event{Type: "hello"})
	filtered := make(chan class.Event)
	go func() {
		defer close(filtered)
		for e := range s.C {
			if e.Type == "queued" || e.Type == "running" || e.Type == "done" {
				select {
				case filtered <- e:
				case <-ctx.Done():
					return
				}
			}
		}
	}()
	return h.stream(ctx, conn, filtered, func(class.Event) bool { return false })
}

func (h *classHandlers) gradebookCSV(c echo.Context) error {
	gb, err := h.cl.Gradebook(c.Request().Context())
	if err != nil {
		return err
	}
	var b strings.Builder
	if err := gb.WriteCSV(&b); err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderContentDisposition, `attachment; filename="gradebook.csv"`)
	return c.Blob(http.StatusOK, "text/csv; charset=utf-8", []byte(b.String()))
}

func (h *classHandlers) regrade(c echo.Context) error {
	n, err := h.cl.Regrade(c.Request().Context())
	if err != nil {
		return err
	}
	if wantsJSON(c) {
		return c.JSON(http.StatusAccepted, map[string]int{"queued": n})
	}
	return c.Redirect(http.StatusSeeOther, "/class/dashboard?regraded="+strconv.Itoa(n))
}

// handleClassError answers errors on /class for programs, in JSON.
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
