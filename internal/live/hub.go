package live

import (
	"sync"

	"ratelab/internal/event"
)

// Buffer is how many events a subscriber may fall behind before the Hub
// drops it (its channel closes; the page is told to resync). A save sends
// a few dozen events.
const Buffer = 256

// State is what the Hub remembers for a page that opens later: the Yours
// build served and why the latest build failed, if it did.
type State struct {
	Version      int64
	BuildMessage string // the latest build's compiler message; "" when it built
}

// Hub fans events out to subscribers. Publish never waits: a subscriber
// whose buffer is full is dropped. A Hub is safe for concurrent use; the
// zero value is ready.
type Hub struct {
	mu    sync.Mutex
	state State
	subs  map[*Subscription]struct{}
}

// Subscription receives the Hub's events on C until Close, or until it
// falls Buffer events behind: C is then closed.
type Subscription struct {
	C   <-chan Event
	c   chan Event
	hub *Hub
}

// Subscribe returns a new subscription and the state as of its start: every
// event after that state arrives on the subscription's C.
func (h *Hub) Subscribe() (*Subscription, State) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.subs == nil {
		h.subs = map[*Subscription]struct{}{}
	}
	c := make(chan Event, Buffer)
	s := &Subscription{C: c, c: c, hub: h}
	h.subs[s] = struct{}{}
	return s, h.state
}

// Close ends the subscription; C is closed. Closing twice does nothing.
func (s *Subscription) Close() {
	s.hub.mu.Lock()
	defer s.hub.mu.Unlock()
	s.hub.drop(s)
}

func (h *Hub) drop(s *Subscription) {
	if _, ok := h.subs[s]; ok {
		delete(h.subs, s)
		close(s.c)
	}
}

// State returns what the Hub remembers now.
func (h *Hub) State() State {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.state
}

// Publish sends e to every subscriber without waiting, dropping those that
// have no room for it. Built and build_failed events also update State.
func (h *Hub) Publish(e Event) {
	h.mu.Lock()
	defer h.mu.Unlock()
	switch e.Type {
	case event.Built:
		h.state = State{Version: e.Version}
	case event.BuildFailed:
		h.state.BuildMessage = e.Message
	}
	for s := range h.subs {
		select {
		case s.c <- e:
		default:
			h.drop(s)
		}
	}
}

// Subscribers returns how many subscriptions are open.
func (h *Hub) Subscribers() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.subs)
}
