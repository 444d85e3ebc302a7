package server

import (
	"context"
	"time"

	"github.com/coder/websocket"
)

// pingEvery is how often a live websocket pings its client: proxies keep
// a quiet connection open, and a client gone without a word is noticed.
const pingEvery = 25 * time.Second

// pump writes each event of events to conn with write, pinging the client
// every pingEvery meanwhile. It returns when the client goes away (ctx), a
// write or a ping fails, or last (nil: never) says an event just written
// was the last, and then reports true. If events closes, its subscriber
// fell behind: pump writes resync and closes the connection, telling the
// page to reload.
func pump[E any](ctx context.Context, conn *websocket.Conn, events <-chan E, write func(E) error, resync E, last func(E) bool) bool {
	ping := time.NewTicker(pingEvery)
	defer ping.Stop()
	for {
		select {
		case <-ctx.Done():
			return false
		case <-ping.C:
			if err := conn.Ping(ctx); err != nil {
				return false
			}
		case e, ok := <-events:
			if !ok {
				write(resync)
				conn.Close(websocket.StatusTryAgainLater, "fell behind: reload")
				return false
			}
			if err := write(e); err != nil {
				return false
			}
			if last != nil && last(e) {
				return true
			}
		}
	}
}
