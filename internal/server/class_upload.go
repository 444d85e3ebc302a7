package server

import (
	"errors"
	"fmt"
	"io"
	"math"
	"mime"
	"mime/multipart"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"ratelab/internal/class"
	"ratelab/internal/due"
	"ratelab/internal/store"
)

// The upload: a learner's files of one exercise, throttled, bounded,
// validated, then queued.

const (
	// formBodyLimit bounds every class POST but the upload.
	formBodyLimit = 64 << 10
	// multipartOverhead is room for the form's own bytes beyond the files.
	multipartOverhead = 64 << 10
)

// limitBody refuses a body over the limit before anything reads it, and
// bounds what is read when the client did not say its length.
func (h *classHandlers) limitBody(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		if r.Method != http.MethodPost && r.Method != http.MethodPut {
			return next(c)
		}
		lim := h.grading.Limits()
		limit := int64(formBodyLimit)
		switch {
		case r.URL.Path == "/class/submissions":
			limit = lim.MaxTotalBytes + multipartOverhead
		case r.Method == http.MethodPut:
			limit = draftBodyLimit(lim)
		}
		if r.ContentLength > limit {
			return echo.NewHTTPError(http.StatusRequestEntityTooLarge,
				fmt.Sprintf("The upload is %d bytes; a submission may be at most %d bytes of source (%d per file).",
					r.ContentLength, lim.MaxTotalBytes, lim.MaxFileBytes))
		}
		r.Body = http.MaxBytesReader(c.Response(), r.Body, limit)
		return next(c)
	}
}

// setRetryAfter tells a throttled client, in Retry-After, to come back
// after retry, in whole seconds rounded up, and returns them.
func setRetryAfter(c echo.Context, retry time.Duration) int {
	secs := int(math.Ceil(retry.Seconds()))
	c.Response().Header().Set("Retry-After", strconv.Itoa(secs))
	return secs
}

// submitReply is the JSON answer to an accepted upload.
type submitReply struct {
	ID       int64  `json:"id"`
	Number   int    `json:"number"` // the learner's count of her submissions of the exercise (SubmissionJSON.Number)
	Exercise string `json:"exercise"`
	URL      string `json:"url"`  // the submission's page
	Live     string `json:"live"` // its websocket of progress events
	// OnTime is its mark against its due date (true without one), and
	// Late says how late it is ("late by 5 h (−10% per started day: 1 day late, −10%)"), if it is.
	OnTime bool   `json:"on_time"`
	Late   string `json:"late,omitempty"`
}

// submit is POST /class/submissions: 202 (JSON) or a redirect to the
// submission's page once it is stored and queued.
func (h *classHandlers) submit(c echo.Context) error {
	u, _ := currentUser(c)
	now := h.clock.Now()
	if ok, retry := h.throttle.Allow(u.ID, now); !ok {
		secs := setRetryAfter(c, retry)
		return echo.NewHTTPError(http.StatusTooManyRequests, fmt.Sprintf(
			"Throttled: you have used your submission budget (%d at once, then one every %s). It refills in %ds, at %s: submit again then.",
			h.throttle.Burst, h.throttle.Every, secs, now.Add(time.Duration(secs)*time.Second).UTC().Format("15:04:05 MST")))
	}
	lim := h.grading.Limits()
	exercise, files, err := readUpload(c, lim)
	if err != nil {
		return err
	}
	if problems := class.Validate(exercise, files, lim); len(problems) > 0 {
		return &problemError{code: http.StatusUnprocessableEntity, message: "The submission was not accepted", problems: problems}
	}
	sub, err := h.grading.Submit(c.Request().Context(), u, exercise, files)
	var late *due.LateError
	if errors.As(err, &late) {
		return echo.NewHTTPError(http.StatusForbidden, "Too late: "+late.Error())
	}
	if errors.Is(err, class.ErrQueueFull) {
		c.Response().Header().Set("Retry-After", "60")
		return echo.NewHTTPError(http.StatusServiceUnavailable, "The grading queue is full: submit again in a minute.")
	}
	if err != nil {
		return err
	}
	url := "/class/submissions/" + strconv.FormatInt(sub.ID, 10)
	if wantsJSON(c) {
		onTime, mark, err := h.submissionMark(c.Request().Context(), sub)
		if err != nil {
			return err
		}
		stored, err := h.submissions.Submission(c.Request().Context(), sub.ID)
		if err != nil {
			return err
		}
		reply := submitReply{ID: sub.ID, Number: stored.Number, Exercise: exercise, URL: url, Live: url + "/live", OnTime: onTime}
		if !onTime {
			reply.Late = mark.Mark
		}
		return c.JSON(http.StatusAccepted, reply)
	}
	return c.Redirect(http.StatusSeeOther, url)
}

// readUpload reads the multipart form: field "exercise" and the files
// "files", each read to at most one byte over the per-file limit (so
// Validate can say it is too big).
func readUpload(c echo.Context, lim class.Limits) (string, []store.File, error) {
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

// rawFileName is the file name as the client sent it, quoted or RFC 2231
// encoded (filename*=): Part.FileName drops folders, and a name with a
// folder or ".." must be refused by Validate, not trimmed. p's
// Content-Disposition parsed already (p.FileName is not "").
func rawFileName(p *multipart.Part) string {
	_, params, err := mime.ParseMediaType(p.Header.Get("Content-Disposition"))
	if err != nil {
		return p.FileName()
	}
	return params["filename"]
}

func uploadError(err error) error {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return echo.NewHTTPError(http.StatusRequestEntityTooLarge, fmt.Sprintf("The upload is over %d bytes: a submission is a few small .go files.", mbe.Limit))
	}
	return echo.NewHTTPError(http.StatusBadRequest, "The upload is not a well-formed multipart form ("+err.Error()+").")
}
