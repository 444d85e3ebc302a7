package event_test

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"

	"ratelab/internal/jsconst"
)

// TestScriptsTable checks that web/static/events.js's EVENT table lists
// exactly the Type constants.
func TestScriptsTable(t *testing.T) {
	want, err := jsconst.GoStrings([]string{"event.go"}, "event", "Type")
	if err != nil {
		t.Fatal(err)
	}
	if len(want) < 14 {
		t.Fatalf("found %d Type constants in event.go (%q); want at least 14", len(want), want)
	}
	js, err := jsconst.JSTable("../../web/static/events.js", "EVENT")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(js, want) {
		t.Errorf("events.js's EVENT table = %q; want the Type constants %q", js, want)
	}
}

// TestScriptsMatchTheTable checks that the pages' scripts that follow the
// events (class.js, live.js, the editor) import events.js and never
// compare an event's type with a string of their own.
func TestScriptsMatchTheTable(t *testing.T) {
	literal := regexp.MustCompile(`\.type\s*[!=]==?\s*["']`)
	imports := regexp.MustCompile(`(?m)^import \{ EVENT \} from "[./]*(static/)?events\.js";$`)
	for _, name := range []string{"../../web/static/class.js", "../../web/static/live.js", "../../web/editor/editor.js"} {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if !imports.Match(src) {
			t.Errorf("%s does not import EVENT from events.js", filepath.Base(name))
		}
		if m := literal.Find(src); m != nil {
			t.Errorf("%s compares an event's type with a string literal (%q): match it against EVENT", filepath.Base(name), m)
		}
	}
}
