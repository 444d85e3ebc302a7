package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// putDraft saves files as a learner's draft of exercise
// (PUT /class/api/drafts/:exercise with a bearer token).
func putDraft(t *testing.T, s *classServer, token, exercise string, files ...upload) (int, map[string]any) {
	t.Helper()
	m := map[string]string{}
	for _, f := range files {
		m[f.name] = f.content
	}
	b, _ := json.Marshal(map[string]any{"files": m})
	req, _ := http.NewRequest(http.MethodPut, s.URL+"/class/api/drafts/"+exercise, bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("PUT draft: %v", err)
	}
	defer resp.Body.Close()
	var out map[string]any
	json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, out
}

// postCheck checks a learner's saved draft of exercise
// (POST /class/api/checks) and returns the answer as a SubmissionState
// (the check's id, state, error and result).
func postCheck(t *testing.T, s *classServer, token, exercise string) (int, http.Header, SubmissionState) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, s.URL+"/class/api/checks", strings.NewReader(fmt.Sprintf(`{"exercise":%q}`, exercise)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("POST check: %v", err)
	}
	defer resp.Body.Close()
	var out struct {
		SubmissionState
		Check int64 `json:"check"`
	}
	json.NewDecoder(resp.Body).Decode(&out)
	out.ID, out.Exercise = out.Check, exercise
	return resp.StatusCode, resp.Header, out.SubmissionState
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
