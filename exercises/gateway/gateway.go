package gateway

// Kind is the kind of a message a session sends.
type Kind uint8

// The kinds of message. A Kind above Heartbeat is not legal input.
const (
	NewOrder  Kind = iota // takes one token from Orders
	Modify                // takes one token from Orders
	Cancel                // takes one token from Cancels, if it is limited
	Heartbeat             // always accepted on an open session; touches nothing
)

// Budget is a week-1 token bucket: Capacity tokens of burst, refilled at
// RatePerSec tokens per second. A Capacity of 0 means unlimited.
type Budget struct{ Capacity, RatePerSec uint64 }

// Class is the budgets of a class of sessions.
type Class struct {
	Orders  Budget // new orders and modifies share it; must be limited
	Cancels Budget // cancels' own budget: unlimited, or at least Orders' capacity and rate
}

// Config is a gateway's configuration.
type Config struct {
	Classes           map[string]Class // e.g. "market-maker", "regular"
	SilenceAfterNs    uint64           // a flood this old is answered Silent instead of Reject; 0: never
	DisconnectAfterNs uint64           // a flood this old is answered Disconnect; 0: never
}

// Validate returns nil if c is valid, or an error naming every problem by
// its class (for a class's problem) and its field.
func (c Config) Validate() error {
	panic("gateway: Validate is not implemented yet")
}

// Outcome is what the gateway does with a message.
type Outcome uint8

// The outcomes, from the mildest.
const (
	Accept Outcome = iota
	Reject
	Silent
	Disconnect
)

// Verdict is the gateway's answer to one message.
type Verdict struct {
	Outcome      Outcome
	Budget       string // "orders" or "cancels": the budget that refused (Reject, Silent); "" otherwise
	RetryAfterNs uint64 // Reject, Silent: ns from now until that budget holds one token; else 0
}

// Gateway is your gateway. Its fields are yours to choose: what must it
// remember of each session, and of sessions that are closed?
type Gateway struct {
	// Your fields here.
}

// New validates cfg and returns a gateway whose clock is at nowNs, or
// Validate's error.
func New(cfg Config, nowNs uint64) (*Gateway, error) {
	panic("gateway: New is not implemented yet")
}

// Open opens session in class: buckets full at its first Open, the
// buckets it had when it is reopened. An unknown class, or a session
// already open, is an error.
func (g *Gateway) Open(session uint64, class string, nowNs uint64) error {
	panic("gateway: Open is not implemented yet")
}

// Admit decides one message of session.
func (g *Gateway) Admit(session uint64, kind Kind, nowNs uint64) Verdict {
	panic("gateway: Admit is not implemented yet")
}

// Reload switches the gateway to cfg at nowNs, or returns an error and
// changes nothing.
func (g *Gateway) Reload(cfg Config, nowNs uint64) error {
	panic("gateway: Reload is not implemented yet")
}
