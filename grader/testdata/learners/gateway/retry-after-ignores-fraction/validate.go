package gateway

import (
	"errors"
	"fmt"
	"sort"
	"strings"
)

// Validate returns nil if c is valid, or an error naming every problem.
func (c Config) Validate() error {
	var problems []string
	if len(c.Classes) == 0 {
		problems = append(problems, "Classes: at least one class is needed")
	}
	names := make([]string, 0, len(c.Classes))
	for name := range c.Classes {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		cl := c.Classes[name]
		bad := func(field, rule string) {
			problems = append(problems, fmt.Sprintf("class %s: %s %s", name, field, rule))
		}
		if cl.Orders.Capacity < 1 {
			bad("Orders.Capacity", "must be at least 1")
		}
		if cl.Orders.RatePerSec < 1 {
			bad("Orders.RatePerSec", "must be at least 1")
		}
		if cl.Cancels.Capacity == 0 {
			continue
		}
		if cl.Cancels.RatePerSec < 1 {
			bad("Cancels.RatePerSec", "must be at least 1 when Cancels is limited")
		}
		if cl.Cancels.Capacity < cl.Orders.Capacity {
			bad("Cancels.Capacity", "must be at least Orders.Capacity")
		}
		if cl.Cancels.RatePerSec < cl.Orders.RatePerSec {
			bad("Cancels.RatePerSec", "must be at least Orders.RatePerSec")
		}
	}
	if c.SilenceAfterNs > 0 && c.DisconnectAfterNs > 0 && c.SilenceAfterNs >= c.DisconnectAfterNs {
		problems = append(problems, "SilenceAfterNs must be less than DisconnectAfterNs")
	}
	if len(problems) == 0 {
		return nil
	}
	return errors.New("gateway: invalid config: " + strings.Join(problems, "; "))
}
