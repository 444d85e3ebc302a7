package fanout

import (
	"slices"
	"testing"
)

// drain returns what c holds now, and whether it is closed.
func drain(c <-chan int) (got []int, closed bool) {
	for {
		select {
		case e, ok := <-c:
			if !ok {
				return got, true
			}
			got = append(got, e)
		default:
			return got, false
		}
	}
}

// TestPublishGoesToTheTopicsAsked checks that a subscription receives its
// first events, then those published to its topic, in order; a nil filter
// reaches everyone.
func TestPublishGoesToTheTopicsAsked(t *testing.T) {
	h := New[int](8)
	all := h.Subscribe(0, nil)
	one := h.Subscribe(1, []int{10, 11})
	h.Publish(1, func(topic int64) bool { return topic == 1 })
	h.Publish(2, func(topic int64) bool { return topic == 0 })
	h.Publish(3, nil)
	if got, closed := drain(one.C); closed || !slices.Equal(got, []int{10, 11, 1, 3}) {
		t.Errorf("topic 1 got %v (closed %t), want [10 11 1 3]", got, closed)
	}
	if got, closed := drain(all.C); closed || !slices.Equal(got, []int{2, 3}) {
		t.Errorf("topic 0 got %v (closed %t), want [2 3]", got, closed)
	}
}

// TestASlowSubscriberIsDropped checks that Publish never waits: a
// subscription with no room left is closed and forgotten, the others go
// on receiving.
func TestASlowSubscriberIsDropped(t *testing.T) {
	h := New[int](2)
	slow, fast := h.Subscribe(0, nil), h.Subscribe(0, nil)
	for i := range 3 {
		h.Publish(i, nil)
		if i < 2 {
			drain(fast.C)
		}
	}
	if got, closed := drain(slow.C); !closed || !slices.Equal(got, []int{0, 1}) {
		t.Errorf("slow got %v (closed %t), want [0 1] then closed", got, closed)
	}
	if got, closed := drain(fast.C); closed || !slices.Equal(got, []int{2}) {
		t.Errorf("fast got %v (closed %t), want [2], open", got, closed)
	}
	if h.Len() != 1 {
		t.Errorf("Len() = %d, want 1", h.Len())
	}
}

// TestCloseAndCloseAll checks that Close closes the channel once (a
// second Close does nothing), and that CloseAll hands each subscriber
// the last event if it has room, then closes it.
func TestCloseAndCloseAll(t *testing.T) {
	h := New[int](1)
	a := h.Subscribe(0, nil)
	a.Close()
	a.Close()
	if _, closed := drain(a.C); !closed {
		t.Error("Close left the channel open")
	}
	room, full := h.Subscribe(0, nil), h.Subscribe(0, []int{7})
	h.CloseAll(-1)
	if got, closed := drain(room.C); !closed || !slices.Equal(got, []int{-1}) {
		t.Errorf("with room: got %v (closed %t), want [-1] then closed", got, closed)
	}
	if got, closed := drain(full.C); !closed || !slices.Equal(got, []int{7}) {
		t.Errorf("full: got %v (closed %t), want [7] then closed", got, closed)
	}
	if h.Len() != 0 {
		t.Errorf("Len() = %d after CloseAll, want 0", h.Len())
	}
}
