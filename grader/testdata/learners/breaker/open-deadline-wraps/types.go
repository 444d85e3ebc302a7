package breaker

import "fmt"

// State is the state of a breaker.
type State uint8

// The states.
const (
	Closed State = iota
	Open
	HalfOpen
)

// Config is a breaker's configuration.
type Config struct {
	FailureThreshold uint32
	OpenNs           uint64
	HalfOpenProbes   uint32
}

func (c Config) check() error {
	for _, f := range []struct {
		name string
		v    uint64
	}{{"FailureThreshold", uint64(c.FailureThreshold)}, {"OpenNs", c.OpenNs}, {"HalfOpenProbes", uint64(c.HalfOpenProbes)}} {
		if f.v == 0 {
			return fmt.Errorf("breaker: %s must be at least 1, got 0", f.name)
		}
	}
	return nil
}
