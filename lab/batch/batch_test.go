package batch_test

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"testing"

	"ratelab/lab/batch"
)

// floats reads b as little-endian float64 values, as JavaScript's
// Float64Array does on every platform the lab runs on.
func floats(t *testing.T, b []byte) []float64 {
	t.Helper()
	if len(b)%8 != 0 {
		t.Fatalf("%d bytes, not a whole number of float64 values", len(b))
	}
	out := make([]float64, len(b)/8)
	for i := range out {
		out[i] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:]))
	}
	return out
}

func TestWriterFloatAndBool(t *testing.T) {
	w := batch.Writer{Bytes: []byte{0xAA}}
	w.Float(1.5)
	w.Bool(true)
	w.Bool(false)
	w.Float(-0.25)
	w.Float(float64(1<<53 - 1))
	if w.Bytes[0] != 0xAA {
		t.Fatalf("Float overwrote the slice's first byte: %x", w.Bytes[0])
	}
	want := []float64{1.5, 1, 0, -0.25, 1<<53 - 1}
	if got := floats(t, w.Bytes[1:]); !slices.Equal(got, want) {
		t.Errorf("wrote %v, want %v", got, want)
	}
	// Little-endian: 1.5 is 0x3FF8000000000000, its low byte first.
	if got := w.Bytes[1:9]; !slices.Equal(got, []byte{0, 0, 0, 0, 0, 0, 0xF8, 0x3F}) {
		t.Errorf("1.5 written as % x, want 00 00 00 00 00 00 f8 3f", got)
	}
}

func TestWriterZeroValue(t *testing.T) {
	var w batch.Writer
	w.Bool(true)
	if got := floats(t, w.Bytes); !slices.Equal(got, []float64{1}) {
		t.Errorf("zero Writer wrote %v, want [1]", got)
	}
}

func TestNext(t *testing.T) {
	for _, c := range []struct {
		name              string
		sent, n, most     int
		from, to, len, lf int
	}{
		{"first page", 0, 10, 4, 0, 4, 4, 6},
		{"middle page", 4, 10, 4, 4, 8, 4, 2},
		{"last, short page", 8, 10, 4, 8, 10, 2, 0},
		{"all sent", 10, 10, 4, 10, 10, 0, 0},
		{"sent beyond the list", 12, 10, 4, 10, 10, 0, 0},
		{"sent below 0", -3, 10, 4, 0, 4, 4, 6},
		{"empty list", 0, 0, 4, 0, 0, 0, 0},
		{"all on one page", 0, 3, 1024, 0, 3, 3, 0},
		{"most 0", 2, 10, 0, 2, 2, 0, 8},
		{"most below 0", 2, 10, -5, 2, 2, 0, 8},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := batch.Next(c.sent, c.n, c.most)
			if p.From != c.from || p.To != c.to || p.N != c.n || p.Len() != c.len || p.Left() != c.lf {
				t.Errorf("Next(%d, %d, %d) = %+v (Len %d, Left %d); want From %d To %d N %d (Len %d, Left %d)",
					c.sent, c.n, c.most, p, p.Len(), p.Left(), c.from, c.to, c.n, c.len, c.lf)
			}
		})
	}
}

// Paging a list from a cursor hands over every event exactly once, in
// order, never more than most at a time.
func TestPagingCoversTheListOnce(t *testing.T) {
	for _, n := range []int{0, 1, 511, 512, 513, 2000} {
		const most = 512
		sent, got := 0, 0
		for batches := 0; ; batches++ {
			if batches > n/most+1 {
				t.Fatalf("n=%d: more than %d batches", n, n/most+1)
			}
			p := batch.Next(sent, n, most)
			if p.From != sent || p.Len() > most || p.Len() < 0 {
				t.Fatalf("n=%d: page %+v after %d sent", n, p, sent)
			}
			got += p.Len()
			sent = p.To
			if p.Left() == 0 {
				break
			}
		}
		if got != n || sent != n {
			t.Errorf("n=%d: %d events paged, cursor at %d", n, got, sent)
		}
	}
}

func TestNextPair(t *testing.T) {
	got := batch.NextPair([2]int{3, 0}, [2]int{5, 20}, 8)
	want := [2]batch.Page{{From: 3, To: 5, N: 5}, {From: 0, To: 8, N: 20}}
	if got != want {
		t.Errorf("NextPair([3 0], [5 20], 8) = %+v, want %+v", got, want)
	}
}

func TestHeader(t *testing.T) {
	for _, c := range []struct {
		name  string
		pages []batch.Page
		want  []float64
	}{
		{"no pages", nil, []float64{7e9, 12e9, 0}},
		{"one page", []batch.Page{{From: 2, To: 6, N: 9}}, []float64{7e9, 12e9, 0, 3, 4}},
		{"two pages", []batch.Page{{From: 0, To: 4, N: 9}, {From: 1, To: 1, N: 3}}, []float64{7e9, 12e9, 0, 7, 4, 0}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var w batch.Writer
			w.Header(7e9, 12e9, false, c.pages...)
			if got := floats(t, w.Bytes); !slices.Equal(got, c.want) {
				t.Errorf("Header(7e9, 12e9, false, %+v) wrote %v, want %v", c.pages, got, c.want)
			}
		})
	}
	var w batch.Writer
	w.Header(12e9, 12e9, true)
	if got := floats(t, w.Bytes); got[batch.HeaderNow] != 12e9 || got[batch.HeaderDuration] != 12e9 || got[batch.HeaderDone] != 1 {
		t.Errorf("Header(12e9, 12e9, true) wrote %v, want now, duration and done 1 at their offsets", got)
	}
}

// A run's two sides hand over their events in batches of at most 2 events
// a side; the header says how many of each a batch carries and how many are
// left.
func Example() {
	events := [2][]string{{"a1", "a2", "a3"}, {"b1"}}
	var sent [2]int
	for {
		pages := batch.NextPair(sent, [2]int{len(events[0]), len(events[1])}, 2)
		var w batch.Writer
		w.Header(1e9, 2e9, false, pages[0], pages[1])
		for i, p := range pages {
			sent[i] = p.To
		}
		h := make([]float64, 0, 6)
		for i := 0; i < len(w.Bytes); i += 8 {
			h = append(h, math.Float64frombits(binary.LittleEndian.Uint64(w.Bytes[i:])))
		}
		fmt.Println(h, events[0][pages[0].From:pages[0].To], events[1][pages[1].From:pages[1].To])
		if h[batch.HeaderPending] == 0 {
			break
		}
	}
	// Output:
	// [1e+09 2e+09 0 1 2 1] [a1 a2] [b1]
	// [1e+09 2e+09 0 0 1 0] [a3] []
}
