package mutate

import (
	"context"
	"path/filepath"
	"testing"
)

// TestRun mutates gcra's reference end to end, three mutants of it: one
// the grading kills, one listed as equivalent (and rightly), and the same
// one again unlisted, which then lives.
func TestRun(t *testing.T) {
	if testing.Short() {
		t.Skip("grades the reference and two mutants, and hunts one")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	listed := Listing{Exercise: "gcra", Pos: "gcra.go:71:13", Operator: ConditionalsBoundary, Reason: "elapsed*rate covers ahead there"}
	for _, tt := range []struct {
		only     string
		listings []Listing
		want     Verdict
	}{
		{"ok := ahead > g.tau", nil, Killed},
		{listed.Pos + " " + string(listed.Operator), []Listing{listed}, Equivalent},
		{listed.Pos + " " + string(listed.Operator), nil, Lived},
	} {
		t.Run(string(tt.want), func(t *testing.T) {
			opts := Options{Root: root, Exercises: []string{"gcra"}, Scripts: 5_000, Listings: tt.listings, Only: tt.only}
			if tt.want == Killed {
				opts.Only = "" // picked below, by its line
				p, err := Load(filepath.Join(root, "solutions", "gcra"))
				if err != nil {
					t.Fatal(err)
				}
				for _, m := range p.Mutants() {
					if m.After == tt.only {
						opts.Only = m.String()
					}
				}
				if opts.Only == "" {
					t.Fatalf("gcra's reference has no mutant %q: pick another for this test", tt.only)
				}
			}
			rs, err := Run(context.Background(), opts)
			if err != nil {
				t.Fatal(err)
			}
			if len(rs) != 1 || len(rs[0].Outcomes) != 1 {
				t.Fatalf("Run = %+v, want one exercise with one mutant", rs)
			}
			o := rs[0].Outcomes[0]
			if o.Verdict != tt.want || o.Wrong != "" || o.HuntErr != "" {
				t.Errorf("%s: verdict %s by %q (wrong %q, hunt error %q), want %s", o.Mutant, o.Verdict, o.By, o.Wrong, o.HuntErr, tt.want)
			}
			if tt.want != Killed && (o.Hunt == nil || o.Hunt.Scripts != 5_000 || o.Hunt.Killed) {
				t.Errorf("%s: hunt %+v, want 5000 scripts and no kill", o.Mutant, o.Hunt)
			}
		})
	}
}
