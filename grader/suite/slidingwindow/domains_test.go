package slidingwindow

import (
	"math/rand"
	"testing"
)

// TestDomainsReachTheirCorners checks that each domain's scripts do what
// the domain exists for, often enough.
func TestDomainsReachTheirCorners(t *testing.T) {
	corners := map[string]func(m *model, o op, now uint64) bool{
		"rejected-counted": func(m *model, o op, now uint64) bool { return !o.Count && m.CountAt(m.BucketAt(now)) >= m.Limit },
		"stale-bucket": func(m *model, o op, now uint64) bool {
			cur := m.BucketAt(now)
			for id, c := range m.Accepted {
				if c > 0 && cur-m.Cur >= 2 && m.InWindow(id, m.Cur) && !m.InWindow(id, cur) {
					return true
				}
			}
			return false
		},
		"window-edge": func(m *model, o op, now uint64) bool {
			for id, c := range m.Accepted {
				if cur := m.BucketAt(now); c > 0 && id <= cur && m.edge(cur-id) {
					return true
				}
			}
			return false
		},
		"backward-time": func(m *model, o op, now uint64) bool { return now/m.BucketNs < m.Cur },
		"overflow":      func(m *model, o op, now uint64) bool { return now/m.BucketNs > ^uint64(0)/m.BucketNs-m.K },
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
				if corner(m, o, o.at(latest, m.BucketNs)) {
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
