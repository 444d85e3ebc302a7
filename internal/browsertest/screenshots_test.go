package browsertest

import (
	"fmt"
	"strconv"
	"testing"
	"time"

	"ratelab/grader/report"
	"ratelab/lab/course"
)

// brokenNumbers lists the numbers under root that a line break cuts in
// two, with the tag of the element holding each.
const brokenNumbers = `((root) => {
	const out = [];
	const walk = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
	for (let n = walk.nextNode(); n; n = walk.nextNode()) {
		const el = n.parentElement;
		if (!el || !el.getClientRects().length) continue;
		for (const m of n.data.matchAll(/\d(?:[\d_,.]*\d)?/g)) {
			if (m[0].length < 3) continue;
			const r = document.createRange();
			r.setStart(n, m.index);
			r.setEnd(n, m.index + m[0].length);
			const tops = new Set(Array.from(r.getClientRects()).filter((q) => q.width > 0).map((q) => Math.round(q.top)));
			if (tops.size > 1) out.push(el.tagName.toLowerCase() + " " + m[0]);
		}
	}
	return out;
})`

// pastTheWindow lists the elements whose right edge is past the window's
// and that no scrolling or clipping box holds: what makes a full-page
// picture wider than the window.
const pastTheWindow = `((width) => {
	const out = [];
	const clipped = (el) => {
		for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
			const o = getComputedStyle(p).overflowX;
			if (o !== "visible") return true;
		}
		return false;
	};
	for (const el of document.querySelectorAll("body *")) {
		const r = el.getBoundingClientRect();
		if (r.width === 0 || r.right <= width + 1 || clipped(el)) continue;
		out.push(el.tagName.toLowerCase() + (el.className && typeof el.className === "string" ? "." + el.className.split(" ").join(".") : "") +
			(el.dataset.testid ? "[" + el.dataset.testid + "]" : "") + " " + Math.round(r.right));
		if (out.length >= 8) break;
	}
	return out;
})`

// Every page of the local lab, at 1400 px and on a phone (390 px), in the
// light and the dark scheme, pictured (under RATELAB_SCREENSHOTS) to be
// looked at, with its Replay tables drawn: no page scrolls sideways and
// nothing lies past the window's edge, on a phone no stackable table is
// wider than its box, and no number is cut across two lines.
func TestEveryPageLaidOut(t *testing.T) {
	t.Parallel()
	RequireChromium(t)
	requireWasm(t)
	ctx := NewBrowser(t, BrowserOptions{Width: 1400, Height: 900, Timeout: 8 * time.Minute})
	s := StartServer(t, ServerOptions{StaticDir: assets.Dir, Reports: append([]*report.Report{SampleReport()}, replayReports(t)...), Files: CopyExercises(t)})
	type pg struct{ name, path, wait string }
	pages := []pg{{"home", "/", "course-title"}}
	for _, w := range course.Weeks() {
		pages = append(pages, pg{w.Lesson.Slug, "/lessons/" + w.Lesson.Slug, "lesson-title"})
		for _, e := range w.Exercises {
			pages = append(pages, pg{"exercise-" + e.ID, "/exercises/" + e.ID, "exercise-title"})
		}
	}
	for _, device := range []string{"desktop", "phone"} {
		if device == "phone" {
			Phone(t, ctx)
		}
		for _, p := range pages {
			t.Run(device+"/"+p.name, func(t *testing.T) {
				Open(t, ctx, s, p.path, p.wait)
				waitVizReady(t, ctx)
				waitEditorReady(t, ctx)
				replayAll(t, ctx)
				// The window's width as set: a phone's browser widens its
				// layout (innerWidth) to a page that overflows.
				width := map[string]int{"desktop": 1400, "phone": 390}[device]
				layout := Eval[map[string]any](t, ctx, `((width) => ({
					scroll: document.documentElement.scrollWidth, width,
					tables: Array.from(document.querySelectorAll("table.stackable")).filter((t) => t.getClientRects().length)
						.map((t) => [Math.round(t.getBoundingClientRect().width), t.closest(".table-scroll").clientWidth])
						.filter(([w, box]) => w > box + 1).map(([w, box]) => w + " px in " + box),
					broken: `+brokenNumbers+`(document.querySelector("main")),
					past: `+pastTheWindow+`(width),
				}))(`+strconv.Itoa(width)+`)`)
				if layout["scroll"].(float64) > layout["width"].(float64) {
					t.Errorf("the page is %v px wide in a %v px window: it scrolls sideways", layout["scroll"], layout["width"])
				}
				if past, _ := layout["past"].([]any); len(past) > 0 {
					t.Errorf("elements past the window's right edge, in no box that scrolls: %v", past)
				}
				// A wide table scrolls in its box on a desktop; on a phone
				// its columns stack.
				if tb, _ := layout["tables"].([]any); device == "phone" && len(tb) > 0 {
					t.Errorf("stackable tables wider than their box: %v", tb)
				}
				if b, _ := layout["broken"].([]any); len(b) > 0 {
					t.Errorf("numbers cut across two lines: %v", b)
				}
				for _, scheme := range []string{"light", "dark"} {
					ColorScheme(t, ctx, scheme)
					Screenshot(t, ctx, fmt.Sprintf("%s-%s", device, scheme))
				}
				ColorScheme(t, ctx, "light")
			})
		}
	}
}
