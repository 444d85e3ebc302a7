package page

import (
	"bytes"
	"context"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"ratelab/internal/weekbuild"
	"ratelab/lab/course"
)

// The lesson pages show what the course declares: the visualizations it
// mounts, where its table of contents points, the exercises it introduces.
func TestLessonPages(t *testing.T) {
	for _, w := range course.Weeks() {
		t.Run(w.Lesson.Slug, func(t *testing.T) {
			doc := render(t, LessonPage(w, Assets{}))
			if got := text(one(t, doc, "lesson-title")); got != w.Lesson.Title {
				t.Errorf("lesson-title = %q, want %q", got, w.Lesson.Title)
			}
			if n := doc.Find(`div[data-viz]`).Length(); n != len(w.Lesson.Mounts) {
				t.Errorf("%d visualization mount points, want the %d declared", n, len(w.Lesson.Mounts))
			}
			for _, m := range w.Lesson.Mounts {
				mount := one(t, doc, "viz-"+m.ID)
				if v, _ := mount.Attr("data-viz"); v != m.Viz {
					t.Errorf("mount %s: data-viz = %q, want %q", m.ID, v, m.Viz)
				}
				if p, ok := mount.Attr("data-preset"); p != m.Preset || !ok {
					t.Errorf("mount %s: data-preset = %q, want %q", m.ID, p, m.Preset)
				}
				if got := text(mount.Find(`[data-testid="viz-missing"]`)); got != "visualization not built: run make run" {
					t.Errorf("without lab.wasm mount %s says %q", m.ID, got)
				}
			}
			// The table of contents is the declared one, each entry points
			// at a heading on the page, and every section is in it.
			var toc []string
			doc.Find(`nav.toc a`).Each(func(_ int, a *goquery.Selection) {
				href, _ := a.Attr("href")
				toc = append(toc, strings.TrimPrefix(href, "#")+" "+text(a))
				if doc.Find(href).Length() != 1 {
					t.Errorf("contents link %s has no target", href)
				}
			})
			var declared []string
			for _, s := range w.Lesson.Contents {
				declared = append(declared, s.ID+" "+s.Title)
			}
			if !slices.Equal(toc, declared) {
				t.Errorf("contents = %q, want the declared %q", toc, declared)
			}
			doc.Find(`[data-testid="lesson-body"] h2[id]`).Each(func(_ int, h *goquery.Selection) {
				if id := h.AttrOr("id", ""); !slices.ContainsFunc(w.Lesson.Contents, func(s course.Section) bool { return s.ID == id }) {
					t.Errorf("section %q (%s) is not in the lesson's contents", id, text(h))
				}
			})
			for _, e := range w.Exercises {
				link := one(t, doc, "lesson-exercise-"+e.ID).Find("a")
				if href, _ := link.Attr("href"); href != "/exercises/"+e.ID {
					t.Errorf("exercise %s linked as %q", e.ID, href)
				}
			}
		})
	}
}

// Prose that places a mount its lesson does not declare does not render:
// the page's assets follow from the declaration only.
func TestUndeclaredMountFailsToRender(t *testing.T) {
	w := course.Weeks()[0]
	w.Lesson.Mounts = nil
	var buf bytes.Buffer
	err := LessonPage(w, Assets{}).Render(context.Background(), &buf)
	if err == nil || !strings.Contains(err.Error(), "declares no visualization mount") {
		t.Errorf("rendering %s without its mounts: err = %v, want one naming the undeclared mount", w.Lesson.Slug, err)
	}
}

func TestLessonLoadsVisualizationOnlyWhenBuilt(t *testing.T) {
	w := course.Weeks()[0]
	doc := render(t, LessonPage(w, assetsWithout()))
	var srcs []string
	doc.Find("script[src]").Each(func(_ int, s *goquery.Selection) { srcs = append(srcs, s.AttrOr("src", "")) })
	if strings.Join(srcs, " ") != "/static/viz/early.js /static/wasm_exec.js /static/viz/common.js /static/viz/limiters.js" {
		t.Errorf("scripts = %q, want viz/early.js, wasm_exec.js, viz/common.js then viz/limiters.js", srcs)
	}
	if doc.Find(`link[href="/static/viz/limiters.css"]`).Length() != 1 {
		t.Error("the visualization's stylesheet is not linked")
	}
	if byTestID(doc, "viz-missing").Length() != 0 {
		t.Error("says the visualization is not built when it is")
	}
	if doc.Find(`[data-viz="limiters"] [data-viz-fallback]`).Length() != 1 {
		t.Error("no fallback line inside the mount point for the script to replace")
	}

	doc = render(t, LessonPage(w, assetsWithout("lab.wasm", weekbuild.Name(w.Number))))
	if doc.Find("script").Length() != 0 || byTestID(doc, "viz-missing").Length() != 1 {
		t.Error("without lab.wasm and its week's build the page still loads the visualization, or does not say it is missing")
	}
}

// Each lesson's visualizations draw the reference from its week's build
// and run Yours from its week's Yours build, each from lab.wasm on a
// server that has no such build (class mode runs Yours from the learner's
// own build: see the class pages' tests).
func TestLessonDrawsFromItsWeeksBuilds(t *testing.T) {
	for _, w := range course.Weeks() {
		week, yours, lab := weekbuild.Name(w.Number), weekbuild.YoursName(w.Number), "lab.wasm"
		for _, c := range []struct {
			a           Assets
			wasm, yours string
		}{
			{assetsWithout(), week, yours},
			{assetsWithout(lab), week, yours},
			{assetsWithout(week), lab, yours},
			{assetsWithout(yours), week, lab},
		} {
			doc := render(t, LessonPage(w, c.a))
			mounts := doc.Find("[data-viz]")
			if mounts.Length() == 0 {
				t.Fatalf("%s: no visualization mounted", w.Lesson.Slug)
			}
			mounts.Each(func(_ int, m *goquery.Selection) {
				got := []string{m.AttrOr("data-wasm", ""), m.AttrOr("data-yours-wasm", "")}
				if want := []string{"/static/" + c.wasm, "/static/" + c.yours}; !slices.Equal(got, want) {
					t.Errorf("%s: %s's data-wasm and data-yours-wasm = %q, want %q", w.Lesson.Slug, m.AttrOr("data-viz", ""), got, want)
				}
			})
			// The head starts compiling the reference's build
			// (viz/early.js): any other would be fetched for nothing, and
			// the mounts' fetched again.
			early := doc.Find(`head script[src="/static/viz/early.js"]`)
			if got := early.AttrOr("data-wasm", ""); early.Length() != 1 || got != "/static/"+c.wasm || early.AttrOr("async", "no") == "no" {
				t.Errorf("%s: %d viz/early.js in the head, data-wasm %q, want one, async, with /static/%s", w.Lesson.Slug, early.Length(), got, c.wasm)
			}
		}
	}
}

// The week 4 lesson loads its own two visualizations, and the limiters'
// only on the lessons that show them.
func TestWeek4LoadsItsVisualizations(t *testing.T) {
	var week4 course.Week
	for _, w := range course.Weeks() {
		if w.Lesson.Slug == "week-4" {
			week4 = w
		}
	}
	if week4.Number != 4 {
		t.Fatal("the course has no week-4 lesson")
	}
	doc := render(t, LessonPage(week4, assetsWithout()))
	var srcs, hrefs []string
	doc.Find("script[src]").Each(func(_ int, s *goquery.Selection) { srcs = append(srcs, s.AttrOr("src", "")) })
	doc.Find(`link[rel="stylesheet"][href^="/static/viz/"]`).Each(func(_ int, s *goquery.Selection) { hrefs = append(hrefs, s.AttrOr("href", "")) })
	if got := strings.Join(srcs, " "); got != "/static/viz/early.js /static/wasm_exec.js /static/viz/common.js /static/viz/governor.js /static/viz/gradient2.js" {
		t.Errorf("scripts = %q, want early.js, wasm_exec.js, common.js, governor.js and gradient2.js", got)
	}
	if got := strings.Join(hrefs, " "); got != "/static/viz/governor.css /static/viz/gradient2.css" {
		t.Errorf("visualization stylesheets = %q, want governor.css and gradient2.css", got)
	}
	for _, id := range []string{"viz-governor", "viz-gradient2"} {
		if one(t, doc, id).Find(`[data-viz-fallback]`).Length() != 1 || byTestID(doc, "viz-missing").Length() != 0 {
			t.Errorf("%s: want a loading line for the script to replace, and no missing notice", id)
		}
	}
	// Without the governor's script its mount says so; the other still runs.
	doc = render(t, LessonPage(week4, assetsWithout("viz/governor.js")))
	if byTestID(doc, "viz-governor").Find(`[data-testid="viz-missing"]`).Length() != 1 || doc.Find(`script[src="/static/viz/governor.js"]`).Length() != 0 {
		t.Error("without governor.js the page still loads it, or its mount does not say it is missing")
	}
	if doc.Find(`script[src="/static/viz/gradient2.js"]`).Length() != 1 {
		t.Error("without governor.js the page no longer loads gradient2.js")
	}
	// Every contents entry has its section, and the code sketches render.
	doc.Find(`nav.toc a`).Each(func(_ int, a *goquery.Selection) {
		if href, _ := a.Attr("href"); doc.Find(href).Length() != 1 {
			t.Errorf("contents link %s has no target", href)
		}
	})
	if n := doc.Find(`[data-testid="lesson-body"] pre code`).Length(); n != 3 {
		t.Errorf("%d code sketches in the week 4 lesson, want 3", n)
	}
}

// Every link into a lesson, from a lesson or from an exercise's task,
// points at a lesson of the course and, with a fragment, at a heading on it.
func TestLinksIntoLessonsHaveTargets(t *testing.T) {
	lessons := map[string]*goquery.Document{}
	for _, w := range course.Weeks() {
		lessons["/lessons/"+w.Lesson.Slug] = render(t, LessonPage(w, Assets{}))
	}
	check := func(from string, doc *goquery.Document) {
		doc.Find(`main a[href^="/lessons/"]`).Each(func(_ int, a *goquery.Selection) {
			href := a.AttrOr("href", "")
			path, frag, _ := strings.Cut(href, "#")
			target, ok := lessons[path]
			switch {
			case !ok:
				t.Errorf("%s links %s, which is no lesson", from, href)
			case frag != "" && target.Find(`[id="`+frag+`"]`).Length() != 1:
				t.Errorf("%s links %s, which has no %q on it", from, href, frag)
			}
		})
	}
	for path, doc := range lessons {
		check(path, doc)
	}
	for _, ex := range course.Exercises() {
		check("/exercises/"+ex.ID, render(t, ExercisePage(ex, nil, Assets{})))
	}
}

// Every module a lesson's module scripts import, and what those import, is
// one of the page's scripts or preloaded from its head
// (link rel=modulepreload): none is fetched a round trip after the script
// that imports it.
func TestLessonPreloadsWhatItsScriptsImport(t *testing.T) {
	importRE := regexp.MustCompile(`(?m)^import [^;]*? from "(\.[^"]+)";`)
	for _, w := range course.Weeks() {
		doc := render(t, LessonPage(w, assetsWithout()))
		loaded, read := map[string]bool{}, map[string]bool{}
		var queue []string
		doc.Find(`script[type="module"][src]`).Each(func(_ int, s *goquery.Selection) {
			loaded[s.AttrOr("src", "")] = true
			queue = append(queue, s.AttrOr("src", ""))
		})
		doc.Find(`head link[rel="modulepreload"]`).Each(func(_ int, l *goquery.Selection) { loaded[l.AttrOr("href", "")] = true })
		for len(queue) > 0 {
			src := queue[0]
			queue = queue[1:]
			if read[src] {
				continue
			}
			read[src] = true
			b, err := os.ReadFile(filepath.Join("..", strings.TrimPrefix(src, "/")))
			if err != nil {
				t.Fatalf("%s: reading its script %s: %v", w.Lesson.Slug, src, err)
			}
			for _, m := range importRE.FindAllStringSubmatch(string(b), -1) {
				dep := path.Join(path.Dir(src), m[1])
				if !loaded[dep] {
					t.Errorf("%s: %s imports %s, which the page neither loads nor preloads", w.Lesson.Slug, src, dep)
					loaded[dep] = true // said once
				}
				queue = append(queue, dep)
			}
		}
	}
}
