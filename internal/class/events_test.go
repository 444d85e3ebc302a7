package class_test

import (
	"path/filepath"
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
