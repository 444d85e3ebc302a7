package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"ratelab/internal/browsertest"
)

// crawled is what a learner reaches by following every link from her
// home: each page's path, its HTML and its words, the links it makes.
type crawled struct {
	Path  string   `json:"path"`
	HTML  string   `json:"html"`
	Text  string   `json:"text"`
	Links []string `json:"links"` // every link's href, resolved
	Refs  []string `json:"refs"`  // every other href, src and form action, resolved
}

// crawlJS reads the page the tab shows.
const crawlJS = `(() => {
	const links = [], refs = [];
	for (const el of document.querySelectorAll("a[href], link[href], script[src], img[src], form[action]")) {
		const v = el.getAttribute("href") ?? el.getAttribute("src") ?? el.getAttribute("action");
		(el.localName === "a" ? links : refs).push(new URL(v, location.href).href);
	}
	return { path: location.pathname + location.search, html: document.documentElement.outerHTML, text: document.body.innerText, links, refs };
})()`

// crawl signs nobody in: it follows, in the tab's session, every link of
// the class from start (breadth first, each page once) and returns the
// pages. It follows no link out of /class, none to sign out, and no
// download.
func crawl(t *testing.T, ctx context.Context, s *classServer, start string) []crawled {
	t.Helper()
	seen := map[string]bool{start: true}
	queue := []string{start}
	var out []crawled
	for len(queue) > 0 {
		path := queue[0]
		queue = queue[1:]
		resp, err := chromedp.Run(ctx, chromedp.NavigateResponse(s.URL+path))
		if err != nil {
			t.Fatalf("opening %s: %v", path, err)
		}
		browsertest.Do(t, ctx, chromedp.WaitReady("body"))
		p := browsertest.Eval[crawled](t, ctx, crawlJS)
		if resp == nil || resp.Status != http.StatusOK {
			t.Errorf("%s, linked from the pages before it, answered %v; want a page", path, resp)
		}
		out = append(out, p)
		for _, l := range p.Links {
			u, err := url.Parse(l)
			if err != nil || s.URL != u.Scheme+"://"+u.Host || !strings.HasPrefix(u.Path, "/class") ||
				u.Path == "/class/logout" || strings.HasSuffix(u.Path, ".csv") || strings.HasPrefix(u.Path, "/class/yours/") {
				continue
			}
			next := u.Path
			if u.RawQuery != "" {
				next += "?" + u.RawQuery
			}
			if !seen[next] {
				seen[next] = true
				queue = append(queue, next)
			}
		}
	}
	return out
}

// frames records the text of every websocket frame the tab receives from
// now on.
func frames(t *testing.T, ctx context.Context) func() []string {
	t.Helper()
	if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
		t.Fatalf("enabling the tab's network events: %v", err)
	}
	var mu sync.Mutex
	var got []string
	events := chromedp.Events(ctx, network.WebSocketFrameReceived)
	go func() {
		for f, err := range events {
			if err != nil {
				return
			}
			if f.Response != nil {
				mu.Lock()
				got = append(got, string(f.Response.PayloadData))
				mu.Unlock()
			}
		}
	}()
	return func() []string {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(got)
	}
}

// signInLearner signs a learner in at the login page.
func signInLearner(t *testing.T, ctx context.Context, s *classServer, token string) {
	t.Helper()
	browsertest.Do(t, ctx,
		chromedp.Navigate(s.URL+"/class/login"),
		chromedp.WaitVisible(browsertest.TestID("learner-login")),
		chromedp.SendKeys(`[data-testid=learner-login] input[name=token]`, token),
		chromedp.Submit(`[data-testid=learner-login] input[name=token]`),
	)
	browsertest.WaitTestID(t, ctx, "learner-title")
}

// postDashboard posts a form of the dashboard's as the instructor's
// client, asking for JSON, and returns the answer's status and body.
func postDashboard(t *testing.T, s *classServer, prof *http.Client, csrf, path string, form url.Values) (int, string) {
	t.Helper()
	form.Set("_csrf", csrf)
	req, _ := http.NewRequest(http.MethodPost, s.URL+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	req.Header.Set("X-CSRF-Token", csrf)
	resp, err := prof.Do(req)
	if err != nil {
		t.Fatalf("POST %s: %v", path, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// postForm posts a form of the dashboard's and fails the test unless it
// is done.
func postForm(t *testing.T, s *classServer, prof *http.Client, csrf, path string, form url.Values) {
	t.Helper()
	if code, body := postDashboard(t, s, prof, csrf, path, form); code/100 != 2 {
		t.Fatalf("POST %s %v: %d %s", path, form, code, body)
	}
}

// TestClassLearnerCrawlInBrowser signs in as each learner of a class
// where two learners submitted the same code (the reference's) and
// follows every link from her home, in a browser:
//
//   - every link of every page she reaches leads to a page of the class
//     (or a static asset): no local lab page (/, /lessons/…,
//     /exercises/…), and every page's words speak of the editor, not of
//     make grade or exercises/;
//   - no page, no JSON answer of the pages she reaches (her submissions,
//     drafts and checks) and no event of her live views names another
//     learner, or says her code is a possible copy: that is the
//     instructor's to judge.
func TestClassLearnerCrawlInBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("a browser test: make test runs it")
	}
	ctx := browsertest.NewBrowser(t, browsertest.BrowserOptions{Timeout: 6 * time.Minute})
	errs := browsertest.Console(ctx)
	heard := frames(t, ctx)
	learners := []string{"ulrike", "zoltan", "yevgenia"}
	db, tokens := setupClass(t, learners...)
	s := startClassServer(t, db, "--no-bench")
	prof, csrf := instructor(t, s)
	// A due date for week 1 (due lines on the learners' pages), an
	// extension for zoltan.
	postForm(t, s, prof, csrf, "/class/course/due", url.Values{"target": {"week:1"}, "at": {"2030-01-10T12:00"}, "tz": {"UTC"}, "late": {"penalty"}, "penalty": {"10"}})
	postForm(t, s, prof, csrf, "/class/course/extend", url.Values{"learner": {"zoltan"}, "target": {"week:1"}, "until": {"2030-01-12T12:00"}})

	// ulrike and zoltan submit the same code, the reference's; yevgenia
	// a bucket that grants everything. Each checks a draft too.
	generous := tokenbucketWith(t, "func (b *TokenBucket) TryAcquire(nowNs, n uint64) bool {",
		"func (b *TokenBucket) TryAcquire(nowNs, n uint64) bool {\n\treturn true\n", "")
	code := map[string][]upload{"ulrike": solutionFiles(t, "tokenbucket"), "zoltan": solutionFiles(t, "tokenbucket"), "yevgenia": generous}
	ids := map[string]int64{}
	for _, l := range learners {
		c, _, body := post(t, s, tokens[l], "tokenbucket", code[l]...)
		if c != http.StatusAccepted {
			t.Fatalf("%s's submission: %d %v", l, c, body)
		}
		ids[l] = int64(body["id"].(float64))
		if c, body := putDraft(t, s, tokens[l], "tokenbucket", code[l]...); c != http.StatusOK {
			t.Fatalf("%s's draft: %d %v", l, c, body)
		}
		if c, _, st := postCheck(t, s, tokens[l], "tokenbucket"); c != http.StatusOK || st.Result == nil {
			t.Fatalf("%s's check: %d %+v", l, c, st)
		}
	}
	for _, l := range learners {
		awaitGraded(t, s, tokens[l], ids[l], 2*time.Minute)
	}
	// The instructor's page says what the learners' must not: the
	// test's words would catch it.
	if _, dash := get(t, prof, s.URL+"/class/dashboard"); !strings.Contains(dash, "possible copy") {
		t.Fatalf("the dashboard flags no possible copy: the test would see none on the learners' pages either")
	}

	local := regexp.MustCompile(`^/($|lessons/|exercises/|api/|live)`)
	for i, me := range learners {
		other := learners[(i+1)%len(learners)] // submits while she watches
		others := map[string]*regexp.Regexp{}
		for _, o := range learners {
			if o != me {
				others[o] = regexp.MustCompile(`(?i)\b` + o + `\b`)
			}
		}
		start := len(heard())
		leaks := func(where, text string) {
			t.Helper()
			for o, re := range others {
				if loc := re.FindStringIndex(text); loc != nil {
					t.Errorf("%s reaches %s, which names %s: …%s…", me, where, o, text[max(0, loc[0]-120):min(len(text), loc[1]+120)])
				}
			}
			for _, w := range []string{"possible copy", "Same code as"} {
				if strings.Contains(text, w) {
					t.Errorf("%s reaches %s, which says %q: copy flags are the instructor's", me, where, w)
				}
			}
		}
		signInLearner(t, ctx, s, tokens[me])
		began := time.Now()
		pages := crawl(t, ctx, s, "/class/me")
		t.Logf("%s's crawl: %d pages in %s", me, len(pages), time.Since(began).Round(time.Millisecond))
		var paths []string
		for _, p := range pages {
			paths = append(paths, p.Path)
			for _, l := range append(p.Links, p.Refs...) {
				u, _ := url.Parse(l)
				if u == nil || s.URL != u.Scheme+"://"+u.Host {
					continue
				}
				if !strings.HasPrefix(u.Path, "/class") && !strings.HasPrefix(u.Path, "/static/") || local.MatchString(u.Path) {
					t.Errorf("%s's page %s links %s: a page of the local lab, not the class's", me, p.Path, u.Path)
				}
			}
			for _, w := range []string{"make grade", "make run", "exercises/"} {
				if i := strings.Index(p.Text, w); i >= 0 {
					t.Errorf("%s's page %s says %q (…%s…): a class learner has the editor, Check and Submit", me, p.Path, w, p.Text[max(0, i-80):min(len(p.Text), i+80)])
				}
			}
			leaks("the page "+p.Path, p.HTML)
		}
		for _, want := range []string{"/class/me", "/class/exercises/tokenbucket", "/class/lessons/week-1", fmt.Sprintf("/class/submissions/%d", ids[me])} {
			if !slices.Contains(paths, want) {
				t.Errorf("%s's crawl reached %q; want %s among them", me, paths, want)
			}
		}
		// The JSON her pages ask for.
		for _, api := range []string{fmt.Sprintf("/class/submissions/%d", ids[me]), "/class/api/drafts/tokenbucket"} {
			body, err := chromedp.Run(ctx, chromedp.Evaluate[string](`fetch(`+jsString(api)+`, {headers: {Accept: "application/json"}}).then(r => r.text())`, chromedp.EvalAwaitPromise))
			if err != nil {
				t.Fatalf("fetching %s: %v", api, err)
			}
			if !strings.Contains(body, "tokenbucket") {
				t.Errorf("%s's %s answered %q; want its JSON", me, api, body)
			}
			leaks("the JSON of "+api, body)
		}
		// Her live views while another learner's submission is graded,
		// then hers: an event of the other's, had it come, came first.
		browsertest.Do(t, ctx, chromedp.Navigate(s.URL+"/class/me"),
			chromedp.Poll[chromedp.Void](`document.querySelector("[data-testid=live-state][data-live]")`, chromedp.WithPollingTimeout(30*time.Second)))
		c, _, body := post(t, s, tokens[other], "tokenbucket", code[other]...)
		if c != http.StatusAccepted {
			t.Fatalf("%s's second submission: %d %v", other, c, body)
		}
		awaitGraded(t, s, tokens[other], int64(body["id"].(float64)), 2*time.Minute)
		before := len(heard())
		c, _, body = post(t, s, tokens[me], "tokenbucket", code[me]...)
		if c != http.StatusAccepted {
			t.Fatalf("%s's second submission: %d %v", me, c, body)
		}
		mine := fmt.Sprintf(`"submission":%d`, int64(body["id"].(float64)))
		for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(50 * time.Millisecond) {
			if slices.ContainsFunc(heard()[before:], func(f string) bool { return strings.Contains(f, `"type":"grade"`) && strings.Contains(f, mine) }) {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s's page heard no done event of her submission within 2 minutes: %q", me, heard()[before:])
			}
		}
		for _, f := range heard()[start:] {
			leaks("a live event", f)
		}
		browsertest.Do(t, ctx, chromedp.Click(browsertest.TestID("logout")), chromedp.WaitVisible(browsertest.TestID("learner-login")))
	}
	if e := errs(); len(e) > 0 {
		t.Errorf("console errors: %q", e)
	}
}

// jsString quotes s for JavaScript.
func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
