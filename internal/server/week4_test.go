package server_test

import (
	"io/fs"
	"net/http"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/PuerkitoBio/goquery"

	"ratelab/internal/server"
	"ratelab/web"
)

// The week 4 lesson links its own two visualizations once their files and
// lab.wasm exist, and the embedded assets include them.
func TestWeek4Visualizations(t *testing.T) {
	embedded := web.Static("")
	for _, name := range []string{"viz/governor.js", "viz/governor.css", "viz/gradient2.js", "viz/gradient2.css"} {
		if b, err := fs.ReadFile(embedded, name); err != nil || len(b) == 0 {
			t.Errorf("embedded %s: %d bytes, %v", name, len(b), err)
		}
	}

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
	if got := strings.Join(srcs, " "); got != "/static/wasm_exec.js /static/viz/common.js /static/viz/governor.js /static/viz/gradient2.js" {
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
