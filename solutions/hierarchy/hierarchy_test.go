package hierarchy_test

import (
	"math"
	"strings"
	"testing"

	"ratelab/solutions/hierarchy"
)

const max64 = math.MaxUint64

// step is one call on a tree: Add(parent, capacity, rate) wanting id (or
// an error containing errText), TryAcquire(node, now, n) wanting ok, or
// Available(node, now) wanting tokens.
type step struct {
	call    string // "add", "try" or "avail"
	node    int    // the node, or Add's parent
	now, n  uint64 // n is also Add's capacity
	rate    uint64 // Add's rate
	ok      bool
	want    uint64 // Available's tokens, or Add's id
	errText string
}

func add(parent int, capacity, rate uint64, id uint64) step {
	return step{call: "add", node: parent, n: capacity, rate: rate, want: id}
}
func addErr(parent int, text string) step {
	return step{call: "add", node: parent, n: 1, rate: 1, errText: text}
}
func try(node int, now, n uint64, ok bool) step {
	return step{call: "try", node: node, now: now, n: n, ok: ok}
}
func avail(node int, now, tokens uint64) step {
	return step{call: "avail", node: node, now: now, want: tokens}
}

func TestTree(t *testing.T) {
	const R = hierarchy.Root
	tests := []struct {
		name  string
		start uint64
		steps []step
	}{
		{"a refused message charges no level", 0, []step{
			add(R, 2, 0, 0), add(0, 3, 0, 1),
			try(1, 0, 3, false), // the session holds 3, the firm only 2
			avail(1, 0, 2),
			try(1, 0, 2, true), try(1, 0, 1, false), avail(1, 0, 0),
		}},
		{"siblings share their parent", 0, []step{
			add(R, 3, 0, 0), add(0, 2, 0, 1), add(0, 2, 0, 2),
			try(1, 0, 2, true), try(2, 0, 2, false), try(2, 0, 1, true), avail(2, 0, 0), avail(0, 0, 0),
		}},
		{"nodes off the path earn too", 0, []step{
			add(R, 10, 1, 0), add(0, 10, 1, 1), add(0, 10, 1, 2),
			try(1, 0, 5, true), try(2, 0, 5, true), // the firm is empty
			try(2, 3_000_000_000, 1, true), // 3 s: everyone earned 3
			avail(1, 3_000_000_000, 2),     // the firm holds 2 now
			avail(1, 8_000_000_000, 7),
		}},
		{"a node added later starts full at the tree's time", 5_000_000_000, []step{
			add(R, 4, 1, 0), try(0, 9_000_000_000, 4, true),
			add(0, 2, 1, 1), avail(1, 9_000_000_000, 0), // the firm is empty
			avail(1, 11_000_000_000, 2),
		}},
		{"fractions of a token are kept at every level", 0, []step{
			add(R, 1, 1000, 0), add(0, 1, 1000, 1),
			try(1, 0, 1, true),
			try(1, 300_000, 1, false), try(1, 600_000, 1, false), try(1, 999_999, 1, false),
			try(1, 1_000_000, 1, true),
		}},
		{"a step back adds nothing and rewinds nothing", 1000, []step{
			add(R, 2, 1_000_000_000, 0),
			try(0, 1000, 2, true), try(0, 500, 1, false),
			try(5, 1002, 0, false), // an unknown id advances the clock too
			try(0, 0, 2, true), try(0, 1001, 1, false),
		}},
		{"errors change nothing", 0, []step{
			addErr(0, "parent"), addErr(-2, "parent"), add(R, 1, 1, 0), addErr(1, "parent"),
			add(0, 1, 1, 1), add(1, 1, 1, 2), add(2, 1, 1, 3), add(3, 1, 1, 4),
			add(4, 1, 1, 5), add(5, 1, 1, 6), add(6, 1, 1, 7), addErr(7, "deep"), add(6, 1, 1, 8),
			try(9, 0, 0, false), avail(9, 0, 0), try(-1, 0, 0, false), try(8, 0, 1, true),
		}},
		{"huge values", 0, []step{
			add(R, max64, max64, 0), add(0, max64, 1_000_000_000, 1),
			try(1, 0, max64, true), avail(1, 0, 0),
			avail(1, max64, max64), try(1, max64, max64, true), try(1, max64, 1, false),
		}},
		{"a day idle at 1e6/s", 0, []step{
			add(R, 1<<40, 1_000_000, 0), add(0, 1<<40, 1_000_000, 1),
			try(1, 0, 1<<40, true), avail(1, 86_400_000_000_000, 86_400_000_000),
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tree := hierarchy.New(tt.start)
			for i, s := range tt.steps {
				switch s.call {
				case "add":
					id, err := tree.Add(s.node, s.n, s.rate)
					if s.errText != "" {
						if id != -1 || err == nil || !strings.Contains(err.Error(), s.errText) {
							t.Fatalf("step %d: Add(%d, ...) = %d, %v; want -1 and an error about %q", i, s.node, id, err, s.errText)
						}
					} else if id != int(s.want) || err != nil {
						t.Fatalf("step %d: Add(%d, %d, %d) = %d, %v; want %d, nil", i, s.node, s.n, s.rate, id, err, s.want)
					}
				case "try":
					if got := tree.TryAcquire(s.node, s.now, s.n); got != s.ok {
						t.Fatalf("step %d: TryAcquire(%d, %d, %d) = %t, want %t", i, s.node, s.now, s.n, got, s.ok)
					}
				case "avail":
					if got := tree.Available(s.node, s.now); got != s.want {
						t.Fatalf("step %d: Available(%d, %d) = %d, want %d", i, s.node, s.now, got, s.want)
					}
				}
			}
		})
	}
}

func TestNoAllocs(t *testing.T) {
	tree, sessions := newTree()
	now := uint64(0)
	i := 0
	allocs := testing.AllocsPerRun(1000, func() {
		now += 700
		i = (i + 37) % len(sessions)
		tree.TryAcquire(sessions[i], now, 1)
		tree.Available(sessions[i], now)
	})
	if allocs != 0 {
		t.Errorf("TryAcquire and Available allocate %.1f times per call, want 0", allocs)
	}
}
