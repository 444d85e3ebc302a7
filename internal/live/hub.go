package live

import (
	"sync"

	"ratelab/internal/event"
	"ratelab/internal/fanout"
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

// Hub fans events out to subscribers (package fanout). Publish never
// waits: a subscriber whose buffer is full is dropped. A Hub is safe for
// concurrent use; the zero value is ready.
type Hub struct {
	mu    sync.Mutex // held around State and the fan-out together
	state State
	subs  *fanout.Hub[Event]
}

// Subscription receives the Hub's events on C until Close, or until it
// falls Buffer events behind: C is then closed.
type Subscription = fanout.Sub[Event]

// fan returns the fan-out, made at first use; h.mu is held.
func (h *Hub) fan() *fanout.Hub[Event] {
	if h.subs == nil {
		h.subs = fanout.New[Event](Buffer)
	}
	return h.subs
}

// Subscribe returns a new subscription and the state as of its start: every
// event after that state arrives on the subscription's C.
func (h *Hub) Subscribe() (*Subscription, State) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.fan().Subscribe(0, nil), h.state
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
	h.fan().Publish(e, nil)
}

// Subscribers returns how many subscriptions are open.
func (h *Hub) Subscribers() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.fan().Len()
}
