package live

import (
	"slices"
	"testing"

	"ratelab/internal/jsconst"
)

// TestLiveJSEventTypes checks that live.js's EVENT table lists exactly the
// Type constants of event.go.
func TestLiveJSEventTypes(t *testing.T) {
	want, err := jsconst.GoStrings([]string{"event.go"}, "live", "Type")
	if err != nil {
		t.Fatal(err)
	}
	if len(want) < 8 {
		t.Fatalf("found %d Type constants in event.go (%q); want at least 8", len(want), want)
	}
	js, err := jsconst.JSTable("../../web/static/live.js", "EVENT")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(js, want) {
		t.Errorf("live.js's EVENT table = %q; want the Type constants %q", js, want)
	}
}
