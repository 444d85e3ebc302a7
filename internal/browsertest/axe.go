package browsertest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// MissingAxe is the message an accessibility test skips (or fails) with
// when node_modules/axe-core is not installed.
const MissingAxe = "node_modules/axe-core/axe.min.js not found: run npm ci (make lint-js does) to install axe-core, pinned in package.json"

// AxeTags are the rule sets the accessibility tests run: WCAG 2.0 and 2.1,
// levels A and AA.
var AxeTags = []string{"wcag2a", "wcag2aa", "wcag21a", "wcag21aa"}

// RequireAxe returns the source of axe-core's axe.min.js, installed by
// npm ci from package.json into node_modules at the module's root. Without
// it the test skips, saying how to install it, or fails when CI=true or
// RATELAB_REQUIRE_BROWSER=1: CI must never skip the check silently.
func RequireAxe(t testing.TB) string {
	t.Helper()
	root, err := ModuleRoot(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(filepath.Join(root, "node_modules", "axe-core", "axe.min.js"))
	if err == nil {
		return string(src)
	}
	if os.Getenv("CI") == "true" || os.Getenv("RATELAB_REQUIRE_BROWSER") == "1" {
		t.Fatalf("%s (%v; CI=true or RATELAB_REQUIRE_BROWSER=1 require it)", MissingAxe, err)
	}
	t.Skip(MissingAxe)
	return ""
}

// AxeViolation is one rule axe-core found broken, with the elements that
// break it.
type AxeViolation struct {
	ID     string `json:"id"`
	Impact string `json:"impact"`
	Help   string `json:"help"`
	Nodes  []struct {
		Target  []any  `json:"target"` // CSS selectors; a nested array for a shadow root or frame
		Summary string `json:"failureSummary"`
	} `json:"nodes"`
}

// String is the violation as a test reports it: the rule, its impact,
// and each element's selector and what is wrong with it.
func (v AxeViolation) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s): %s", v.ID, v.Impact, v.Help)
	for _, n := range v.Nodes {
		fmt.Fprintf(&b, "\n\t\t%v: %s", n.Target, strings.Join(strings.Fields(n.Summary), " "))
	}
	return b.String()
}

// Axe runs axe-core (src, from RequireAxe) on the page open in the tab,
// with the AxeTags rules, leaving out the elements that match exclude (CSS
// selectors), and returns the violations. It injects axe-core into the
// page unless an earlier call on the same document did.
func Axe(t testing.TB, ctx context.Context, src string, exclude ...string) []AxeViolation {
	t.Helper()
	if !Eval[bool](t, ctx, `typeof window.axe === "object"`) {
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[chromedp.Void](src)); err != nil {
			t.Fatalf("injecting axe-core: %v", err)
		}
	}
	context := `document`
	if len(exclude) > 0 {
		var sels []string
		for _, e := range exclude {
			sels = append(sels, fmt.Sprintf("%q", e))
		}
		context = `{exclude: [` + strings.Join(sels, ", ") + `]}`
	}
	var tags []string
	for _, tag := range AxeTags {
		tags = append(tags, fmt.Sprintf("%q", tag))
	}
	expr := `axe.run(` + context + `, {runOnly: {type: "tag", values: [` + strings.Join(tags, ", ") + `]}, resultTypes: ["violations"]})
		.then((r) => r.violations.map((v) => ({id: v.id, impact: v.impact || "", help: v.help,
			nodes: v.nodes.map((n) => ({target: n.target, failureSummary: n.failureSummary || ""}))})))`
	v, err := chromedp.Run(ctx, chromedp.Evaluate[[]AxeViolation](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("running axe-core: %v", err)
	}
	return v
}

// ColorScheme makes the tab's pages match prefers-color-scheme: scheme,
// "light" or "dark", as a system setting would; the page open restyles at
// once.
func ColorScheme(t testing.TB, ctx context.Context, scheme string) {
	t.Helper()
	_, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
		Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}},
	})
	if err != nil {
		t.Fatalf("emulating prefers-color-scheme: %s: %v", scheme, err)
	}
	if got := Eval[bool](t, ctx, `matchMedia("(prefers-color-scheme: dark)").matches`); got != (scheme == "dark") {
		t.Fatalf("after emulating prefers-color-scheme: %s, the page matches dark = %v", scheme, got)
	}
}

// CheckA11y runs Axe on the page open in the tab in the light color
// scheme, then in the dark, and reports every violation as an error of the
// test, naming the page (what) and the scheme. It leaves the tab light.
func CheckA11y(t testing.TB, ctx context.Context, src, what string, exclude ...string) {
	t.Helper()
	for _, scheme := range []string{"light", "dark"} {
		ColorScheme(t, ctx, scheme)
		if vs := Axe(t, ctx, src, exclude...); len(vs) > 0 {
			var b strings.Builder
			for _, v := range vs {
				b.WriteString("\n\t" + v.String())
			}
			t.Errorf("%s, %s: %d axe-core violations (WCAG 2.1 AA):%s", what, scheme, len(vs), b.String())
		}
	}
	ColorScheme(t, ctx, "light")
}
