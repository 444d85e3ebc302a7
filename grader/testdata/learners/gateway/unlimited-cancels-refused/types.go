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
	Budget       string
	RetryAfterNs uint64
}
