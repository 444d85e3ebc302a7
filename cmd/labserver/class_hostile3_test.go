package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"ratelab/internal/store"
)

// The third hostile round, against the real server with its default
// limits: a page on a sibling subdomain forging forms with a planted CSRF
// cookie, and a learner holding every connection of her address. (Its
// other two holes are tested where they are closed: the builds' memory in
// internal/server's TestSlowReadersOfTheLargestBuild, browser-only files
// in TestClassHostileSubmissions' refusals.)

// sibling is a page of a sibling subdomain's origin; planted the CSRF
// token it set for the parent domain and puts in its forms.
const (
	sibling = "https://evil.class.example"
	planted = "planted-token-planted-token-planted-token"
)

// sessionOf returns the class's session cookie a client holds for s.
func sessionOf(t *testing.T, c *http.Client, s *classServer) *http.Cookie {
	t.Helper()
	u, _ := url.Parse(s.URL + "/class")
	for _, ck := range c.Jar.Cookies(u) {
		if ck.Name == "ratelab_session" {
			return ck
		}
	}
	t.Fatal("no session cookie")
	return nil
}

// forge posts body to path as the sibling's page makes a browser post it:
// the session given (if any), the planted CSRF cookie, the sibling's
// Origin and Sec-Fetch-Site: same-site. It returns the status and
// whether the answer set a session.
func forge(t *testing.T, s *classServer, session *http.Cookie, path, contentType string, body io.Reader) (int, bool) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, s.URL+path, body)
	req.Header.Set("Content-Type", contentType)
	req.Header.Set("Origin", sibling)
	req.Header.Set("Sec-Fetch-Site", "same-site")
	req.AddCookie(&http.Cookie{Name: "ratelab_csrf", Value: planted})
	if session != nil {
		req.AddCookie(session)
	}
	resp, err := (&http.Transport{}).RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	setSession := strings.Contains(strings.Join(resp.Header.Values("Set-Cookie"), "\n"), "ratelab_session=")
	return resp.StatusCode, setSession
}

func TestClassHostileThirdRound(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a class server")
	}
	t.Parallel() // a server and a database of its own
	db, tokens := setupClass(t, "ada", "bob", "mallory")
	if _, stderr, code := labserver(t, "", "course", "due", "--db", db, "--week", "1", "--at", "2030-01-01T00:00"); code != 0 {
		t.Fatalf("course due: exit %d\n%s", code, stderr)
	}
	s := startClassServer(t, db, "--no-bench")

	t.Run("forged forms", func(t *testing.T) {
		prof, _ := instructor(t, s)
		ext := url.Values{"_csrf": {planted}, "learner": {"ada"}, "target": {"week:1"}, "until": {"2031-01-01T00:00"}}
		if code, _ := forge(t, s, sessionOf(t, prof, s), "/class/course/extend", "application/x-www-form-urlencoded", strings.NewReader(ext.Encode())); code != http.StatusForbidden {
			t.Errorf("an extension forged in prof's name: %d; want 403", code)
		}

		ada, _ := signedIn(t, s, url.Values{"token": {tokens["ada"]}})
		var body bytes.Buffer
		mw := multipart.NewWriter(&body)
		mw.WriteField("_csrf", planted)
		mw.WriteField("exercise", "tokenbucket")
		w, _ := mw.CreateFormFile("files", "tokenbucket.go")
		io.WriteString(w, solutionFiles(t, "tokenbucket")[0].content)
		mw.Close()
		if code, _ := forge(t, s, sessionOf(t, ada, s), "/class/submissions", mw.FormDataContentType(), &body); code != http.StatusForbidden {
			t.Errorf("a submission forged in ada's name: %d; want 403", code)
		}
		if n := countSubmissions(t, s, tokens["ada"]); n != 0 {
			t.Errorf("ada's submissions after the forged one: %d; want none", n)
		}

		signIn := url.Values{"_csrf": {planted}, "token": {tokens["mallory"]}}
		if code, session := forge(t, s, nil, "/class/login", "application/x-www-form-urlencoded", strings.NewReader(signIn.Encode())); code != http.StatusForbidden || session {
			t.Errorf("a forced sign-in as mallory: %d, session set %v; want 403 and none", code, session)
		}

		stc, err := store.Open(context.Background(), db, wallClock{})
		if err != nil {
			t.Fatal(err)
		}
		defer stc.Close()
		if exts, err := stc.Extensions(context.Background()); err != nil || len(exts) != 0 {
			t.Errorf("extensions after the forged one: %v, %v; want none", exts, err)
		}
	})

	t.Run("one learner holding her address", func(t *testing.T) {
		// Mallory keeps every connection her address may hold (128 by
		// default) alive with a request each: she keeps her own cap of
		// them (16), the others are answered 429 and closed.
		host := strings.TrimPrefix(s.URL, "http://")
		held := 0
		for i := range 128 {
			c, err := net.Dial("tcp", host)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			fmt.Fprintf(c, "GET /class/api/drafts/tokenbucket HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\n\r\n", host, tokens["mallory"])
			resp, err := http.ReadResponse(bufio.NewReader(c), nil)
			if err != nil {
				t.Fatalf("mallory's connection %d: %v", i+1, err)
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK && !resp.Close {
				held++
			} else if resp.StatusCode != http.StatusTooManyRequests || !resp.Close {
				t.Fatalf("mallory's connection %d: %d, close %v; want 200 kept alive or 429 closed", i+1, resp.StatusCode, resp.Close)
			} else {
				io.Copy(io.Discard, c) // until the server closes it: the address's place is free again
			}
		}
		if held != 16 {
			t.Errorf("mallory holds %d connections alive; want 16, her cap", held)
		}
		// Bob, behind the same address, is served.
		req, _ := http.NewRequest(http.MethodGet, s.URL+"/class/api/drafts/tokenbucket", nil)
		req.Header.Set("Authorization", "Bearer "+tokens["bob"])
		resp, err := (&http.Transport{}).RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Errorf("bob, behind mallory's address: %d; want 200", resp.StatusCode)
		}
	})
}
