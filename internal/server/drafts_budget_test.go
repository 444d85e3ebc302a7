package server_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

// saveDraft PUTs a draft of files with a learner's token and returns the
// answer's status and Retry-After.
func (f *classFixture) saveDraft(t *testing.T, token string, files map[string]string) (int, string) {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"files": files})
	req, _ := http.NewRequest(http.MethodPut, f.url+"/class/api/drafts/tokenbucket", strings.NewReader(string(body)))
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	r := f.browser(t).do(req)
	return r.code, r.header.Get("Retry-After")
}

// TestDraftSavesSpendABudget: a learner's draft saves spend her own budget
// of saves (20 at once, then 4 a second) and of bytes (4 MiB at once,
// then 512 KiB a second); past either, 429 with Retry-After, and the
// budget comes back with time. Time here is the class's clock, moved by
// the test.
func TestDraftSavesSpendABudget(t *testing.T) {
	clk := &stepClock{t: classNow}
	f := newClassWith(t, fixtureOptions{clock: clk})
	small := map[string]string{"tokenbucket.go": "package tokenbucket\n"}
	for i := range 20 {
		if code, _ := f.saveDraft(t, adaToken, small); code != http.StatusOK {
			t.Fatalf("ada's save %d of 20 at once: %d; want 200", i+1, code)
		}
	}
	code, retry := f.saveDraft(t, adaToken, small)
	if code != http.StatusTooManyRequests || retry != "1" {
		t.Errorf("ada's 21st save at once: %d, Retry-After %q; want 429 and 1", code, retry)
	}
	// Bob's budget is his own.
	if code, _ := f.saveDraft(t, bobToken, small); code != http.StatusOK {
		t.Errorf("bob's first save while ada is over hers: %d; want 200", code)
	}
	clk.set(classNow.Add(250 * time.Millisecond))
	if code, _ := f.saveDraft(t, adaToken, small); code != http.StatusOK {
		t.Errorf("ada's save 250ms later: %d; want 200", code)
	}

	// Bytes: drafts of 240 KiB at one instant, 18 of which make more than
	// 4 MiB (18 saves are within the saves at once).
	big := map[string]string{}
	for i := range 4 {
		big[fmt.Sprintf("part%d.go", i)] = "package tokenbucket\n//" + strings.Repeat("x", 60<<10-24-len("part0.go")) // 60 KiB with its name + "\n"
	}
	clk.set(classNow.Add(time.Hour)) // every budget full again
	for i := range 17 {
		if code, _ := f.saveDraft(t, bobToken, big); code != http.StatusOK {
			t.Fatalf("bob's save %d of 240 KiB at once: %d; want 200 (3.98 MiB of 4)", i+1, code)
		}
	}
	code, retry = f.saveDraft(t, bobToken, big)
	if secs, _ := strconv.Atoi(retry); code != http.StatusTooManyRequests || secs < 1 {
		t.Errorf("bob's 18th save of 240 KiB at once: %d, Retry-After %q; want 429 past 4 MiB", code, retry)
	}
	clk.set(classNow.Add(time.Hour + time.Second))
	if code, _ := f.saveDraft(t, bobToken, big); code != http.StatusOK {
		t.Errorf("bob's save of 240 KiB a second later: %d; want 200 (512 KiB a second)", code)
	}
}
