package live

import (
	"testing"

	"ratelab/internal/event"
)

func TestHubFansOut(t *testing.T) {
	var h Hub
	a, _ := h.Subscribe()
	b, _ := h.Subscribe()
	defer a.Close()
	defer b.Close()
	h.Publish(Event{Type: event.Saved, Exercises: []string{"gcra"}})
	for _, s := range []*Subscription{a, b} {
		if e := <-s.C; e.Type != event.Saved || len(e.Exercises) != 1 || e.Exercises[0] != "gcra" {
			t.Errorf("received %+v; want the saved event of gcra", e)
		}
	}
}

// A subscriber that reads nothing is dropped once Buffer events behind;
// Publish never waits for it, and the others keep every event.
func TestHubDropsSlowSubscriber(t *testing.T) {
	var h Hub
	slow, _ := h.Subscribe()
	fast, _ := h.Subscribe()
	defer fast.Close()
	got := 0
	for i := range Buffer + 10 {
		h.Publish(Event{Type: event.Check, Version: int64(i)})
		e := <-fast.C
		if e.Version != int64(i) {
			t.Fatalf("fast subscriber: event %d has version %d", i, e.Version)
		}
		got++
	}
	n := 0
	for range slow.C { // closed after the buffer's worth
		n++
	}
	if n != Buffer {
		t.Errorf("slow subscriber received %d events before being dropped; want %d", n, Buffer)
	}
	if got != Buffer+10 {
		t.Errorf("fast subscriber received %d events; want %d", got, Buffer+10)
	}
	if h.Subscribers() != 1 {
		t.Errorf("Subscribers() = %d; want 1 (the slow one dropped)", h.Subscribers())
	}
	slow.Close() // closing a dropped subscription does nothing
}

// Subscribe returns the state every later event builds on.
func TestHubState(t *testing.T) {
	var h Hub
	h.Publish(Event{Type: event.Built, Version: 3})
	h.Publish(Event{Type: event.BuildFailed, Message: "exercises/gcra/gcra.go:9:2: undefined: x"})
	s, st := h.Subscribe()
	defer s.Close()
	want := State{Version: 3, BuildMessage: "exercises/gcra/gcra.go:9:2: undefined: x"}
	if st != want {
		t.Errorf("Subscribe() state = %+v; want %+v", st, want)
	}
	h.Publish(Event{Type: event.Built, Version: 4})
	if got := h.State(); got != (State{Version: 4}) {
		t.Errorf("after a good build, State() = %+v; want version 4 and no message", got)
	}
	if e := <-s.C; e.Type != event.Built || e.Version != 4 {
		t.Errorf("received %+v; want built version 4", e)
	}
}

func TestSubscriptionCloseClosesC(t *testing.T) {
	var h Hub
	s, _ := h.Subscribe()
	s.Close()
	s.Close()
	if _, ok := <-s.C; ok {
		t.Error("C is open after Close")
	}
	h.Publish(Event{Type: event.Saved}) // no subscriber: nothing happens
}
