package browsertest

import (
	"path/filepath"
	"testing"
)

// The week 1 lesson's naive refill panel, with Code = Yours, for a learner
// whose token bucket is written (here one that drops the fraction of every
// refill) and whose GCRA is still the stub: Yours runs their token bucket
// (the refill follows the exercise, exact), not only the GCRA stub, and the
// credit lost is the token bucket lane's own: beside its refusals, the
// tokens it holds less than an exact bucket that took the same messages.
func TestNaiveRefillPanelRunsYourTokenBucket(t *testing.T) {
	t.Parallel()
	RequireChromium(t)
	requireWasm(t)
	root, err := ModuleRoot(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if !stillAStub(t, "exercises/gcra/gcra.go") {
		t.Skip("exercises/gcra is not the stub: this test needs a learner on the token bucket")
	}
	static := fixtureWasm(t, root, "tokenbucket", filepath.Join(root, "grader", "testdata", "fixtures", "tokenbucket", "truncating-refill"))
	s := StartServer(t, ServerOptions{StaticDir: static})
	ctx := NewBrowser(t, BrowserOptions{})
	errs := Console(ctx)
	v := openViz(t, ctx, s, "week-1", "naive-refill")
	v.set("impl", "yours")
	f := v.waitFor("Yours running", `f["impl-status"].startsWith("Yours") && n("messages") >= 1000`)
	if got := f.text("refill"); got != "exact" {
		t.Errorf("with Code = Yours, Refill = %q; want exact, the refill of the exercise Yours runs", got)
	}
	if got := f.text("status-tokenbucket"); got != "" {
		t.Errorf("the token bucket lane says %q; want it running the learner's bucket", got)
	}
	if got := f.text("impl-status"); got == "Yours: not implemented yet" {
		t.Errorf("with the token bucket written, the status says %q: Yours ran only the GCRA stub", got)
	}
	// Exact and Yours, chosen by hand too: the figure is still the lane's.
	v.set("refill", "exact")
	f = v.waitFor("the truncating bucket refusing", `f["impl-status"].startsWith("Yours") && n("refused-tokenbucket") > 1000`)
	if got := f.int("lost-credit"); got <= 0 {
		t.Errorf("the token bucket lane accepted %s and refused %s, and the credit lost says %d tokens: it must be that lane's", f.text("accepted-tokenbucket"), f.text("refused-tokenbucket"), got)
	}
	ScreenshotViewport(t, ctx, "naive-refill-yours")
	if e := errs(); len(e) > 0 {
		t.Errorf("console errors: %q", e)
	}
}
