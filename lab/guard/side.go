package guard

// Side is one side of a run that may call learner code: its name, and
// whether and why that code stopped it. A simulation's side embeds it, so
// Name, Stopped and Status read as the side's own fields and every
// simulation words a stop the same way. The zero value is a running side
// without a name. A Side is not safe for concurrent use.
type Side struct {
	Name    string
	Stopped bool
	Status  string // why the side stopped, once Stopped
}

// ImplStatus is the side's name, and why it stopped if it did
// ("Yours: not implemented yet").
func (s *Side) ImplStatus() string {
	if s.Stopped {
		return s.Name + ": " + s.Status
	}
	return s.Name
}

// Stop stops the side with status. A later Stop replaces the status.
func (s *Side) Stop(status string) { s.Stopped, s.Status = true, status }

// Guard calls f. If f panics, Guard stops the side with the Status of the
// panic's value and returns normally; the side's state is then whatever f
// left it in.
func (s *Side) Guard(f func()) {
	defer func() {
		if v := recover(); v != nil {
			s.Stop(Status(v))
		}
	}()
	f()
}
