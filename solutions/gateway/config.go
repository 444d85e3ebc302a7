package gateway

import (
	"errors"
	"slices"
	"strconv"
)

// Budget is a week-1 token bucket: Capacity tokens of burst, refilled at
// RatePerSec tokens per second. A Capacity of 0 means unlimited.
type Budget struct{ Capacity, RatePerSec uint64 }

// unlimited reports whether b limits nothing.
func (b Budget) unlimited() bool { return b.Capacity == 0 }

// Class is the budgets of a class of sessions (e.g. market makers).
type Class struct {
	Orders  Budget // new orders and modifies share it; must be limited
	Cancels Budget // cancels' own budget: unlimited, or at least Orders' capacity and rate
}

// Config is a gateway's configuration.
type Config struct {
	Classes           map[string]Class // by name, e.g. "market-maker", "regular"
	SilenceAfterNs    uint64           // a flood this old is answered Silent instead of Reject; 0: never
	DisconnectAfterNs uint64           // a flood this old is answered Disconnect; 0: never
}

// Validate returns nil if c is a valid configuration, or an error naming
// every problem, each by its class (if it is a class's) and its field.
func (c Config) Validate() error {
	var errs []error
	if len(c.Classes) == 0 {
		errs = append(errs, errors.New("Classes: at least one class is needed"))
	}
	names := make([]string, 0, len(c.Classes))
	for name := range c.Classes {
		names = append(names, name)
	}
	slices.Sort(names) // the same config, the same error
	for _, name := range names {
		k := c.Classes[name]
		bad := func(field, why string) {
			errs = append(errs, errors.New("class "+strconv.Quote(name)+": "+field+": "+why))
		}
		if k.Orders.Capacity == 0 {
			bad("Orders.Capacity", "0, but orders must be limited (at least 1)")
		}
		if k.Orders.RatePerSec == 0 {
			bad("Orders.RatePerSec", "0, want at least 1")
		}
		if k.Cancels.unlimited() {
			continue
		}
		if k.Cancels.RatePerSec == 0 {
			bad("Cancels.RatePerSec", "0 for a limited cancel budget, want at least 1")
		}
		if k.Cancels.Capacity < k.Orders.Capacity {
			bad("Cancels.Capacity", u(k.Cancels.Capacity)+" is below Orders.Capacity "+u(k.Orders.Capacity)+" (0 means unlimited)")
		}
		if k.Cancels.RatePerSec < k.Orders.RatePerSec {
			bad("Cancels.RatePerSec", u(k.Cancels.RatePerSec)+" is below Orders.RatePerSec "+u(k.Orders.RatePerSec))
		}
	}
	if c.SilenceAfterNs > 0 && c.DisconnectAfterNs > 0 && c.SilenceAfterNs >= c.DisconnectAfterNs {
		errs = append(errs, errors.New("SilenceAfterNs "+u(c.SilenceAfterNs)+" must be below DisconnectAfterNs "+u(c.DisconnectAfterNs)))
	}
	return errors.Join(errs...)
}

// u formats a number of a message. The package formats with strconv, not
// fmt: the lab's WebAssembly builds link it (see ratelab/wasm).
func u(n uint64) string { return strconv.FormatUint(n, 10) }
