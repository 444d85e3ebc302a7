package lti_test

import (
	"strings"
	"testing"

	"ratelab/internal/lti"
	"ratelab/internal/store/storetest"
)

func TestRosterListsLearnersWhoNeverLaunched(t *testing.T) {
	storetest.Each(t, func(t *testing.T, target string) {
		h := newHarness(t, target)
		if rs, err := h.tool.Rosters(t.Context()); err != nil || len(rs) != 0 {
			t.Fatalf("Rosters before any launch = %v, %v; want none", rs, err)
		}
		h.launch(t, "sub-ada", "link-gcra")
		rs, err := h.tool.Rosters(t.Context())
		if err != nil || len(rs) != 1 || rs[0].Err != "" {
			t.Fatalf("Rosters = %+v, %v; want the one course", rs, err)
		}
		want := []lti.Member{
			{Sub: "sub-teacher", Name: "Tess Teacher", Status: "Active", Instructor: true},
			{Sub: "sub-ada", Name: "Ada Lovelace", Email: "ada@example.edu", Status: "Active", Class: "Ada Lovelace"},
			{Sub: "sub-grace", Name: "Grace Hopper", Email: "grace@example.edu", Status: "Active"},
		}
		if rs[0].Course != "Rate limiting 101" || rs[0].Platform != "Test platform" || len(rs[0].Members) != len(want) {
			t.Fatalf("roster = %+v; want Rate limiting 101 on Test platform with %d members", rs[0], len(want))
		}
		for i, m := range rs[0].Members {
			if m != want[i] {
				t.Errorf("member %d = %+v, want %+v", i, m, want[i])
			}
		}
	})
}

func TestRosterFollowsItsPages(t *testing.T) {
	h := newHarness(t, storetest.Backends[0].Target(t))
	h.platform.PageMembers(2)
	h.launch(t, "sub-teacher", "link-gcra")
	rs, err := h.tool.Rosters(t.Context())
	if err != nil || len(rs) != 1 || rs[0].Err != "" {
		t.Fatalf("Rosters = %+v, %v", rs, err)
	}
	var names []string
	for _, m := range rs[0].Members {
		names = append(names, m.Name)
	}
	if strings.Join(names, ",") != "Tess Teacher,Ada Lovelace,Grace Hopper" {
		t.Errorf("the roster read two a page = %v; want all three", names)
	}
}
