package quota

import (
	"context"
	"strings"
	"time"
)

// SignIn guards the class's sign-in form against guessing, without letting
// a guesser turn it against the people it guards, and against crowding out
// the rest of the server. Its budgets are the course's own token bucket
// (Keyed, as the submission throttle is):
//
//   - A password sign-in from a browser that signed in as that name before
//     (a trusted device: it holds the server's signed device cookie for the
//     name, OWASP's "device cookies") spends that device's budget alone.
//     Failures from anywhere else never touch it, so an instructor signs in
//     from their own browser while someone guesses at their name.
//   - A password sign-in from an unknown device spends the address's
//     budget, the (name, address) pair's, and the name's, which is slower:
//     it bounds a guessing spread over many addresses.
//   - A learner's token is 256 random bits: guessing one is hopeless, so a
//     token is always looked up, a valid one signs in, and only a token that
//     matches nobody spends the address's budget, loosely (a class behind
//     one campus NAT is one address).
//
// A bound on the password checks (bcrypt, deliberately slow) running at
// once keeps a crowd of sign-ins from taking the CPU. It is safe for
// concurrent use.
type SignIn struct {
	Device  *Keyed[string] // per trusted device, for its name
	Pair    *Keyed[string] // per (name, address), unknown devices
	Account *Keyed[string] // per name typed at the form, unknown devices
	Address *Keyed[string] // per client address: unknown devices' passwords, tokens that match nobody
	checks  chan struct{}
}

// SignInConfig sets a SignIn's budgets. Zero fields take the defaults.
type SignInConfig struct {
	// PairBurst attempts on one name from one address on an unknown
	// device, then one every PairEvery. 0 means 5 and 20s: guessing a
	// password at 3 a minute.
	PairBurst uint64
	PairEvery time.Duration
	// AccountBurst attempts on one name from all unknown devices at once,
	// then one every AccountEvery. 0 means 10 and 1m.
	AccountBurst uint64
	AccountEvery time.Duration
	// DeviceBurst attempts from one trusted device, then one every
	// DeviceEvery. 0 means 5 and 20s.
	DeviceBurst uint64
	DeviceEvery time.Duration
	// AddressBurst attempts from one address at once, then one every
	// AddressEvery. 0 means 60 and 1s: a classroom behind one NAT still
	// signs in together.
	AddressBurst uint64
	AddressEvery time.Duration
	// MaxChecks is how many password checks run at once; 0 means 2.
	// Others wait for a free slot.
	MaxChecks int
}

// Budget names a refused sign-in's budget in SignIn's answers.
type Budget string

// The budgets of a sign-in.
const (
	AccountBudget Budget = "account" // the name's, or the name's from this address
	AddressBudget Budget = "address"
	DeviceBudget  Budget = "device"
)

// NewSignIn returns a sign-in guard started at now.
func NewSignIn(cfg SignInConfig, now time.Time) *SignIn {
	or := func(n *uint64, d *time.Duration, burst uint64, every time.Duration) {
		if *n == 0 {
			*n = burst
		}
		if *d <= 0 {
			*d = every
		}
	}
	or(&cfg.PairBurst, &cfg.PairEvery, 5, 20*time.Second)
	or(&cfg.AccountBurst, &cfg.AccountEvery, 10, time.Minute)
	or(&cfg.DeviceBurst, &cfg.DeviceEvery, 5, 20*time.Second)
	or(&cfg.AddressBurst, &cfg.AddressEvery, 60, time.Second)
	if cfg.MaxChecks <= 0 {
		cfg.MaxChecks = 2
	}
	return &SignIn{
		Device:  NewKeyed[string](cfg.DeviceBurst, cfg.DeviceEvery, now),
		Pair:    NewKeyed[string](cfg.PairBurst, cfg.PairEvery, now),
		Account: NewKeyed[string](cfg.AccountBurst, cfg.AccountEvery, now),
		Address: NewKeyed[string](cfg.AddressBurst, cfg.AddressEvery, now),
		checks:  make(chan struct{}, cfg.MaxChecks),
	}
}

// maxAccountKey bounds the bytes of a name kept as a key: a stranger
// chooses it.
const maxAccountKey = 64

// AccountKey is how a name typed at the form is compared: without case or
// surrounding space, at most maxAccountKey bytes.
func AccountKey(name string) string {
	key := strings.ToLower(strings.TrimSpace(name))
	if len(key) > maxAccountKey {
		key = key[:maxAccountKey]
	}
	return key
}

// AllowPassword takes the budgets of a password sign-in as name from
// address: device's alone if it is not "" (the id of a trusted device of
// that name, checked by the caller), else the address's, the pair's and
// the name's. When it refuses, retry is how long until that budget has a
// token again and budget says which it was.
func (s *SignIn) AllowPassword(name, address, device string, now time.Time) (ok bool, retry time.Duration, budget Budget) {
	if device != "" {
		if ok, retry := s.Device.Allow(device, now); !ok {
			return false, retry, DeviceBudget
		}
		return true, 0, ""
	}
	if ok, retry := s.Address.Allow(address, now); !ok {
		return false, retry, AddressBudget
	}
	key := AccountKey(name)
	if ok, retry := s.Pair.Allow(key+"\x00"+address, now); !ok {
		return false, retry, AccountBudget
	}
	if ok, retry := s.Account.Allow(key, now); !ok {
		return false, retry, AccountBudget
	}
	return true, 0, ""
}

// TokenFailed spends the address's budget for a learner's token that
// matched nobody; false, and how long until it has a token again, when the
// address is over it.
func (s *SignIn) TokenFailed(address string, now time.Time) (ok bool, retry time.Duration) {
	return s.Address.Allow(address, now)
}

// Check runs check (a password comparison) once fewer than MaxChecks run,
// and returns ctx's error instead if ctx ends first.
func (s *SignIn) Check(ctx context.Context, check func()) error {
	select {
	case s.checks <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-s.checks }()
	check()
	return nil
}
