package browsertest

import (
	"strings"
	"testing"
)

// The pages use the screen: on a 1,400 px wide window a visualization and
// an exercise's API block take the page's width (before: 688 px and a
// 702 px column that cut throttle's lines), and on a 390 px phone a table
// too wide for it shows it scrolls. Sizes are read from the page; what the
// pictures look like, the screenshots show.
func TestLayoutUsesTheWidth(t *testing.T) {
	t.Parallel()
	ctx := NewBrowser(t, BrowserOptions{Width: 1400, Height: 900})
	requireWasm(t)
	s := StartServer(t, ServerOptions{StaticDir: assets.Dir})

	Open(t, ctx, s, "/lessons/week-1", "viz-naive-refill")
	newVizPage(t, ctx, "viz-naive-refill").waitReady()
	w := Eval[map[string]float64](t, ctx, `(() => {
		const fig = document.querySelector('[data-testid="viz-naive-refill"]').getBoundingClientRect();
		const main = document.querySelector("main").getBoundingClientRect();
		return {fig: fig.width, main: main.width, right: fig.right, mainRight: main.right};
	})()`)
	if w["fig"] < 1100 || w["right"] > w["mainRight"]+1 {
		t.Errorf("at 1,400 px the visualization is %.0f px wide, ending at %.0f (the page's column ends at %.0f); want at least 1,100 px, within the page", w["fig"], w["right"], w["mainRight"])
	}
	Eval[bool](t, ctx, `(document.querySelector('[data-testid="viz-naive-refill"]').scrollIntoView(), true)`)
	ScreenshotViewport(t, ctx, "lesson-1400")

	Open(t, ctx, s, "/exercises/throttle", "api")
	api := Eval[map[string]float64](t, ctx, `(() => { const p = document.querySelector('[data-testid="api"]'); return {scroll: p.scrollWidth, client: p.clientWidth}; })()`)
	if api["scroll"] > api["client"] {
		t.Errorf("throttle's API block at 1,400 px: %.0f px of lines in %.0f px; want every line whole", api["scroll"], api["client"])
	}
	Screenshot(t, ctx, "exercise-1400")

	Phone(t, ctx)
	for _, p := range []struct{ path, mount string }{{"/lessons/week-5", "viz-console"}, {"/lessons/week-3", "viz-contention"}} {
		Open(t, ctx, s, p.path, p.mount)
		newVizPage(t, ctx, p.mount).waitReady()
		// Every box in the mount that scrolls sideways at this width.
		boxes := Eval[[]map[string]any](t, ctx, `[...document.querySelectorAll('[data-testid="`+p.mount+`"] *')]
			.filter((el) => el.scrollWidth > el.clientWidth + 1 && ["auto", "scroll"].includes(getComputedStyle(el).overflowX))
			.map((el) => ({class: el.className, cue: getComputedStyle(el).backgroundImage, tab: el.tabIndex}))`)
		if len(boxes) == 0 {
			t.Errorf("%s at 390 px: no table scrolls sideways; the test would prove nothing", p.path)
		}
		for _, b := range boxes {
			if cue, _ := b["cue"].(string); !strings.Contains(cue, "radial-gradient") {
				t.Errorf("%s at 390 px: the box %q scrolls sideways with no cue (background %q)", p.path, b["class"], cue)
			}
			if tab, _ := b["tab"].(float64); tab != 0 {
				t.Errorf("%s at 390 px: the box %q scrolls sideways but cannot be reached with the keyboard (tabIndex %v)", p.path, b["class"], tab)
			}
		}
		Eval[bool](t, ctx, `(() => {
			const el = [...document.querySelectorAll('[data-testid="`+p.mount+`"] .scroll-cue')].find((el) => el.scrollWidth > el.clientWidth + 1);
			if (el) el.scrollIntoView({block: "center"});
			return true;
		})()`)
		ScreenshotViewport(t, ctx, strings.TrimPrefix(p.mount, "viz-")+"-390")
	}
}
