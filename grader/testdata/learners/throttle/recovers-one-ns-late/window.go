package throttle

// timeLog is the times of accepted writes, oldest first. It reuses its
// array: entries that left the window are dropped from the front.
type timeLog struct {
	t    []uint64
	head int
}

// trim drops the entries outside (now-window, now].
func (l *timeLog) trim(now, window uint64) {
	if now < window {
		return // nothing is old enough to have left
	}
	cut := now - window
	for l.head < len(l.t) && l.t[l.head] <= cut {
		l.head++
	}
	if l.head == len(l.t) {
		l.t, l.head = l.t[:0], 0
	}
}

func (l *timeLog) count() int { return len(l.t) - l.head }

func (l *timeLog) add(now uint64) {
	if len(l.t) == cap(l.t) && l.head > 0 {
		n := copy(l.t, l.t[l.head:])
		l.t, l.head = l.t[:n], 0
	}
	l.t = append(l.t, now)
}

func (l *timeLog) reset() { l.t, l.head = l.t[:0], 0 }
