package model

import "testing"

// TestWindowRules: buckets of WindowNs/buckets ns; the count covers the
// current bucket and the K-1 before it; a call earlier than the latest
// bucket seen counts in that bucket; at Limit, calls are refused and not
// counted.
func TestWindowRules(t *testing.T) {
	m := NewWindow(3, 100, 4) // buckets of 25 ns
	steps := []struct {
		now   uint64
		take  bool // TryAcquire, else Count
		want  any
		count uint32
	}{
		{0, true, true, 1},
		{24, true, true, 2},        // bucket 0
		{25, true, true, 3},        // bucket 1
		{99, true, false, 3},       // bucket 3: buckets 0-3 hold 3
		{100, false, uint32(1), 1}, // bucket 4: bucket 0 has left
		{10, true, true, 2},        // earlier: counted in bucket 4
		{124, true, true, 3},       // still bucket 4: bucket 1 and bucket 4 held 2
		{150, false, uint32(2), 2}, // bucket 6: buckets 3 to 6, only bucket 4 holds calls
		{1000, false, uint32(0), 0},
	}
	for i, s := range steps {
		var got any
		if s.take {
			got = m.TryAcquire(s.now)
		} else {
			got = m.Count(s.now)
		}
		if got != s.want || m.CountAt(m.Cur) != s.count {
			t.Fatalf("step %d at %d: %v, count %d; want %v, %d", i+1, s.now, got, m.CountAt(m.Cur), s.want, s.count)
		}
	}
	if m.Cur != 40 {
		t.Fatalf("current bucket %d, want 40", m.Cur)
	}
}
