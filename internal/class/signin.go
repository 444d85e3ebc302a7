package class

import (
	"context"
	"strings"
	"time"
)

// SignIn guards the class's sign-in form against guessing and against
// crowding out the rest of the server: a budget per account name and one
// per client address, both the course's own token bucket (KeyedThrottle, as
// the submission throttle), and a bound on the password checks (bcrypt,
// deliberately slow) running at once. It is safe for concurrent use.
type SignIn struct {
	Account *KeyedThrottle[string] // per name typed at the form, existing or not
	Address *KeyedThrottle[string] // per client address
	checks  chan struct{}
}

// SignInConfig sets a SignIn's budgets. Zero fields take the defaults.
type SignInConfig struct {
	// AccountBurst attempts on one name at once, then one every
	// AccountEvery. 0 means 5 and 20s: guessing a password at 3 a minute.
	AccountBurst uint64
	AccountEvery time.Duration
	// AddressBurst attempts from one address at once, then one every
	// AddressEvery. 0 means 60 and 1s: a classroom behind one NAT still
	// signs in together.
	AddressBurst uint64
	AddressEvery time.Duration
	// MaxChecks is how many password checks run at once; 0 means 2.
	// Others wait for a free slot.
	MaxChecks int
}

// Budget names a refused sign-in's budget in SignIn.Allow's answer.
type Budget string

// The budgets of a sign-in.
const (
	AccountBudget Budget = "account"
	AddressBudget Budget = "address"
)

// NewSignIn returns a sign-in guard started at now.
func NewSignIn(cfg SignInConfig, now time.Time) *SignIn {
	if cfg.AccountBurst == 0 {
		cfg.AccountBurst = 5
	}
	if cfg.AccountEvery <= 0 {
		cfg.AccountEvery = 20 * time.Second
	}
	if cfg.AddressBurst == 0 {
		cfg.AddressBurst = 60
	}
	if cfg.AddressEvery <= 0 {
		cfg.AddressEvery = time.Second
	}
	if cfg.MaxChecks <= 0 {
		cfg.MaxChecks = 2
	}
	return &SignIn{
		Account: NewKeyedThrottle[string](cfg.AccountBurst, cfg.AccountEvery, now),
		Address: NewKeyedThrottle[string](cfg.AddressBurst, cfg.AddressEvery, now),
		checks:  make(chan struct{}, cfg.MaxChecks),
	}
}

// maxAccountKey bounds the bytes of a name kept as a key: a stranger
// chooses it.
const maxAccountKey = 64

// Allow takes a token of the address's budget and, if account is not ""
// (an instructor's sign-in; a learner's token names nobody before it is
// looked up), one of the account's. When it refuses, retry is how long
// until that budget has a token again and budget says which it was.
// Names are compared without case or surrounding space.
func (s *SignIn) Allow(account, address string, now time.Time) (ok bool, retry time.Duration, budget Budget) {
	if ok, retry := s.Address.Allow(address, now); !ok {
		return false, retry, AddressBudget
	}
	if account == "" {
		return true, 0, ""
	}
	key := strings.ToLower(strings.TrimSpace(account))
	if len(key) > maxAccountKey {
		key = key[:maxAccountKey]
	}
	if ok, retry := s.Account.Allow(key, now); !ok {
		return false, retry, AccountBudget
	}
	return true, 0, ""
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
