package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"ratelab/internal/class"
	"ratelab/internal/quota"
	"ratelab/internal/store"
)

// Drafts: the learner's editor saves what they type to the class
// (GET/PUT /class/api/drafts/:exercise), so that a reload, a second tab or
// another machine shows the same code. Checks (class_checks.go) grade the
// saved draft.

// drafts keeps each learner's draft of each exercise.
type drafts interface {
	// Draft returns the learner's draft, or an error matching
	// store.ErrNotFound if they saved none.
	Draft(ctx context.Context, userID int64, exercise string) (store.Draft, error)
	// SaveDraft replaces the draft and returns its new version.
	SaveDraft(ctx context.Context, userID int64, exercise string, files []store.File) (int64, error)
	// SaveDraftOver is SaveDraft if the draft is still version base (0:
	// none), else store.ErrStale.
	SaveDraftOver(ctx context.Context, userID int64, exercise string, files []store.File, base int64) (int64, error)
}

// checking grades learners' drafts as checks.
type checking interface {
	// Check stores a validated draft as a check and queues it;
	// class.ErrQueueFull when the queue is full.
	Check(ctx context.Context, user store.User, exercise string, files []store.File) (store.Submission, error)
	// Stub returns the files a learner starts the exercise from.
	Stub(exercise string) ([]store.File, error)
	// JobTimeout bounds one grading.
	JobTimeout() time.Duration
}

var (
	_ drafts   = (*store.Store)(nil)
	_ checking = (*class.Class)(nil)
)

// draftHandlers serves drafts, checks and the learner's editor page.
type draftHandlers struct {
	*classHandlers
	drafts   drafts
	checking checking
	checks   *quota.PerUser // each learner's check budget
	// saves and saved are each learner's budget of draft saves: saves
	// at once and a second, and KiB of files saved (see draftBudget).
	saves, saved *quota.PerUser
	// checkWait bounds how long POST /class/api/checks waits for the
	// grading: the job timeout and checkMargin.
	checkWait time.Duration
}

// checkMargin is how much longer than a grading's own bound a check's
// request waits for it: the queue, the build, and storing the result.
const checkMargin = 30 * time.Second

func (h *classHandlers) routeDrafts(g *echo.Group, cfg Class) {
	d := &draftHandlers{classHandlers: h, drafts: cfg.Class.Store(), checking: cfg.Class, checks: cfg.Class.CheckThrottle,
		checkWait: cfg.Class.JobTimeout() + checkMargin,
		saves:     quota.New(draftBudget.saves, draftBudget.saveEvery, cfg.Class.Now()),
		saved:     quota.New(draftBudget.kib, draftBudget.kibEvery, cfg.Class.Now())}
	get := []string{http.MethodGet, http.MethodHead}
	g.Match(get, "/api/drafts/:exercise", d.getDraft, h.require(store.Learner))
	g.PUT("/api/drafts/:exercise", d.putDraft, h.require(store.Learner))
	g.POST("/api/checks", d.check, h.require(store.Learner))
	g.Match(get, "/checks/:id", d.checkResult, h.require(anyone))
	g.Match(get, "/exercises/:id", d.exercisePage, h.require(anyone))
}

// draftBudget is what each learner's draft saves may use: 20 saves at
// once, then 4 a second, and 4 MiB of files at once, then 512 KiB a
// second. The editor saves at most once per 0.7 s of typing, the whole
// draft each time (256 KiB at most): typing never comes near it, while a
// program saving in a loop (83 saves of 250 KiB a second, 20 MiB a second
// of durable writes) is held to a fortieth of that.
var draftBudget = struct {
	saves     uint64
	saveEvery time.Duration
	kib       uint64
	kibEvery  time.Duration
}{20, 250 * time.Millisecond, 4 << 10, time.Second / 512}

// spend takes a draft save of size bytes from the learner's budget, or
// refuses it with 429 and Retry-After.
func (d *draftHandlers) spend(c echo.Context, user int64, size int) error {
	now := d.clock.Now()
	ok, retry := d.saves.Allow(user, now)
	if ok {
		if ok, retry = d.saved.AllowN(user, uint64(size+1023)>>10, now); ok {
			return nil
		}
	}
	secs := setRetryAfter(c, retry)
	return echo.NewHTTPError(http.StatusTooManyRequests, fmt.Sprintf(
		"The draft was not saved: you are saving faster than the class allows (%d saves a second, %d KiB a second). Your text stays here; it can be saved again in %ds.",
		time.Second/draftBudget.saveEvery, time.Second/draftBudget.kibEvery, secs))
}

// draftBodyLimit bounds a PUT of a draft: the submission's bytes of
// source, twice (JSON escapes quotes, backslashes and line breaks in two
// bytes each), and room for the JSON around them. Validate then checks
// the source's own sizes against the limits.
func draftBodyLimit(lim class.Limits) int64 {
	return 2*lim.MaxTotalBytes + multipartOverhead
}

// DraftJSON is GET /class/api/drafts/:exercise's answer.
type DraftJSON struct {
	Exercise string            `json:"exercise"`
	Files    map[string]string `json:"files"`
	// Version is 0 when nothing is saved yet (Files is then the stub's),
	// then 1, 2, … with each save.
	Version   int64  `json:"version"`
	UpdatedAt string `json:"updated_at,omitempty"` // RFC 3339, UTC; "" before the first save
}

// exerciseParam returns the route's exercise if it is one the class
// grades, else a 404 that names them.
func exerciseParam(c echo.Context, name string) (string, error) {
	ex := c.Param(name)
	if !class.Gradable(ex) {
		return "", notFound("There is no exercise %q in this class.", ex)
	}
	return ex, nil
}

// getDraft is GET /class/api/drafts/:exercise: the learner's draft, or the
// stub's files (version 0) before their first save.
func (d *draftHandlers) getDraft(c echo.Context) error {
	u, _ := currentUser(c)
	ex, err := exerciseParam(c, "exercise")
	if err != nil {
		return err
	}
	dr, err := d.draftOrStub(c.Request().Context(), u, ex)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, draftJSON(dr))
}

func draftJSON(dr store.Draft) DraftJSON {
	out := DraftJSON{Exercise: dr.Exercise, Files: store.ByName(dr.Files), Version: dr.Version}
	if dr.Version > 0 {
		out.UpdatedAt = dr.UpdatedAt.UTC().Format(time.RFC3339)
	}
	return out
}

// draftOrStub is the learner's draft, or the stub as version 0.
func (d *draftHandlers) draftOrStub(ctx context.Context, u store.User, ex string) (store.Draft, error) {
	dr, err := d.drafts.Draft(ctx, u.ID, ex)
	if errors.Is(err, store.ErrNotFound) {
		files, err := d.checking.Stub(ex)
		if err != nil {
			return store.Draft{}, err
		}
		return store.Draft{Exercise: ex, Files: files}, nil
	}
	return dr, err
}

// draftPut is PUT /class/api/drafts/:exercise's body.
type draftPut struct {
	Files map[string]string `json:"files"`
	// Base, if given, is the version the files were edited from (0: the
	// stub): the save is made only over that version, or refused with 409
	// and the draft saved since. Without it the last save wins.
	Base *int64 `json:"base"`
}

// putDraft is PUT /class/api/drafts/:exercise: saves {"files": {…}} under
// a submission's rules on names and sizes (class.ValidateDraft; 422 with
// the problems: code typed half-way is saved, Check and Submit judge the
// source) and answers {"version": N}. With "base": N, the save is made
// only over version N (409 with the draft saved since otherwise); without
// it the last save wins.
func (d *draftHandlers) putDraft(c echo.Context) error {
	u, _ := currentUser(c)
	ex, err := exerciseParam(c, "exercise")
	if err != nil {
		return err
	}
	var body draftPut
	if err := decodeJSON(c, &body); err != nil {
		return err
	}
	files := store.FilesOf(body.Files)
	if problems := class.ValidateDraft(ex, files, d.grading.Limits()); len(problems) > 0 {
		return &problemError{code: http.StatusUnprocessableEntity, message: "The draft was not saved", problems: problems}
	}
	size := 0
	for _, f := range files {
		size += len(f.Name) + len(f.Content)
	}
	if err := d.spend(c, u.ID, size); err != nil {
		return err
	}
	ctx := c.Request().Context()
	var v int64
	if body.Base != nil {
		v, err = d.drafts.SaveDraftOver(ctx, u.ID, ex, files, *body.Base)
	} else {
		v, err = d.drafts.SaveDraft(ctx, u.ID, ex, files)
	}
	if errors.Is(err, store.ErrStale) {
		// Another tab or machine saved since: its draft, for the
		// learner to choose.
		dr, err := d.draftOrStub(ctx, u, ex)
		if err != nil {
			return err
		}
		return c.JSON(http.StatusConflict, draftJSON(dr))
	}
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]int64{"version": v})
}

// decodeJSON reads a request's JSON body into v: 415 if it is not JSON,
// 413 over the body's limit (limitBody), 400 if it does not parse.
func decodeJSON(c echo.Context, v any) error {
	if ct := c.Request().Header.Get(echo.HeaderContentType); ct != "" && !isJSONType(ct) {
		return echo.NewHTTPError(http.StatusUnsupportedMediaType, "Send JSON (Content-Type: application/json), not "+ct+".")
	}
	b, err := io.ReadAll(c.Request().Body)
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return echo.NewHTTPError(http.StatusRequestEntityTooLarge, fmt.Sprintf("The body is over %d bytes: a draft is a few small .go files.", mbe.Limit))
	}
	if err != nil {
		return echo.NewHTTPError(http.StatusBadRequest, "The body could not be read: "+err.Error())
	}
	if err := json.Unmarshal(b, v); err != nil {
		return echo.NewHTTPError(http.StatusBadRequest, "The body is not the JSON expected ("+err.Error()+"): see 'For programs' in docs/instructors.md.")
	}
	return nil
}

func isJSONType(ct string) bool {
	return len(ct) >= len(echo.MIMEApplicationJSON) && ct[:len(echo.MIMEApplicationJSON)] == echo.MIMEApplicationJSON
}
