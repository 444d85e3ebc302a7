package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
)

// callAPI sends a JSON body to the class's API with a learner's bearer
// token and returns the answer's status, headers and body.
func callAPI(t *testing.T, s *classServer, method, path, token string, body []byte) (int, http.Header, []byte) {
	t.Helper()
	req, _ := http.NewRequest(method, s.URL+path, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, b
}

// putDraft saves files as a learner's draft of exercise
// (PUT /class/api/drafts/:exercise with a bearer token).
func putDraft(t *testing.T, s *classServer, token, exercise string, files ...upload) (int, map[string]any) {
	t.Helper()
	m := map[string]string{}
	for _, f := range files {
		m[f.name] = f.content
	}
	b, _ := json.Marshal(map[string]any{"files": m})
	code, _, body := callAPI(t, s, http.MethodPut, "/class/api/drafts/"+exercise, token, b)
	var out map[string]any
	json.Unmarshal(body, &out)
	return code, out
}

// postCheck checks a learner's saved draft of exercise
// (POST /class/api/checks) and returns the answer as a SubmissionState
// (the check's id, state, error and result).
func postCheck(t *testing.T, s *classServer, token, exercise string) (int, http.Header, SubmissionState) {
	t.Helper()
	code, h, body := callAPI(t, s, http.MethodPost, "/class/api/checks", token, fmt.Appendf(nil, `{"exercise":%q}`, exercise))
	var out struct {
		SubmissionState
		Check int64 `json:"check"`
	}
	json.Unmarshal(body, &out)
	out.ID, out.Exercise = out.Check, exercise
	return code, h, out.SubmissionState
}

// postCheckRaw checks a learner's saved draft of exercise and returns the
// answer's status and JSON as they are ({"error", "problems"} on a
// refusal).
func postCheckRaw(t *testing.T, s *classServer, token, exercise string) (int, map[string]any) {
	t.Helper()
	code, _, body := callAPI(t, s, http.MethodPost, "/class/api/checks", token, fmt.Appendf(nil, `{"exercise":%q}`, exercise))
	var out map[string]any
	json.Unmarshal(body, &out)
	return code, out
}

// countSubmissions counts a learner's submissions on their page's JSON.
func countSubmissions(t *testing.T, s *classServer, token string) int {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, s.URL+"/class/me", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var b bytes.Buffer
	b.ReadFrom(resp.Body)
	return strings.Count(b.String(), `data-testid="submission-`)
}
