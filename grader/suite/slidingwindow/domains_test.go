package slidingwindow

import (
	"math/rand"
	"testing"
)

// TestDomainsReachTheirCorners checks that each domain's scripts do what
// the domain exists for, often enough.
func TestDomainsReachTheirCorners(t *testing.T) {
	corners := map[string]func(m *model, o op, now uint64) bool{
		"rejected-counted": func(m *model, o op, now uint64) bool { return !o.Count && m.countAt(m.bucketAt(now)) >= m.limit },
		"stale-bucket": func(m *model, o op, now uint64) bool {
			cur := m.bucketAt(now)
			for id, c := range m.accepted {
				if c > 0 && cur-m.cur >= 2 && m.inWindow(id, m.cur) && !m.inWindow(id, cur) {
					return true
				}
			}
			return false
		},
		"window-edge": func(m *model, o op, now uint64) bool {
			for id, c := range m.accepted {
				if cur := m.bucketAt(now); c > 0 && id <= cur && m.edge(cur-id) {
					return true
				}
			}
			return false
		},
		"backward-time": func(m *model, o op, now uint64) bool { return now/m.bucketNs < m.cur },
		"overflow":      func(m *model, o op, now uint64) bool { return now/m.bucketNs > ^uint64(0)/m.bucketNs-m.k },
	}
	for name, corner := range corners {
		d := Checks.Domains[name]
		r := rand.New(rand.NewSource(4))
		hit := 0
		for range 200 {
			s := d.Gen(r, 100)
			m, latest := newModel(s.Setup), uint64(0)
			found := false
			for _, o := range s.Ops {
				if corner(m, o, o.at(latest, m.bucketNs)) {
					found = true
				}
				latest = m.apply(o, latest)
			}
			if found {
				hit++
			}
		}
		if hit < 100 {
			t.Errorf("%s: %d of 200 scripts reach the corner, want at least half", name, hit)
		}
	}
}
