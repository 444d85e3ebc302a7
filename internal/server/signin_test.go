package server_test

import (
	"io"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"ratelab/internal/quota"
	"ratelab/internal/server"
)

func TestSignInThrottledPerAccount(t *testing.T) {
	f := newClassWith(t, fixtureOptions{class: server.Class{SignIn: quota.SignInConfig{AccountBurst: 2, AccountEvery: time.Minute}}})
	wrong := url.Values{"name": {"prof"}, "password": {"not the password"}}
	for i := range 2 {
		if r := f.browser(t).signIn(wrong); r.code != http.StatusUnauthorized {
			t.Fatalf("wrong password %d = %d; want 401", i+1, r.code)
		}
	}
	// The third attempt on prof is refused before the password is looked
	// at, the right one too, and says when to come back.
	for _, pw := range []string{"not the password", profPassword} {
		r := f.browser(t).signIn(url.Values{"name": {"prof"}, "password": {pw}})
		if r.code != http.StatusTooManyRequests || r.header.Get("Retry-After") != "60" ||
			!strings.Contains(r.body, "Too many sign-in attempts for this name: try again in 60s, at 09:01:00 UTC") {
			t.Errorf("a third sign-in as prof = %d, Retry-After %q; want 429, 60, saying when:\n%s", r.code, r.header.Get("Retry-After"), r.body)
		}
	}
	// Any case or spacing of the name is the same account.
	if r := f.browser(t).signIn(url.Values{"name": {" PROF"}, "password": {"x"}}); r.code != http.StatusTooManyRequests {
		t.Errorf("sign-in as %q after prof's budget is spent = %d; want 429", " PROF", r.code)
	}
	// Another account, and learners, are not held back by prof's.
	if r := f.browser(t).signIn(url.Values{"token": {adaToken}}); r.code != http.StatusSeeOther {
		t.Errorf("ada signing in = %d; want 303", r.code)
	}
}

// Tokens that match nobody spend the address's budget: past it, a guess
// gets 429 (in JSON for a program). A valid token still signs in: a class
// behind one campus NAT is one address, and one learner's typos (or a
// guesser's 256-bit hopes) must not lock the others out. Before, 65 wrong
// tokens, then about 4 a second, from one address kept a learner with a
// valid token at 429.
func TestSignInThrottledPerAddress(t *testing.T) {
	f := newClassWith(t, fixtureOptions{class: server.Class{SignIn: quota.SignInConfig{AddressBurst: 3, AddressEvery: 10 * time.Second}}})
	for i, form := range []url.Values{{"token": {"rl_guess1"}}, {"token": {"rl_guess2"}}, {"name": {"x"}, "password": {"y"}}} {
		if r := f.browser(t).signIn(form); r.code != http.StatusUnauthorized {
			t.Fatalf("attempt %d = %d; want 401", i+1, r.code)
		}
	}
	r := f.browser(t).signIn(url.Values{"token": {"rl_guess3"}})
	if r.code != http.StatusTooManyRequests || r.header.Get("Retry-After") != "10" || !strings.Contains(r.body, "Too many sign-in attempts from your network") {
		t.Errorf("a fourth wrong token from one address = %d, Retry-After %q; want 429, 10:\n%s", r.code, r.header.Get("Retry-After"), r.body)
	}
	// Programs get the refusal in JSON.
	b := f.browser(t)
	form := url.Values{"token": {"rl_guess4"}, "_csrf": {b.csrf()}}
	req, _ := http.NewRequest(http.MethodPost, f.url+"/class/login", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	if r := b.do(req); r.code != http.StatusTooManyRequests || !strings.Contains(r.body, `"error":"Too many sign-in attempts`) {
		t.Errorf("the same as a program = %d %s; want 429 in JSON", r.code, r.body)
	}
	// The guessing goes on; ada, behind the same address, signs in every time.
	for i := range 10 {
		f.browser(t).signIn(url.Values{"token": {"rl_guess" + strconv.Itoa(10+i)}})
		if r := f.browser(t).signIn(url.Values{"token": {adaToken}}); r.code != http.StatusSeeOther {
			t.Fatalf("ada's valid token while the address is over its budget, try %d = %d; want 303", i+1, r.code)
		}
	}
}

// Someone who guesses at the instructor's name, without signing in, spends
// the name's budgets for unknown devices, from one address or many; the
// instructor's own browser, which signed in as that name before, signs in
// on a budget of its own all the while. Before, 6 wrong passwords, then
// one every 19 s, kept the right password at 429 for as long as it ran.
func TestSignInInstructorSignsInDuringAnAttack(t *testing.T) {
	f := newClassWith(t, fixtureOptions{class: server.Class{SignIn: quota.SignInConfig{
		PairBurst: 2, PairEvery: time.Minute, AccountBurst: 3, AccountEvery: time.Hour, AddressBurst: 100, AddressEvery: time.Second}}})
	prof := f.browser(t)
	if r := prof.signIn(url.Values{"name": {"prof"}, "password": {profPassword}}); r.code != http.StatusSeeOther {
		t.Fatalf("prof's first sign-in = %d; want 303", r.code)
	}
	attacker := f.browser(t)
	refused := 0
	for range 6 {
		r := attacker.signIn(url.Values{"name": {"prof"}, "password": {"guess"}})
		if r.code == http.StatusTooManyRequests {
			refused++
		}
	}
	if refused == 0 {
		t.Fatal("six guesses at prof's password: none refused; the test would prove nothing")
	}
	// A new browser (an unknown device) is held back with the guesser…
	if r := f.browser(t).signIn(url.Values{"name": {"prof"}, "password": {profPassword}}); r.code != http.StatusTooManyRequests || !strings.Contains(r.body, "for this name") {
		t.Errorf("prof from a new browser during the attack = %d; want 429 for this name:\n%s", r.code, r.body)
	}
	// …and prof's own browser is not.
	for i := range 3 {
		attacker.signIn(url.Values{"name": {"prof"}, "password": {"guess"}})
		if r := prof.signIn(url.Values{"name": {"prof"}, "password": {profPassword}}); r.code != http.StatusSeeOther {
			t.Fatalf("prof from the browser prof signed in with, during the attack, try %d = %d; want 303:\n%s", i+1, r.code, r.body)
		}
	}
	// The device cookie is the name's: it does not carry another name's
	// sign-ins past their budgets, and a forged one is an unknown device.
	for _, v := range []string{"x.y", ""} {
		b := f.browser(t)
		u, _ := url.Parse(f.url + "/class/login")
		b.c.Jar.SetCookies(u, []*http.Cookie{{Name: "ratelab_device", Value: v, Path: "/class/login"}})
		if r := b.signIn(url.Values{"name": {"prof"}, "password": {profPassword}}); r.code != http.StatusTooManyRequests {
			t.Errorf("prof from a browser with device cookie %q = %d; want 429", v, r.code)
		}
	}
}

// countingComparer records the hashes passwords were compared with.
type countingComparer struct {
	mu     sync.Mutex
	hashes []string
}

func (c *countingComparer) compare(hash, password []byte) error {
	c.mu.Lock()
	c.hashes = append(c.hashes, string(hash))
	c.mu.Unlock()
	return bcrypt.CompareHashAndPassword(hash, password)
}

func TestSignInComparesForUnknownNames(t *testing.T) {
	var cmp countingComparer
	f := newClassWith(t, fixtureOptions{class: server.Class{ComparePassword: cmp.compare}})
	names := []string{"prof", "nobody", "ada"} // an instructor, no one, a learner
	for _, name := range names {
		if r := f.browser(t).signIn(url.Values{"name": {name}, "password": {"wrong password"}}); r.code != http.StatusUnauthorized {
			t.Fatalf("%s with a wrong password = %d; want 401", name, r.code)
		}
	}
	if len(cmp.hashes) != len(names) {
		t.Fatalf("passwords compared %d times for %q; want once each, whether or not the name is an instructor's", len(cmp.hashes), names)
	}
	dummy := cmp.hashes[1]
	if cost, err := bcrypt.Cost([]byte(dummy)); err != nil || cost != bcrypt.DefaultCost {
		t.Errorf("an unknown name's password was compared with %q (cost %d, %v); want a bcrypt hash of cost %d", dummy, cost, err, bcrypt.DefaultCost)
	}
	if dummy == cmp.hashes[0] || cmp.hashes[2] != dummy {
		t.Errorf("hashes compared: %q; want prof's, then the same dummy for nobody and for ada", cmp.hashes)
	}
}

func TestSignInChecksAtOnce(t *testing.T) {
	var running, most, entered atomic.Int32
	release := make(chan struct{})
	blocking := func(hash, password []byte) error {
		entered.Add(1)
		n := running.Add(1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		<-release
		running.Add(-1)
		return bcrypt.ErrMismatchedHashAndPassword
	}
	f := newClassWith(t, fixtureOptions{class: server.Class{ComparePassword: blocking, SignIn: quota.SignInConfig{MaxChecks: 2}}})
	const n = 3
	forms := make([]*browser, n)
	tokens := make([]string, n)
	for i := range forms {
		forms[i] = f.browser(t)
		tokens[i] = forms[i].csrf()
	}
	codes := make(chan int, n)
	for i := range n {
		go func() {
			form := url.Values{"name": {"prof"}, "password": {"x"}, "_csrf": {tokens[i]}}
			req, _ := http.NewRequest(http.MethodPost, f.url+"/class/login", strings.NewReader(form.Encode()))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			res, err := forms[i].c.Do(req)
			if err != nil {
				codes <- 0
				return
			}
			res.Body.Close()
			codes <- res.StatusCode
		}()
	}
	deadline := time.Now().Add(10 * time.Second)
	for entered.Load() < 2 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	// Two checks hold both places: a page is still served meanwhile, and
	// the third sign-in waits.
	if r := f.browser(t).get("/"); r.code != http.StatusOK {
		t.Errorf("GET / while sign-ins are checked = %d; want 200", r.code)
	}
	if e := entered.Load(); e != 2 {
		t.Errorf("%d password checks started with 2 places; want 2", e)
	}
	close(release)
	for range n {
		if code := <-codes; code != http.StatusUnauthorized {
			t.Errorf("a sign-in = %d; want 401", code)
		}
	}
	if m := most.Load(); m != 2 {
		t.Errorf("at most %d password checks ran at once; want 2", m)
	}
}

func TestSignInWaitIsBounded(t *testing.T) {
	release := make(chan struct{})
	var entered atomic.Int32
	blocking := func(hash, password []byte) error {
		entered.Add(1)
		<-release
		return bcrypt.ErrMismatchedHashAndPassword
	}
	f := newClassWith(t, fixtureOptions{class: server.Class{ComparePassword: blocking, SignInWait: 50 * time.Millisecond,
		SignIn: quota.SignInConfig{MaxChecks: 1}}})
	first := f.browser(t)
	tok := first.csrf()
	done := make(chan struct{})
	go func() {
		defer close(done)
		form := url.Values{"name": {"prof"}, "password": {"x"}, "_csrf": {tok}}
		res, err := first.c.PostForm(f.url+"/class/login", form)
		if err == nil {
			res.Body.Close()
		}
	}()
	deadline := time.Now().Add(10 * time.Second)
	for entered.Load() < 1 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	r := f.browser(t).signIn(url.Values{"name": {"prof"}, "password": {"y"}})
	if r.code != http.StatusServiceUnavailable || r.header.Get("Retry-After") == "" || !strings.Contains(r.body, "Too many people are signing in") {
		t.Errorf("a sign-in while the only check is busy = %d, Retry-After %q; want 503 with Retry-After:\n%s", r.code, r.header.Get("Retry-After"), r.body)
	}
	close(release)
	<-done
}

// Behind a trusted proxy (--trusted-proxy), a client is the address the
// proxy names last in X-Forwarded-For: each has its own sign-in budget,
// and the proxy's connections are not bound by one address's cap. From
// anyone else the header is the client's own words, and ignored.
func TestSignInBehindATrustedProxy(t *testing.T) {
	signIns := quota.SignInConfig{AddressBurst: 2, AddressEvery: time.Minute}
	guess := func(f *classFixture, xff string) int {
		b := f.browser(t)
		form := url.Values{"token": {"rl_guess"}, "_csrf": {b.csrf()}}
		req, _ := http.NewRequest(http.MethodPost, f.url+"/class/login", strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("X-Forwarded-For", xff)
		return b.do(req).code
	}
	trusted := newClassWith(t, fixtureOptions{class: server.Class{SignIn: signIns},
		limits: &server.Limits{MaxConns: 4, TrustedProxies: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}}})
	for i, want := range []int{401, 401, 429} {
		if got := guess(trusted, "203.0.113.9, 10.0.0.1"); got != want {
			t.Errorf("guess %d from 10.0.0.1 through the proxy = %d; want %d", i+1, got, want)
		}
	}
	if got := guess(trusted, "203.0.113.9, 10.0.0.2"); got != http.StatusUnauthorized {
		t.Errorf("a guess from 10.0.0.2 through the proxy = %d; want 401 (a budget of its own)", got)
	}
	// The proxy holds more connections than one address may (a quarter of 4).
	for range 3 {
		conn := trusted.rawConn(t)
		conn.SetReadDeadline(time.Now().Add(200 * time.Millisecond))
		if b, err := io.ReadAll(conn); len(b) > 0 || err == nil {
			t.Fatalf("a trusted proxy's connection read %q, %v; want it held open", b, err)
		}
	}

	direct := newClassWith(t, fixtureOptions{class: server.Class{SignIn: signIns}})
	for i, xff := range []string{"10.0.0.1", "10.0.0.2", "10.0.0.3"} {
		want := http.StatusUnauthorized
		if i == 2 {
			want = http.StatusTooManyRequests
		}
		if got := guess(direct, xff); got != want {
			t.Errorf("guess %d with X-Forwarded-For %s, no proxy trusted = %d; want %d (one address)", i+1, xff, got, want)
		}
	}
}
