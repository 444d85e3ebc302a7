package browsertest

import (
	"context"
	"testing"
	"time"

	"ratelab/grader/report"
)

// tableFit is, for each table under the element in, whether it fits its
// box's width, and the numbers in it broken across lines.
const tableFit = `((root) => Array.from(root.querySelectorAll("table")).map((t) => {
	const box = t.closest(".table-scroll") || t.parentElement;
	return {cls: t.className, width: Math.round(t.getBoundingClientRect().width), box: box.clientWidth, broken: ` + brokenNumbers + `(t)};
}))`

// numberFormats lists, under root, numbers written against the lab's one
// format: in code, Go's _ groups, never commas; in prose, groups of three
// with commas (220,491), never a whole part of five digits or more.
const numberFormats = `((root) => {
	const bad = [];
	const walk = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
	for (let n = walk.nextNode(); n; n = walk.nextNode()) {
		const el = n.parentElement;
		if (!el || el.closest("script, style, pre, [data-editor], time")) continue;
		const code = !!el.closest("code");
		for (const m of n.data.matchAll(/\d(?:[\d_,.]*\d)?/g)) {
			if (code && /\d,\d{3}/.test(m[0])) bad.push("code " + m[0]);
			if (!code && /\d{5}/.test(m[0].split(".")[0])) bad.push("prose " + m[0]); // a fraction's digits are not grouped
		}
	}
	return bad;
})`

// On a phone (390 px), the counterexample's table and the replay's fit
// their boxes, their columns stacked into rows where they would not fit
// side by side; no number breaks across two lines; and the numbers are
// written one way: Go's _ groups in code, comma groups in prose.
func TestPhoneTablesStackAndNumbersStayWhole(t *testing.T) {
	t.Parallel()
	RequireChromium(t)
	root, err := ModuleRoot(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	r, failed, fixture := gradeFixture(t, root, "tokenbucket", "truncating-refill")
	s := StartServer(t, ServerOptions{StaticDir: fixtureWasm(t, root, "tokenbucket", fixture), Reports: []*report.Report{r}})
	ctx := NewBrowser(t, BrowserOptions{Timeout: 3 * time.Minute})
	Phone(t, ctx)
	Open(t, ctx, s, "/exercises/tokenbucket", "exercise-title")
	in := `document.querySelector('[data-testid="check-` + failed.ID + `"]')`
	replayRows(t, ctx, in)
	tables := Eval[[]map[string]any](t, ctx, tableFit+`(`+in+`)`)
	if len(tables) < 2 {
		t.Fatalf("the failed check has %d tables; want the counterexample's and the replay's", len(tables))
	}
	for _, tb := range tables {
		if tb["width"].(float64) > tb["box"].(float64)+1 {
			t.Errorf("table %q is %v px wide in a %v px box: its columns must stack", tb["cls"], tb["width"], tb["box"])
		}
		if b, _ := tb["broken"].([]any); len(b) > 0 {
			t.Errorf("table %q breaks the numbers %v across lines", tb["cls"], b)
		}
	}
	Eval[bool](t, ctx, `(`+in+`.querySelector('[data-testid="replay-result"]').scrollIntoView(), true)`)
	ScreenshotViewport(t, ctx, "phone-replay")
	if bad := Eval[[]string](t, ctx, numberFormats+`(document.querySelector("main"))`); len(bad) > 0 {
		t.Errorf("numbers written against the lab's format on the exercise page: %q", bad)
	}
}
