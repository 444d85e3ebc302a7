package check

// ConfigAt is the setup of an exercise whose New takes a config and the
// time it starts at: New(cfg, nowNs).
type ConfigAt[C any] struct {
	Cfg   C
	Start uint64
}

// Draft is a script being drawn call by call: its calls so far, and the
// latest time they reached.
type Draft[S any, O Timed] struct {
	Script[S, O]
	Latest uint64
}

// NewDraft starts a draft of a script of setup whose time starts at
// start.
func NewDraft[S any, O Timed](setup S, start uint64) *Draft[S, O] {
	return &Draft[S, O]{Script: Script[S, O]{Setup: setup}, Latest: start}
}

// Add appends o and returns its time (see Times): Latest moves up to it.
func (d *Draft[S, O]) Add(o O) (now uint64) {
	now = o.At(d.Latest)
	d.Latest = max(d.Latest, now)
	d.Ops = append(d.Ops, o)
	return now
}
