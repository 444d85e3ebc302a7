package page

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/a-h/templ"

	"ratelab/grader/report"
)

// render renders c and parses the HTML.
func render(t *testing.T, c templ.Component) *goquery.Document {
	t.Helper()
	var buf bytes.Buffer
	if err := c.Render(context.Background(), &buf); err != nil {
		t.Fatalf("Render: %v", err)
	}
	doc, err := goquery.NewDocumentFromReader(&buf)
	if err != nil {
		t.Fatalf("parsing the rendered HTML: %v", err)
	}
	return doc
}

// byTestID returns the elements with that data-testid.
func byTestID(doc *goquery.Document, id string) *goquery.Selection {
	return doc.Find(`[data-testid="` + id + `"]`)
}

// one returns the one element with that data-testid, failing otherwise.
func one(t *testing.T, doc *goquery.Document, id string) *goquery.Selection {
	t.Helper()
	s := byTestID(doc, id)
	if s.Length() != 1 {
		t.Fatalf("%d elements with data-testid=%q, want 1", s.Length(), id)
	}
	return s
}

// text is the element's text with white space collapsed.
func text(s *goquery.Selection) string { return strings.Join(strings.Fields(s.Text()), " ") }

var saved = time.Date(2026, 3, 2, 9, 30, 0, 0, time.UTC)

func ptr(v float64) *float64 { return &v }

func failingTokenBucket() report.Exercise {
	return report.Exercise{
		ID: "tokenbucket", Week: 1, Title: "Token bucket", Status: report.Failed, Score: 20, MaxScore: 35,
		Checks: []report.Check{
			{ID: "tokenbucket/capacity", Title: "Starts full", Kind: report.Property, Pitfall: "capacity", Status: report.Passed, Score: 5, MaxScore: 5},
			{
				ID: "tokenbucket/fractional-tokens", Title: "Keeps fractional tokens", Kind: report.Property,
				Pitfall: "fractional-tokens", Status: report.Failed, MaxScore: 5,
				Message: "the fraction was dropped", Hint: "keep units",
				Counterexample: &report.Counterexample{
					Setup: "New(capacity=1, ratePerSec=1000, nowNs=0)",
					Steps: []report.Step{
						{Call: "TryAcquire(nowNs=0, n=1)", Got: "true", Want: "true"},
						{Call: "Available(nowNs=1200000)", Got: "0", Want: "1"},
					},
				},
			},
			{
				ID: "tokenbucket/budget", Title: "Fast", Kind: report.Benchmark, Pitfall: "budget", Status: report.Failed, MaxScore: 5,
				NsPerOp: ptr(52.3), AllocsPerOp: ptr(1), BudgetNs: ptr(40), RefNsPerOp: ptr(11.8),
			},
		},
	}
}

// assetsWithout is every optional asset but the ones named.
func assetsWithout(missing ...string) Assets {
	return FindAssets(func(name string) bool { return !slices.Contains(missing, name) })
}
