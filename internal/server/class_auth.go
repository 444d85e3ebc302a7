package server

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"net/netip"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"golang.org/x/crypto/bcrypt"

	"ratelab/internal/quota"
	"ratelab/internal/store"
	"ratelab/web/page"
)

// Sign-in and CSRF: who is asking (a bearer token or the session cookie),
// what they may open, and the forms' protection against other sites.

const (
	sessionCookie = "ratelab_session"
	userKey       = "class.user"
	csrfKey       = "csrf" // where csrf (class_csrf.go) puts the page's token
)

// anyone lets any signed-in user through require; the handler checks
// ownership.
const anyone store.Role = ""

func csrfToken(c echo.Context) string {
	s, _ := c.Get(csrfKey).(string)
	return s
}

// authenticate finds the user from a bearer token (learners' command line)
// or the session cookie, if any. A request from nobody is answered with
// Connection: close: a stranger cannot keep connections alive under /class
// (holding them with a request every 20 s once kept every place taken),
// while a signed-in user's stay open for the next request, up to the
// user's own cap (Limits.MaxConnsPerUser; beyond, 429 and closed), so that
// one account cannot hold the places of everyone behind its address.
func (h *classHandlers) authenticate(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		ctx := c.Request().Context()
		if t := bearer(c); t != "" {
			u, err := h.accounts.LearnerByToken(ctx, store.Hash(t))
			if errors.Is(err, store.ErrNotFound) {
				return echo.NewHTTPError(http.StatusUnauthorized, "This token is not on the class roster: check it with your instructor.")
			}
			if err != nil {
				return err
			}
			c.Set(userKey, u)
		} else if id := h.readCookie(c.Request(), sessionCookie); id != "" {
			u, err := h.accounts.SessionUser(ctx, store.Hash(id), h.clock.Now())
			switch {
			case err == nil:
				c.Set(userKey, u)
			case !errors.Is(err, store.ErrNotFound):
				return err
			}
		}
		u, ok := currentUser(c)
		if !ok {
			c.Response().Header().Set("Connection", "close")
		} else if !claimConn(ctx, u.ID) {
			c.Response().Header().Set("Connection", "close")
			c.Response().Header().Set("Retry-After", "1")
			return echo.NewHTTPError(http.StatusTooManyRequests, "You hold too many connections to the class at once (other tabs, browsers or programs): close some, then try again in a second.")
		}
		return next(c)
	}
}

// signedInToPost refuses a POST or PUT from nobody, except signing in and
// out, before anything reads its body: a stranger's upload is not parsed.
func (h *classHandlers) signedInToPost(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		switch p, m := c.Request().URL.Path, c.Request().Method; {
		case m != http.MethodPost && m != http.MethodPut, p == "/class/login", p == "/class/logout":
		default:
			if _, ok := currentUser(c); !ok {
				// Closing after the answer spares net/http reading the
				// body it would otherwise drain for keep-alive.
				c.Response().Header().Set(echo.HeaderConnection, "close")
				return echo.NewHTTPError(http.StatusUnauthorized, "Sign in first: this page belongs to the class.")
			}
		}
		return next(c)
	}
}

func currentUser(c echo.Context) (store.User, bool) {
	u, ok := c.Get(userKey).(store.User)
	return u, ok
}

// require refuses anyone without a session, and anyone of another role
// than role (anyone lets every signed-in user through).
func (h *classHandlers) require(role store.Role) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			u, ok := currentUser(c)
			if !ok {
				if !wantsJSON(c) && c.Request().Method == http.MethodGet && !isWebsocket(c) {
					return c.Redirect(http.StatusSeeOther, "/class/login")
				}
				return echo.NewHTTPError(http.StatusUnauthorized, "Sign in first: this page belongs to the class.")
			}
			if role != anyone && u.Role != role {
				return echo.NewHTTPError(http.StatusForbidden, "This page is for "+string(role)+"s only.")
			}
			return next(c)
		}
	}
}

func (h *classHandlers) loginPage(c echo.Context) error {
	return render(c, http.StatusOK, page.ClassLogin(csrfToken(c), "", h.pageAssets()))
}

// login signs in a learner (field "token") or an instructor ("name" and
// "password") and sets the session cookie; an instructor's browser also
// gets a device cookie for the name (see quota.SignIn). A token is always
// looked up, and one that matches nobody spends the client address's
// budget (429 with Retry-After beyond). A password attempt spends the
// budgets quota.SignIn.AllowPassword names: the device's alone from a
// browser that signed in as that name before. The password is compared
// (bcrypt) whether or not the name exists, against a dummy hash if not, so
// the answer's time does not tell names apart; and at most a few
// comparisons run at once.
func (h *classHandlers) login(c echo.Context) error {
	ctx := c.Request().Context()
	token := strings.TrimSpace(c.FormValue("token"))
	name := ""
	if token == "" {
		name = strings.TrimSpace(c.FormValue("name"))
	}
	now := h.clock.Now()
	address := h.clientAddress(c.Request())
	var (
		u   store.User
		err error
	)
	if token != "" {
		u, err = h.accounts.LearnerByToken(ctx, store.Hash(token))
		if errors.Is(err, store.ErrNotFound) {
			if ok, retry := h.signIn.TokenFailed(address, now); !ok {
				return tooManySignIns(c, quota.AddressBudget, retry, now)
			}
		}
	} else {
		if ok, retry, budget := h.signIn.AllowPassword(name, address, h.devices.trusted(c, name), now); !ok {
			return tooManySignIns(c, budget, retry, now)
		}
		var pw string
		u, pw, err = h.accounts.Instructor(ctx, name)
		known := err == nil && pw != ""
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return err
		}
		if !known {
			pw = h.dummyHash()
		}
		var match bool
		wait, cancel := context.WithTimeout(ctx, h.signInWait)
		defer cancel()
		if werr := h.signIn.Check(wait, func() {
			match = h.comparePassword([]byte(pw), []byte(c.FormValue("password"))) == nil
		}); werr != nil {
			c.Response().Header().Set("Retry-After", "5")
			return echo.NewHTTPError(http.StatusServiceUnavailable, "Too many people are signing in at this moment: try again in a few seconds.")
		}
		if !known || !match {
			err = store.ErrNotFound
		}
	}
	if errors.Is(err, store.ErrNotFound) {
		return render(c, http.StatusUnauthorized, page.ClassLogin(csrfToken(c),
			"That token, or that name and password, did not match anyone in this class.", h.pageAssets()))
	}
	if err != nil {
		return err
	}
	raw := make([]byte, 32)
	rand.Read(raw)
	id := base64.RawURLEncoding.EncodeToString(raw)
	if err := h.accounts.CreateSession(ctx, store.Hash(id), u.ID, h.clock.Now().Add(h.sessionTTL)); err != nil {
		return err
	}
	ck := h.cookie(c.Request(), sessionCookie, id)
	ck.MaxAge = int(h.sessionTTL / time.Second)
	c.SetCookie(ck)
	if token == "" {
		c.SetCookie(h.devices.cookie(name, h.https(c.Request())))
	}
	return c.Redirect(http.StatusSeeOther, "/class")
}

// tooManySignIns is the 429 of a sign-in over its budget.
func tooManySignIns(c echo.Context, budget quota.Budget, retry time.Duration, now time.Time) error {
	secs := setRetryAfter(c, retry)
	whose := "from your network"
	switch budget {
	case quota.AccountBudget:
		whose = "for this name"
	case quota.DeviceBudget:
		whose = "from this browser"
	}
	return echo.NewHTTPError(http.StatusTooManyRequests, fmt.Sprintf(
		"Too many sign-in attempts %s: try again in %ds, at %s.", whose, secs,
		now.Add(time.Duration(secs)*time.Second).UTC().Format("15:04:05 MST")))
}

// clientAddress is the key of a client's sign-in budgets: the address the
// connection comes from (never a header, which the client writes), an
// IPv6 one cut to its /64 (one host may hold a whole /64). Through a
// trusted proxy (Limits.TrustedProxies, which the proxy connects from) it
// is the address the proxy names last in X-Forwarded-For: the one it saw.
func (h *handlers) clientAddress(r *http.Request) string {
	ap, err := netip.ParseAddrPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	ip := ap.Addr().Unmap()
	if inPrefixes(ip, h.trustedProxies) {
		hops := strings.Split(strings.Join(r.Header.Values("X-Forwarded-For"), ","), ",")
		if fwd, err := netip.ParseAddr(strings.TrimSpace(hops[len(hops)-1])); err == nil {
			ip = fwd.Unmap()
		}
	}
	return addressKey(ip, r.RemoteAddr)
}

// dummyHash is the bcrypt hash a password is compared with when the name
// is nobody's: made once, at the cost instructor add uses, of a password
// nobody knows.
func (h *classHandlers) dummyHash() string {
	h.dummyOnce.Do(func() {
		pw := make([]byte, 18)
		rand.Read(pw)
		b, err := bcrypt.GenerateFromPassword([]byte(base64.RawURLEncoding.EncodeToString(pw)), bcrypt.DefaultCost)
		if err != nil {
			panic("bcrypt of 24 bytes: " + err.Error()) // only for passwords over 72 bytes
		}
		h.dummy = string(b)
	})
	return h.dummy
}

func (h *classHandlers) logout(c echo.Context) error {
	if id := h.readCookie(c.Request(), sessionCookie); id != "" {
		if err := h.accounts.DeleteSession(c.Request().Context(), store.Hash(id), h.clock.Now()); err != nil {
			return err
		}
	}
	ck := h.cookie(c.Request(), sessionCookie, "")
	ck.MaxAge = -1
	c.SetCookie(ck)
	return c.Redirect(http.StatusSeeOther, "/class/login")
}
