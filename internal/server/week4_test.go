package server_test

import (
	"io/fs"
	"net/http"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/PuerkitoBio/goquery"

	"ratelab/internal/server"
	"ratelab/lab/course"
	"ratelab/web"
	"ratelab/web/page"
)

// Every lesson loads the visualizations it declares, and only those, once
// their files and lab.wasm exist; the embedded assets hold every declared
// visualization's files.
func TestLessonsLoadTheirDeclaredVisualizations(t *testing.T) {
	embedded := web.Static("")
	fsys := fstest.MapFS{}
	for _, name := range page.OptionalAssets() {
		fsys[name] = &fstest.MapFile{Data: []byte("// " + name)}
		if name == "lab.wasm" || name == "wasm_exec.js" {
			continue // built by make wasm, not committed
		}
		if b, err := fs.ReadFile(embedded, name); err != nil || len(b) == 0 {
			t.Errorf("embedded %s: %d bytes, %v", name, len(b), err)
		}
	}
	h := server.New(server.Config{Static: fsys})
	for _, w := range course.Weeks() {
		d := doc(t, get(t, h, "/lessons/"+w.Lesson.Slug))
		var scripts, styles []string
		if len(w.Lesson.Mounts) > 0 { // a lesson without one loads no script
			scripts = []string{"/static/viz/early.js", "/static/wasm_exec.js", "/static/viz/common.js"}
		}
		for _, m := range w.Lesson.Mounts {
			js, css := "/static/viz/"+m.Viz+".js", "/static/viz/"+m.Viz+".css"
			if !slices.Contains(scripts, js) {
				scripts, styles = append(scripts, js), append(styles, css)
			}
			if d.Find(`[data-testid="viz-`+m.ID+`"][data-viz="`+m.Viz+`"]`).Length() != 1 {
				t.Errorf("%s: no %s mount %s", w.Lesson.Slug, m.Viz, m.ID)
			}
		}
		var srcs, hrefs []string
		d.Find("script[src]").Each(func(_ int, s *goquery.Selection) { srcs = append(srcs, s.AttrOr("src", "")) })
		d.Find(`link[rel="stylesheet"][href^="/static/viz/"]`).Each(func(_ int, s *goquery.Selection) { hrefs = append(hrefs, s.AttrOr("href", "")) })
		if !slices.Equal(srcs, scripts) || !slices.Equal(hrefs, styles) {
			t.Errorf("%s loads scripts %q and styles %q; want %q and %q", w.Lesson.Slug, srcs, hrefs, scripts, styles)
		}
		if d.Find(`[data-testid="viz-missing"]`).Length() != 0 {
			t.Errorf("%s says a visualization is missing although all are there", w.Lesson.Slug)
		}
	}
}

// The week 4 lesson links its own two visualizations once their files and
// lab.wasm exist.
func TestWeek4Visualizations(t *testing.T) {
	fsys := fstest.MapFS{
		"lab.wasm":          {Data: []byte("\x00asm\x01\x00\x00\x00")},
		"wasm_exec.js":      {Data: []byte("// go")},
		"viz/governor.js":   {Data: []byte("// governor")},
		"viz/governor.css":  {Data: []byte("/* governor */")},
		"viz/gradient2.js":  {Data: []byte("// gradient2")},
		"viz/gradient2.css": {Data: []byte("/* gradient2 */")},
	}
	h := server.New(server.Config{Static: fsys})
	r := get(t, h, "/lessons/week-4")
	if r.StatusCode != http.StatusOK {
		t.Fatalf("GET /lessons/week-4 = %d", r.StatusCode)
	}
	d := doc(t, r)
	var srcs []string
	d.Find("script[src]").Each(func(_ int, s *goquery.Selection) { srcs = append(srcs, s.AttrOr("src", "")) })
	if got := strings.Join(srcs, " "); got != "/static/viz/early.js /static/wasm_exec.js /static/viz/common.js /static/viz/governor.js /static/viz/gradient2.js" {
		t.Errorf("week 4 scripts = %q", got)
	}
	for _, sel := range []string{`link[href="/static/viz/governor.css"]`, `link[href="/static/viz/gradient2.css"]`, `[data-viz="governor"]`, `[data-viz="gradient2"]`} {
		if d.Find(sel).Length() != 1 {
			t.Errorf("week 4 lesson: %d of %s, want 1", d.Find(sel).Length(), sel)
		}
	}
	if d.Find(`[data-testid="viz-missing"]`).Length() != 0 || d.Find(`script[src="/static/viz/limiters.js"]`).Length() != 0 {
		t.Error("week 4 says a visualization is missing, or loads the limiters'")
	}
	// The week 2 lesson, with only week 4's files, says its own is missing.
	if d := doc(t, get(t, h, "/lessons/week-2")); d.Find(`[data-testid="viz-missing"]`).Length() != 1 || d.Find("script").Length() != 0 {
		t.Error("week 2 loads scripts without limiters.js, or does not say it is missing")
	}
}
