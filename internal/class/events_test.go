package class_test

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"

	"ratelab/internal/jsconst"
)

// TestClassJSEventTypes checks that class.js's table of event types lists
// exactly the EventType constants.
func TestClassJSEventTypes(t *testing.T) {
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	want, err := jsconst.GoStrings(names, "class", "EventType")
	if err != nil {
		t.Fatal(err)
	}
	if len(want) < 8 {
		t.Fatalf("found %d EventType constants in internal/class (%q); want at least 8", len(want), want)
	}
	js, err := jsconst.JSTable("../../web/static/class.js", "EVENT")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(js, want) {
		t.Errorf("class.js's EVENT table = %q; want the EventType constants %q", js, want)
	}
}

// TestEditorMatchesEventTypes checks that every event type the editor's
// script compares a class event with (web/editor's `e.type === "..."`)
// is one of the EventType constants: it keeps no table of its own.
func TestEditorMatchesEventTypes(t *testing.T) {
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	want, err := jsconst.GoStrings(names, "class", "EventType")
	if err != nil {
		t.Fatal(err)
	}
	scripts, err := filepath.Glob("../../web/editor/*.js")
	if err != nil || len(scripts) == 0 {
		t.Fatalf("no web/editor/*.js (%v)", err)
	}
	compared := regexp.MustCompile(`\be\.type\s*===?\s*"([^"]*)"`)
	n := 0
	for _, name := range scripts {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range compared.FindAllStringSubmatch(string(src), -1) {
			n++
			if !slices.Contains(want, m[1]) {
				t.Errorf("%s compares e.type with %q, which is no EventType (%q)", filepath.Base(name), m[1], want)
			}
		}
	}
	if n == 0 {
		t.Error("found no e.type comparison in web/editor: the editor follows a submission's grading by its done event")
	}
}
