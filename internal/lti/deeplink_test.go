package lti_test

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"ratelab/internal/lti"
	"ratelab/internal/lti/ltitest"
	"ratelab/internal/store/storetest"
)

// pick runs a deep-linking launch by the teacher and answers it with
// picks; it returns the platform's answer to the response.
func (h *harness) pick(t *testing.T, picks ...string) (*http.Response, lti.DeepLinkReturn) {
	t.Helper()
	code, _, body := h.launch(t, "sub-teacher", "deeplink")
	parts := strings.Split(body, "|")
	if code != 200 || len(parts) != 5 || parts[2] != lti.PickerPath {
		t.Fatalf("deep-linking launch = %d %q; want the teacher on the picker, with a token", code, body)
	}
	uid, _ := strconv.ParseInt(parts[3], 10, 64)
	ret, err := h.tool.DeepLink(t.Context(), parts[4], uid, picks)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.PostForm(ret.URL, url.Values{"JWT": {ret.JWT}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp, ret
}

func TestDeepLinkingCreatesLinksWithLineItems(t *testing.T) {
	storetest.Each(t, func(t *testing.T, target string) {
		h := newHarness(t, target)
		resp, ret := h.pick(t, "week:1", "exercise:slidingwindow", "exercise:gcra")
		if resp.StatusCode != 200 || ret.Items != 3 {
			t.Fatalf("the platform took the response with %s, %d items; want 200 and tokenbucket, gcra, slidingwindow", resp.Status, ret.Items)
		}
		want := map[string]float64{}
		for _, w := range lti.Pickables() {
			for _, e := range w.Exercises {
				want["ratelab: "+e.Title] = e.Points
			}
		}
		var labels []string
		var created string
		for _, li := range h.platform.LineItems()[1:] { // the first is the harness's own link's
			labels = append(labels, li.Label)
			if li.ScoreMaximum != want[li.Label] || li.ScoreMaximum <= 0 {
				t.Errorf("line item %s is worth %v, want the exercise's points %v", li.Label, li.ScoreMaximum, want[li.Label])
			}
			if li.ResourceID == "slidingwindow" {
				created = li.ResourceLinkID
			}
		}
		if strings.Join(labels, ",") != "ratelab: Token bucket,ratelab: GCRA,ratelab: Bucketed sliding window" {
			t.Errorf("line items created = %v; want week 1's two exercises and the sliding window, in course order", labels)
		}
		// A learner launching a link deep linking made lands on its exercise.
		if code, _, body := h.launch(t, "sub-grace", created); code != 200 || !strings.HasSuffix(body, "/class/exercises/slidingwindow") {
			t.Errorf("launch of the created link = %d %q; want grace on slidingwindow's page", code, body)
		}
	})
}

func TestDeepLinkingRefusals(t *testing.T) {
	h := newHarness(t, storetest.Backends[0].Target(t))
	code, _, body := h.launch(t, "sub-teacher", "deeplink")
	parts := strings.Split(body, "|")
	if code != 200 || len(parts) != 5 {
		t.Fatalf("deep-linking launch = %d %q", code, body)
	}
	uid, _ := strconv.ParseInt(parts[3], 10, 64)
	for _, tc := range []struct {
		name  string
		token string
		user  int64
		picks []string
		says  string
	}{
		{"another user", parts[4], uid + 1, []string{"exercise:gcra"}, "another user"},
		{"a forged token", parts[4][:len(parts[4])-4] + "AAAA", uid, []string{"exercise:gcra"}, "expired or was not made by this class"},
		{"an unknown exercise", parts[4], uid, []string{"exercise:nope"}, `no exercise "nope"`},
		{"an unknown week", parts[4], uid, []string{"week:99"}, `no week "99"`},
	} {
		if _, err := h.tool.DeepLink(t.Context(), tc.token, tc.user, tc.picks); err == nil || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%s: DeepLink = %v, want an error saying %q", tc.name, err, tc.says)
		}
	}
	// A learner cannot open the picker.
	h.platform.Next(ltitestLearnerDeepLink())
	if code, reason, _ := h.launch(t, "sub-teacher", "deeplink"); code != 400 || reason != string(lti.ReasonMessage) {
		t.Errorf("a deep-linking launch by a learner = %d %s, want 400 message", code, reason)
	}
}

// ltitestLearnerDeepLink makes the next launch's user a learner.
func ltitestLearnerDeepLink() ltitest.Options {
	return ltitest.Options{Claims: func(c map[string]any) {
		c["https://purl.imsglobal.org/spec/lti/claim/roles"] = []string{ltitest.RoleLearner}
	}}
}
