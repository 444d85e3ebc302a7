package main

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"ratelab/internal/browsertest"
)

// cardsJS measures a page's cards: the gap between each card and the one
// below it, and the space above each card's first heading.
const cardsJS = `(() => {
	const cards = Array.from(document.querySelectorAll("main .card")).filter((c) => c.offsetParent !== null && !c.closest(".due-forms"));
	const out = { gaps: [], bands: [] };
	for (let i = 0; i + 1 < cards.length; i++) {
		const a = cards[i].getBoundingClientRect(), b = cards[i + 1].getBoundingClientRect();
		if (b.top >= a.bottom - 1 && Math.abs(a.left - b.left) < 2) out.gaps.push(Math.round(b.top - a.bottom));
	}
	for (const c of cards) {
		const h = c.querySelector("h2, h3");
		if (h) out.bands.push(Math.round(h.getBoundingClientRect().top - c.getBoundingClientRect().top));
	}
	return out;
})()`

type cardsMeasure struct {
	Gaps  []int `json:"gaps"`
	Bands []int `json:"bands"`
}

// checkCards fails the test if two cards touch or a card has an empty
// band above its first heading (more than its padding and a little).
func checkCards(t *testing.T, m cardsMeasure, page string) {
	t.Helper()
	for _, g := range m.Gaps {
		if g < 8 {
			t.Errorf("%s: two cards %d px apart; want at least 8", page, g)
		}
	}
	for _, b := range m.Bands {
		if b > 32 {
			t.Errorf("%s: a card's first heading starts %d px below its top; want at most 32 (its padding)", page, b)
		}
	}
	if len(m.Gaps)+len(m.Bands) == 0 {
		t.Errorf("%s: no card measured", page)
	}
}

// readme takes the picture of a page docs/instructors.md shows (docs/class-*.png
// are copies): the top of it, 1100 px wide, light.
func readme(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	browsertest.Do(t, ctx, chromedp.EmulateViewport(1100, 1000))
	browsertest.ScreenshotViewport(t, ctx, name)
	browsertest.Do(t, ctx, chromedp.EmulateViewport(1400, 900))
}

// TestClassLayoutInBrowser measures class mode's pages as a class meets
// them: on the sign-in page and a learner's home the cards stand apart,
// with no empty band above their first heading; the dashboard's forms
// have the lab's fields (not 20 px native controls with 13 px text), its
// content starts on the header's left edge, and its second actions (Clear
// it, Take it back) look quieter than the first. Every class page passes
// axe-core's WCAG rules, and is photographed at 1400 and 390 px wide, in
// the light and the dark scheme, to be looked at.
func TestClassLayoutInBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("a browser test: make test runs it")
	}
	ctx := browsertest.NewBrowser(t, browsertest.BrowserOptions{Width: 1400, Height: 900, Timeout: 5 * time.Minute})
	errs := browsertest.Console(ctx)
	axe := browsertest.RequireAxe(t)
	db, tokens := setupClass(t, "ada", "bob")
	s := startClassServer(t, db, "--no-bench")
	client, csrf := instructor(t, s)
	postForm(t, s, client, csrf, "/class/course/due", url.Values{"target": {"week:1"}, "at": {time.Now().UTC().Add(-30 * time.Hour).Format("2006-01-02T15:04")}, "tz": {"UTC"}, "late": {"penalty"}, "penalty": {"10"}})
	noCap := tokenbucketWith(t, "if carry|borrow != 0 {", "if carry != 0 {", "")
	code, _, body := post(t, s, tokens["ada"], "tokenbucket", noCap...)
	if code != http.StatusAccepted {
		t.Fatalf("ada's submission: %d %v", code, body)
	}
	sub := fmt.Sprint(body["url"])
	awaitGraded(t, s, tokens["ada"], int64(body["id"].(float64)), 2*time.Minute)

	browsertest.Do(t, ctx, chromedp.Navigate(s.URL+"/class/login"), chromedp.WaitVisible(browsertest.TestID("learner-login")))
	checkCards(t, browsertest.Eval[cardsMeasure](t, ctx, cardsJS), "the sign-in page")
	shots := func(name string) {
		t.Helper()
		browsertest.CheckA11y(t, ctx, axe, name)
		for _, w := range []int64{1400, 390} {
			browsertest.Do(t, ctx, chromedp.EmulateViewport(w, 900))
			for _, scheme := range []string{"light", "dark"} {
				browsertest.ColorScheme(t, ctx, scheme)
				browsertest.Screenshot(t, ctx, fmt.Sprintf("%s-%d-%s", name, w, scheme))
			}
		}
		browsertest.Do(t, ctx, chromedp.EmulateViewport(1400, 900))
		browsertest.ColorScheme(t, ctx, "light")
	}
	shots("login")

	signInLearner(t, ctx, s, tokens["ada"])
	browsertest.WaitTestID(t, ctx, "learner-counted")
	checkCards(t, browsertest.Eval[cardsMeasure](t, ctx, cardsJS), "the learner's home")
	shots("learner-home")
	readme(t, ctx, "readme-learner")
	for _, p := range []struct{ name, path, wait string }{
		{"learner-exercise", "/class/exercises/tokenbucket", "editor"},
		{"learner-submission", sub, "report"},
		{"learner-lesson", "/class/lessons/week-1", "lesson-title"},
	} {
		browsertest.Do(t, ctx, chromedp.Navigate(s.URL+p.path), chromedp.WaitVisible(browsertest.TestID(p.wait)))
		shots(p.name)
	}
	browsertest.Do(t, ctx, chromedp.Navigate(s.URL+"/class/me"), chromedp.WaitVisible(browsertest.TestID("logout")))
	browsertest.Do(t, ctx, chromedp.Click(browsertest.TestID("logout")), chromedp.WaitVisible(browsertest.TestID("learner-login")))

	signInInstructor(t, ctx, s)
	fields := browsertest.Eval[[]float64](t, ctx, `Array.from(document.querySelectorAll(".due-forms input:not([type=hidden]), .due-forms select")).flatMap((el) => [el.getBoundingClientRect().height, parseFloat(getComputedStyle(el).fontSize)])`)
	if len(fields) == 0 {
		t.Fatal("the dashboard has no due-date form fields")
	}
	for i := 0; i < len(fields); i += 2 {
		if fields[i] < 32 || fields[i+1] < 15 {
			t.Errorf("a field of the dashboard's forms is %.0f px tall with %.0f px text; want at least 32 and 15, as the lab's other fields", fields[i], fields[i+1])
			break
		}
	}
	edges := browsertest.Eval[[]float64](t, ctx, `[document.querySelector(".brand").getBoundingClientRect().left, document.querySelector("[data-testid=dashboard-title]").getBoundingClientRect().left]`)
	if d := edges[0] - edges[1]; d > 2 || d < -2 {
		t.Errorf("the dashboard's content starts at %.0f px, its header at %.0f px; want one left edge", edges[1], edges[0])
	}
	looks := `(id) => { const s = getComputedStyle(document.querySelector("[data-testid=" + id + "]")); return s.backgroundColor + " " + s.color; }`
	main, extend := browsertest.Eval[string](t, ctx, "("+looks+`)("due-set")`), browsertest.Eval[string](t, ctx, "("+looks+`)("extend-set")`)
	for _, quiet := range []string{"due-clear", "extend-clear"} {
		if got := browsertest.Eval[string](t, ctx, "("+looks+")("+jsString(quiet)+")"); got == main || got == extend {
			t.Errorf("%s looks like the form's main button (%s); want it quieter", quiet, got)
		}
	}
	shots("dashboard")
	readme(t, ctx, "readme-dashboard")
	for _, p := range []struct{ name, path, wait string }{
		{"instructor-submission", sub, "report"},
		{"instructor-pitfall", "/class/submissions?exercise=tokenbucket&pitfall=capacity", "filtered-title"},
		{"instructor-exercise", "/class/exercises/tokenbucket", "instructor-note"},
	} {
		browsertest.Do(t, ctx, chromedp.Navigate(s.URL+p.path), chromedp.WaitVisible(browsertest.TestID(p.wait)))
		shots(p.name)
	}
	if e := errs(); len(e) > 0 {
		t.Errorf("console errors: %q", e)
	}
}
