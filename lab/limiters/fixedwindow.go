package limiters

// FixedWindow admits at most limit messages per calendar window: window k
// covers the times [k·W, (k+1)·W), and its counter starts again from zero at
// each boundary. Two windows' worth of messages can therefore pass within
// a nanosecond of a boundary, which is the flaw the lab sets out to show.
//
// A time earlier than one already seen counts as being in the latest window
// seen. The zero value is not usable; call NewFixedWindow.
type FixedWindow struct {
	limit    uint32
	windowNs uint64
	window   uint64 // index of the latest window seen
	count    uint32 // accepted in that window
}

// NewFixedWindow returns a fixed window of windowNs nanoseconds admitting
// limit messages per window. It panics if windowNs is 0.
func NewFixedWindow(limit uint32, windowNs uint64) *FixedWindow {
	if windowNs == 0 {
		panic("limiters: NewFixedWindow: windowNs must be at least 1")
	}
	return &FixedWindow{limit: limit, windowNs: windowNs}
}

// TryAcquire counts one message at nowNs if its window has room and reports
// whether it did.
func (f *FixedWindow) TryAcquire(nowNs uint64) bool {
	if w := nowNs / f.windowNs; w > f.window {
		f.window, f.count = w, 0
	}
	if f.count >= f.limit {
		return false
	}
	f.count++
	return true
}

// Count returns the number of messages accepted in the window that holds
// nowNs (or in the latest window seen, if that is later). It changes nothing.
func (f *FixedWindow) Count(nowNs uint64) uint32 {
	if nowNs/f.windowNs > f.window {
		return 0
	}
	return f.count
}
