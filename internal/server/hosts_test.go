package server_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"ratelab/internal/live"
	"ratelab/internal/server"
)

// DNS rebinding: a page of attacker.example, whose name the attacker then
// points at 127.0.0.1, asks the learner's lab for its pages and its live
// socket (grades in its hello) as the same origin. The single-learner lab
// answers such a Host with 421 and the flag that allows it, on the pages
// and on /live before any upgrade, and answers localhost, any address, and
// the names it was given.
func TestHostsRefuseForeignNames(t *testing.T) {
	hub := &live.Hub{}
	srv := httptest.NewServer(server.New(server.Config{
		Reports: reports(), Static: committedStatic(), Live: hub,
		Hosts: &server.Hosts{Names: []string{"lab.example"}},
	}))
	defer srv.Close()
	port := srv.URL[strings.LastIndex(srv.URL, ":")+1:]
	get := func(host, path string) (int, string) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodGet, srv.URL+path, nil)
		req.Host = host
		req.Header.Set("Origin", "http://"+host)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(body)
	}
	for _, path := range []string{"/", "/exercises/tokenbucket", "/static/lab.css"} {
		for _, host := range []string{"attacker.example", "attacker.example:" + port, "localhost.attacker.example", "127.0.0.1.nip.io:" + port} {
			code, body := get(host, path)
			if code != http.StatusMisdirectedRequest || !strings.Contains(body, "--allow-host") {
				t.Errorf("GET %s with Host %s = %d %q; want 421 naming --allow-host", path, host, code, body)
			}
		}
		for _, host := range []string{"localhost", "localhost:" + port, "LOCALHOST.:" + port, "127.0.0.1:" + port, "[::1]:" + port, "192.168.1.20:" + port, "lab.example:" + port} {
			if code, _ := get(host, path); code != http.StatusOK {
				t.Errorf("GET %s with Host %s = %d; want 200", path, host, code)
			}
		}
	}

	// The live socket: refused before the upgrade for a foreign name, open
	// for localhost.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ws := "ws" + strings.TrimPrefix(srv.URL, "http") + "/live"
	_, resp, err := websocket.Dial(ctx, ws, &websocket.DialOptions{Host: "attacker.example:" + port, HTTPHeader: http.Header{"Origin": {"http://attacker.example:" + port}}})
	if err == nil || resp == nil || resp.StatusCode != http.StatusMisdirectedRequest {
		code := 0
		if resp != nil {
			code = resp.StatusCode
		}
		t.Errorf("/live with Host attacker.example: error %v, status %d; want 421 before the upgrade", err, code)
	}
	conn, _, err := websocket.Dial(ctx, ws, &websocket.DialOptions{Host: "localhost:" + port})
	if err != nil {
		t.Fatalf("/live with Host localhost: %v", err)
	}
	conn.CloseNow()
}

// Class mode and tests set no Hosts: any name is answered.
func TestNoHostsAnswersAnyName(t *testing.T) {
	h := server.New(server.Config{Reports: reports(), Static: committedStatic()})
	req := httptest.NewRequest(http.MethodGet, "/", nil)
	req.Host = "class.example.edu"
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		t.Errorf("GET / with Host class.example.edu and no Hosts = %d; want 200", rec.Code)
	}
}
