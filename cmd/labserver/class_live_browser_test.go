package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"ratelab/internal/browsertest"
	"ratelab/internal/store/storetest"
)

// snapshotJS reads what a class page says, element by data-testid in page
// order: the words and links of each one that holds no other (a cell, a
// row, a count, a line), forms aside (their fields are not data), and
// the words that only time changes ("due in 5 h 10 min"), as well as the
// live line itself and the Yours line (what the page's script has heard
// of the learner's build so far, not what the server's page says).
const snapshotJS = `(() => {
	const skip = new Set(["live-state", "due-left", "yours-state"]);
	const out = [];
	for (const el of document.querySelectorAll("main [data-testid]")) {
		const id = el.getAttribute("data-testid");
		if (skip.has(id) || el.closest("form") || el.querySelector("[data-testid]:not([data-testid=due-left])")) continue;
		const copy = el.cloneNode(true);
		for (const t of copy.querySelectorAll("[data-testid=due-left], form")) t.remove();
		const links = Array.from(copy.querySelectorAll("a[href]"), (a) => a.getAttribute("href"));
		out.push(id + ": " + copy.textContent.replace(/\s+/g, " ").trim() + (links.length ? " → " + links.join(" ") : ""));
	}
	return out;
})()`

// livePage is a page open in a tab, with a second tab of the same session
// to load it afresh.
type livePage struct {
	name       string
	live, load context.Context
	path       string
}

// settle waits until the live page says what a fresh load of it says, and
// fails the test with the difference if it does not within a minute.
func (p livePage) settle(t *testing.T, s *classServer, step string) {
	t.Helper()
	browsertest.Do(t, p.load, chromedp.Navigate(s.URL+p.path), chromedp.WaitReady("main"))
	want := browsertest.Eval[[]string](t, p.load, snapshotJS)
	var got []string
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(100 * time.Millisecond) {
		if got = browsertest.Eval[[]string](t, p.live, snapshotJS); slices.Equal(got, want) {
			return
		}
		if time.Now().After(deadline) {
			break
		}
	}
	var diff []string
	for _, l := range got {
		if !slices.Contains(want, l) {
			diff = append(diff, "live only:   "+l)
		}
	}
	for _, l := range want {
		if !slices.Contains(got, l) {
			diff = append(diff, "reload only: "+l)
		}
	}
	t.Fatalf("after %s, %s live still differs from %s reloaded a minute later:\n%s", step, p.name, p.path, strings.Join(diff, "\n"))
}

// openLive opens path in a new tab of ctx's browser, waits for its live
// updates, and returns it with a tab for fresh loads.
func openLive(t *testing.T, ctx context.Context, s *classServer, name, path string) livePage {
	t.Helper()
	live, cancel := chromedp.NewContext(ctx)
	t.Cleanup(cancel)
	load, cancel2 := chromedp.NewContext(ctx)
	t.Cleanup(cancel2)
	browsertest.Do(t, live, chromedp.Navigate(s.URL+path),
		chromedp.Poll[chromedp.Void](`document.querySelector("[data-testid=live-state][data-live]")`, chromedp.WithPollingTimeout(30*time.Second)))
	browsertest.Eval[int](t, live, `window.__sameDocument = 1`)
	return livePage{name: name, live: live, load: load, path: path}
}

// quiet waits until no grading is queued or running, as the dashboard
// says.
func quiet(t *testing.T, s *classServer, prof *http.Client) {
	t.Helper()
	for deadline := time.Now().Add(3 * time.Minute); ; time.Sleep(200 * time.Millisecond) {
		_, body := get(t, prof, s.URL+"/class/dashboard")
		if strings.Contains(body, ">0 queued<") && !strings.Contains(body, `data-state="queued"`) && !strings.Contains(body, `data-state="running"`) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the class still grades after 3 minutes")
		}
	}
}

// TestClassLiveEqualsReloadInBrowser drives a class through a seeded
// random sequence of checks, submissions, regrades, due dates and
// extensions, with the instructor's dashboard and a learner's pages (her
// home, her first submission) open, and after each step waits until each
// live page says what it says loaded afresh: every table, count and list,
// by data-testid. The due dates change from another instructor's session
// (a form of the dashboard's posted by a client), so that the pages hear
// of them live. It runs on each store: on Postgres the events come
// through the database's notifications.
func TestClassLiveEqualsReloadInBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("a browser test: make test runs it")
	}
	storetest.Each(t, testClassLiveEqualsReload)
}

func testClassLiveEqualsReload(t *testing.T, target string) {
	prof := browsertest.NewBrowser(t, browsertest.BrowserOptions{Width: 1400, Height: 900, Timeout: 10 * time.Minute})
	ada := browsertest.NewBrowser(t, browsertest.BrowserOptions{Width: 1280, Height: 900, Timeout: 10 * time.Minute})
	db, tokens := setupClassOn(t, target, "ada", "bob")
	s := startClassServer(t, db, "--no-bench")
	client, csrf := instructor(t, s)

	signInInstructor(t, prof, s)
	signInLearner(t, ada, s, tokens["ada"])
	pages := []livePage{openLive(t, prof, s, "the dashboard", "/class/dashboard"), openLive(t, ada, s, "ada's home", "/class/me")}

	variants := map[string][]upload{
		"the reference": solutionFiles(t, "tokenbucket"),
		"no capacity":   tokenbucketWith(t, "if carry|borrow != 0 {", "if carry != 0 {", ""),
		"generous": tokenbucketWith(t, "func (b *TokenBucket) TryAcquire(nowNs, n uint64) bool {",
			"func (b *TokenBucket) TryAcquire(nowNs, n uint64) bool {\n\treturn true\n", ""),
	}
	names := []string{"the reference", "no capacity", "generous"}
	seed := uint64(34)
	rng := rand.New(rand.NewPCG(seed, seed))
	t.Logf("seed %d", seed)
	learners := []string{"ada", "bob"}
	past := time.Now().UTC().Add(-30 * time.Hour).Format("2006-01-02T15:04")
	future := time.Now().UTC().Add(30 * time.Hour).Format("2006-01-02T15:04")
	// ada's first submission comes first (her submission's page follows
	// it), then a due date (so that an extension has one to move); the
	// rest in a random order.
	kinds := []string{"check", "submit", "extend", "regrade", "submit", "unextend", "due", "submit", "extend", "clear", "submit", "regrade", "due"}
	rng.Shuffle(len(kinds), func(i, j int) { kinds[i], kinds[j] = kinds[j], kinds[i] })
	kinds = append([]string{"submit", "due"}, kinds...)
	for i, kind := range kinds {
		l, v := learners[rng.IntN(len(learners))], names[rng.IntN(len(names))]
		if i == 0 {
			l = "ada"
		}
		var step string
		switch kind {
		case "submit":
			step = l + " submits " + v
			c, _, body := post(t, s, tokens[l], "tokenbucket", variants[v]...)
			switch c {
			case http.StatusAccepted:
				awaitGraded(t, s, tokens[l], int64(body["id"].(float64)), 2*time.Minute)
				if i == 0 {
					pages = append(pages, openLive(t, ada, s, "ada's submission", fmt.Sprint(body["url"])))
				}
			case http.StatusForbidden: // refused: too late
				step += " (refused: " + fmt.Sprint(body["error"]) + ")"
			default:
				t.Fatalf("%s: %d %v", step, c, body)
			}
		case "check":
			step = l + " checks " + v
			putDraft(t, s, tokens[l], "tokenbucket", variants[v]...)
			if c, _, st := postCheck(t, s, tokens[l], "tokenbucket"); c != http.StatusOK {
				t.Fatalf("%s: %d %+v", step, c, st)
			}
		case "regrade":
			step = "a regrade"
			postForm(t, s, client, csrf, "/class/regrade", url.Values{})
		case "due":
			at, policy := []string{past, future}[rng.IntN(2)], []string{"accept", "penalty", "refuse"}[rng.IntN(3)]
			step = "week 1 due " + at + " UTC, late work " + policy
			postForm(t, s, client, csrf, "/class/course/due", url.Values{"target": {"week:1"}, "at": {at}, "tz": {"UTC"}, "late": {policy}, "penalty": {"10"}})
		case "clear", "extend", "unextend":
			form := url.Values{"target": {"week:1"}}
			step = map[string]string{"clear": "week 1's due date cleared", "extend": l + " given an extension", "unextend": l + "'s extension taken back"}[kind]
			path := "/class/course/due"
			if kind != "clear" {
				path = "/class/course/extend"
				form.Set("learner", l)
				form.Set("until", time.Now().UTC().Add(60*time.Hour).Format("2006-01-02T15:04"))
			}
			if kind != "extend" {
				form.Set("clear", "1")
			}
			switch code, body := postDashboard(t, s, client, csrf, path, form); code {
			case http.StatusOK:
			case http.StatusUnprocessableEntity:
				step += " (refused: " + body + ")"
			default:
				t.Fatalf("%s: %d %s", step, code, body)
			}
		}
		quiet(t, s, client)
		t.Logf("step %d: %s", i+1, step)
		for _, p := range pages {
			p.settle(t, s, fmt.Sprintf("step %d (%s)", i+1, step))
		}
	}
	for _, p := range pages {
		if same := browsertest.Eval[int](t, p.live, `window.__sameDocument || 0`); same != 1 && p.name != "ada's submission" {
			t.Errorf("%s reloaded itself instead of updating in place", p.name)
		}
	}
	browsertest.Screenshot(t, pages[0].live, "live-dashboard")
	browsertest.Screenshot(t, pages[1].live, "live-learner")
}
