// Package fanout hands events to subscribers without ever waiting for
// one: a subscriber that falls a buffer's worth of events behind is
// dropped (its channel closes) and must catch up another way, as the
// pages do by reloading what they show. It is the one fan-out of the
// server's live views: the single learner's lab (internal/live) and class
// mode's dashboard and learners' pages (internal/class).
package fanout

import "sync"

// Hub fans events of type E out to its subscriptions. It is safe for
// concurrent use.
type Hub[E any] struct {
	mu     sync.Mutex
	buffer int
	subs   map[*Sub[E]]struct{}
}

// New returns a Hub whose subscribers may each fall buffer events behind
// before they are dropped.
func New[E any](buffer int) *Hub[E] {
	return &Hub[E]{buffer: buffer, subs: map[*Sub[E]]struct{}{}}
}

// Sub is a subscription: it receives events on C until Close, or until it
// falls behind; C is then closed. Topic is what the subscriber asked for,
// which the publisher matches events against (see Publish).
type Sub[E any] struct {
	C     <-chan E
	Topic int64
	c     chan E
	hub   *Hub[E]
}

// Subscribe returns a subscription to topic whose channel holds first (at
// most the buffer's worth), then the events published to it after.
func (h *Hub[E]) Subscribe(topic int64, first []E) *Sub[E] {
	h.mu.Lock()
	defer h.mu.Unlock()
	c := make(chan E, h.buffer)
	for _, e := range first[:min(len(first), h.buffer)] {
		c <- e
	}
	s := &Sub[E]{C: c, Topic: topic, c: c, hub: h}
	h.subs[s] = struct{}{}
	return s
}

// Close ends the subscription; C is closed. Closing twice does nothing.
func (s *Sub[E]) Close() {
	s.hub.mu.Lock()
	defer s.hub.mu.Unlock()
	s.hub.drop(s)
}

func (h *Hub[E]) drop(s *Sub[E]) {
	if _, ok := h.subs[s]; ok {
		delete(h.subs, s)
		close(s.c)
	}
}

// Publish sends e to every subscription whose topic to accepts (every
// one if to is nil), dropping those with no room for it.
func (h *Hub[E]) Publish(e E, to func(topic int64) bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for s := range h.subs {
		if to != nil && !to(s.Topic) {
			continue
		}
		select {
		case s.c <- e:
		default:
			h.drop(s)
		}
	}
}

// CloseAll ends every subscription, each after last if it has room for
// it: the subscribers must catch up another way.
func (h *Hub[E]) CloseAll(last E) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for s := range h.subs {
		select {
		case s.c <- last:
		default:
		}
		h.drop(s)
	}
}

// Len returns how many subscriptions are open.
func (h *Hub[E]) Len() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.subs)
}
