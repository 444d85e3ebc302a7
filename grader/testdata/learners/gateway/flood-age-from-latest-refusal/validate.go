package gateway

import (
	"errors"
	"fmt"
)

// Validate returns nil if c is valid, or an error naming every problem.
func (c Config) Validate() error {
	var errs []error
	if len(c.Classes) == 0 {
		errs = append(errs, errors.New("Classes is empty: configure at least one class"))
	}
	for name, cl := range c.Classes {
		o, k := cl.Orders, cl.Cancels
		if o.Capacity == 0 {
			errs = append(errs, fmt.Errorf("%s: Orders.Capacity is 0, need at least 1", name))
		}
		if o.RatePerSec == 0 {
			errs = append(errs, fmt.Errorf("%s: Orders.RatePerSec is 0, need at least 1", name))
		}
		if k.Capacity != 0 && k.RatePerSec == 0 {
			errs = append(errs, fmt.Errorf("%s: Cancels.RatePerSec is 0 on a limited Cancels budget", name))
		}
		if k.Capacity != 0 && k.Capacity < o.Capacity {
			errs = append(errs, fmt.Errorf("%s: Cancels.Capacity %d is below Orders.Capacity %d", name, k.Capacity, o.Capacity))
		}
		if k.Capacity != 0 && k.RatePerSec != 0 && k.RatePerSec < o.RatePerSec {
			errs = append(errs, fmt.Errorf("%s: Cancels.RatePerSec %d is below Orders.RatePerSec %d", name, k.RatePerSec, o.RatePerSec))
		}
	}
	if c.SilenceAfterNs != 0 && c.DisconnectAfterNs != 0 && !(c.SilenceAfterNs < c.DisconnectAfterNs) {
		errs = append(errs, fmt.Errorf("SilenceAfterNs %d must be below DisconnectAfterNs %d", c.SilenceAfterNs, c.DisconnectAfterNs))
	}
	return errors.Join(errs...)
}
