package web_test

import (
	"io/fs"
	"path"
	"regexp"
	"strings"
	"testing"

	"ratelab/web"
)

// colorVar is an entry of a visualization's COLORS (or of common.js's
// BASE_COLORS), the custom property a canvas's colour is read from:
// offer: "--rgv-offer".
var colorVar = regexp.MustCompile(`\b\w+: "(--[a-z0-9-]+)"`)

// Every colour a visualization's script reads for its canvases (COLORS,
// through common.js's readColors) is a custom property its stylesheet or
// lab.css declares: the scripts hold no colour of their own, so one that
// is not would draw nothing. (internal/browsertest's TestVizColorsResolve
// checks, in Chromium, that each reaches the frame that reads it.)
func TestVizColorsAreDeclared(t *testing.T) {
	static := web.Static("")
	site, err := fs.ReadFile(static, "lab.css")
	if err != nil {
		t.Fatal(err)
	}
	scripts, err := fs.Glob(static, "viz/*.js")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, js := range scripts {
		src, err := fs.ReadFile(static, js)
		if err != nil {
			t.Fatal(err)
		}
		vars := colorVar.FindAllStringSubmatch(string(src), -1)
		if len(vars) == 0 {
			continue
		}
		css, _ := fs.ReadFile(static, strings.TrimSuffix(js, ".js")+".css") // common.js has none: lab.css holds its colours
		for _, v := range vars {
			checked++
			if decl := v[1] + ":"; !strings.Contains(string(css), decl) && !strings.Contains(string(site), decl) {
				t.Errorf("%s reads %s, which neither %s nor lab.css declares", js, v[1], path.Base(strings.TrimSuffix(js, ".js")+".css"))
			}
		}
	}
	if checked == 0 {
		t.Fatal("no visualization's colours found: the test checks nothing")
	}
	t.Logf("%d colours of %d scripts checked", checked, len(scripts))
}
