package server_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"ratelab/internal/store"
	"ratelab/internal/store/storetest"
)

// part is one part of a multipart upload; name "" is the exercise field.
type part struct {
	disposition string // the whole Content-Disposition
	content     string
}

func file(name, content string) part {
	return part{fmt.Sprintf(`form-data; name="files"; filename=%q`, name), content}
}

func exercise(id string) part {
	return part{`form-data; name="exercise"`, id}
}

func multipartBody(t *testing.T, parts ...part) (string, *bytes.Buffer) {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	for _, p := range parts {
		w, err := mw.CreatePart(textproto.MIMEHeader{"Content-Disposition": {p.disposition}})
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(w, p.content)
	}
	mw.Close()
	return mw.FormDataContentType(), &body
}

// upload posts a submission as the submit command does (bearer token,
// JSON answers).
func (f *classFixture) upload(t *testing.T, token, contentType string, body io.Reader) reply {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, f.url+"/class/submissions", body)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", contentType)
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Accept", "application/json")
	return f.browser(t).do(req)
}

// submit uploads a valid tokenbucket as the learner and returns its id.
func (f *classFixture) submit(t *testing.T, token string) int64 {
	t.Helper()
	ct, body := multipartBody(t, exercise("tokenbucket"), file("tokenbucket.go", okSource))
	r := f.upload(t, token, ct, body)
	var got struct {
		ID       int64  `json:"id"`
		Exercise string `json:"exercise"`
		URL      string `json:"url"`
		Live     string `json:"live"`
	}
	if r.code != http.StatusAccepted || json.Unmarshal([]byte(r.body), &got) != nil || got.ID == 0 {
		t.Fatalf("POST /class/submissions = %d %s; want 202 with the submission's id", r.code, r.body)
	}
	url := "/class/submissions/" + strconv.FormatInt(got.ID, 10)
	if got.Exercise != "tokenbucket" || got.URL != url || got.Live != url+"/live" {
		t.Errorf("POST /class/submissions = %+v; want exercise tokenbucket, url %s and live %s/live", got, url, url)
	}
	return got.ID
}

func TestClassUpload(t *testing.T) { storetest.Each(t, testClassUpload) }

func testClassUpload(t *testing.T, target string) {
	f := newClassWith(t, fixtureOptions{target: target})

	t.Run("accepted", func(t *testing.T) {
		id := f.submit(t, adaToken)
		sub, err := f.st.Submission(t.Context(), id)
		if err != nil {
			t.Fatal(err)
		}
		if sub.Learner != "ada" || sub.Exercise != "tokenbucket" || sub.Job.State != store.Queued ||
			len(sub.Files) != 1 || sub.Files[0].Name != "tokenbucket.go" || string(sub.Files[0].Content) != okSource {
			t.Errorf("stored submission = %+v; want ada's tokenbucket.go, queued", sub)
		}
	})

	t.Run("from the browser's form", func(t *testing.T) {
		b := f.browser(t)
		b.signIn(url.Values{"token": {bobToken}})
		ct, body := multipartBody(t, part{`form-data; name="_csrf"`, b.csrf()}, exercise("tokenbucket"), file("tokenbucket.go", okSource))
		req, _ := http.NewRequest(http.MethodPost, f.url+"/class/submissions", body)
		req.Header.Set("Content-Type", ct)
		r := b.do(req)
		if r.code != http.StatusSeeOther || !strings.HasPrefix(r.header.Get("Location"), "/class/submissions/") {
			t.Errorf("the upload form = %d to %q; want 303 to the submission:\n%s", r.code, r.header.Get("Location"), r.body)
		}
	})

	rejected := []struct {
		name        string
		contentType string
		body        func(t *testing.T) (string, *bytes.Buffer)
		code        int
		error       string // a phrase of the message
		problem     string // a phrase of the one problem listed, if any
	}{
		{name: "not multipart", code: http.StatusBadRequest, error: "not a multipart form",
			body: func(*testing.T) (string, *bytes.Buffer) {
				return "text/plain", bytes.NewBufferString("package tokenbucket\n")
			}},
		{name: "cut short", code: http.StatusBadRequest, error: "not a well-formed multipart form",
			body: func(t *testing.T) (string, *bytes.Buffer) {
				ct, b := multipartBody(t, exercise("tokenbucket"), file("tokenbucket.go", okSource))
				b.Truncate(b.Len() - 10)
				return ct, b
			}},
		{name: "folder in the name", code: http.StatusUnprocessableEntity, error: "not accepted", problem: "may not contain a folder",
			body: func(t *testing.T) (string, *bytes.Buffer) {
				return multipartBody(t, exercise("tokenbucket"), file("../tokenbucket.go", okSource))
			}},
		{name: "folder in an RFC 2231 name", code: http.StatusUnprocessableEntity, error: "not accepted", problem: "may not contain a folder",
			body: func(t *testing.T) (string, *bytes.Buffer) {
				return multipartBody(t, exercise("tokenbucket"),
					part{`form-data; name="files"; filename*=UTF-8''..%2Ftokenbucket.go`, okSource})
			}},
		{name: "wrong package", code: http.StatusUnprocessableEntity, error: "not accepted", problem: "want package tokenbucket",
			body: func(t *testing.T) (string, *bytes.Buffer) {
				return multipartBody(t, exercise("tokenbucket"), file("tokenbucket.go", "package main\n"))
			}},
		{name: "no exercise", code: http.StatusUnprocessableEntity, error: "not accepted", problem: "no exercise called",
			body: func(t *testing.T) (string, *bytes.Buffer) {
				return multipartBody(t, file("tokenbucket.go", okSource))
			}},
	}
	for _, tt := range rejected {
		t.Run(tt.name, func(t *testing.T) {
			before, err := f.st.CountJobs(t.Context(), store.Queued)
			if err != nil {
				t.Fatal(err)
			}
			ct, body := tt.body(t)
			r := f.upload(t, bobToken, ct, body)
			var got apiError
			if err := json.Unmarshal([]byte(r.body), &got); err != nil {
				t.Fatalf("POST /class/submissions = %d %q; want a JSON error", r.code, r.body)
			}
			if r.code != tt.code || !strings.Contains(got.Error, tt.error) {
				t.Errorf("POST /class/submissions = %d %q; want %d saying %q", r.code, got.Error, tt.code, tt.error)
			}
			if tt.problem != "" && (len(got.Problems) != 1 || !strings.Contains(got.Problems[0], tt.problem)) {
				t.Errorf("problems = %q; want one containing %q", got.Problems, tt.problem)
			}
			if after, _ := f.st.CountJobs(t.Context(), store.Queued); after != before {
				t.Errorf("a refused upload queued a job: %d queued, %d before", after, before)
			}
		})
	}
}

func TestClassUploadThrottled(t *testing.T) { storetest.Each(t, testClassUploadThrottled) }

func testClassUploadThrottled(t *testing.T, target string) {
	f := newClassWith(t, fixtureOptions{burst: 1, target: target})
	f.submit(t, adaToken)
	ct, body := multipartBody(t, exercise("tokenbucket"), file("tokenbucket.go", okSource))
	r := f.upload(t, adaToken, ct, body)
	var got apiError
	if r.code != http.StatusTooManyRequests || r.header.Get("Retry-After") != "30" ||
		json.Unmarshal([]byte(r.body), &got) != nil || !strings.Contains(got.Error, "It refills in 30s, at 09:00:30 UTC") {
		t.Errorf("a second upload at once = %d, Retry-After %q, %s; want 429, 30, when it refills", r.code, r.header.Get("Retry-After"), r.body)
	}
	f.submit(t, bobToken) // bob's budget is his own
}
