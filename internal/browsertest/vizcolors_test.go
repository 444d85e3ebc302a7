package browsertest

import (
	"encoding/json"
	"io/fs"
	"path"
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"ratelab/lab/course"
	"ratelab/web"
)

// colorProp is an entry of a visualization's COLORS, or of common.js's
// BASE_COLORS: the custom property a canvas's colour is read from.
var colorProp = regexp.MustCompile(`\b\w+: "(--[a-z0-9-]+)"`)

// vizColors returns the custom properties each visualization reads its
// canvases' colours from, by its name (viz/<name>.js): its COLORS and
// common.js's BASE_COLORS.
func vizColors(t *testing.T) map[string][]string {
	t.Helper()
	static := web.Static("")
	read := func(name string) []string {
		src, err := fs.ReadFile(static, name)
		if err != nil {
			t.Fatal(err)
		}
		var props []string
		for _, m := range colorProp.FindAllStringSubmatch(string(src), -1) {
			props = append(props, m[1])
		}
		return props
	}
	base := read("viz/common.js")
	if len(base) == 0 {
		t.Fatal("common.js's BASE_COLORS not found")
	}
	scripts, err := fs.Glob(static, "viz/*.js")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for _, js := range scripts {
		if props := read(js); len(props) > 0 && path.Base(js) != "common.js" {
			out[strings.TrimSuffix(path.Base(js), ".js")] = append(props, base...)
		}
	}
	return out
}

// TestVizColorsResolve loads every lesson in both colour schemes and
// checks that each colour a visualization draws its canvases with has a
// value on the visualization's frame, where readColors reads it: the
// colours are declared only in the stylesheets, so one declared where the
// frame does not inherit it would leave a canvas drawing nothing.
func TestVizColorsResolve(t *testing.T) {
	requireWasm(t)
	props := vizColors(t)
	want, err := json.Marshal(props)
	if err != nil {
		t.Fatal(err)
	}
	s := StartServer(t, ServerOptions{StaticDir: assets.Dir})
	checked := 0
	for _, scheme := range []string{"light", "dark"} {
		ctx := NewBrowser(t, BrowserOptions{})
		if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}},
		}); err != nil {
			t.Fatalf("emulating prefers-color-scheme: %s: %v", scheme, err)
		}
		for _, w := range course.Weeks() {
			Do(t, ctx, chromedp.Navigate(s.URL+"/lessons/"+w.Lesson.Slug))
			waitVizReady(t, ctx)
			got := Eval[struct {
				Missing []string
				Checked int
			}](t, ctx, `((props) => {
				const out = { Missing: [], Checked: 0 };
				for (const m of document.querySelectorAll("[data-viz]")) {
					const name = m.dataset.viz, frame = m.querySelector(".viz-frame");
					if (!props[name]) { out.Missing.push(name + ": no colours found in viz/" + name + ".js"); continue; }
					if (!frame) { out.Missing.push(name + ": no .viz-frame"); continue; }
					const cs = getComputedStyle(frame);
					for (const p of props[name]) {
						out.Checked++;
						if (!cs.getPropertyValue(p).trim()) out.Missing.push(name + " " + p);
					}
				}
				return out;
			})(`+string(want)+`)`)
			for _, m := range got.Missing {
				t.Errorf("%s, %s scheme: %s has no value on the visualization's frame", w.Lesson.Slug, scheme, m)
			}
			checked += got.Checked
		}
	}
	if checked == 0 {
		t.Fatal("no colour checked: the lessons mount no visualization")
	}
	t.Logf("%d colours checked on the lessons' frames", checked)
}
