package server

import (
	"crypto/rand"
	"encoding/base64"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
	"golang.org/x/crypto/bcrypt"

	"ratelab/internal/store"
	"ratelab/web/page"
)

// Sign-in and CSRF: who is asking (a bearer token or the session cookie),
// what they may open, and the forms' protection against other sites.

const (
	sessionCookie = "ratelab_session"
	userKey       = "class.user"
	csrfKey       = "csrf" // where echo's CSRF middleware puts the token
)

// anyone lets any signed-in user through require; the handler checks
// ownership.
const anyone store.Role = ""

// csrf refuses a browser's POST whose form token does not match its CSRF
// cookie. A bearer token is never sent by a browser on its own: requests
// with one are not checked.
func (h *classHandlers) csrf() echo.MiddlewareFunc {
	return middleware.CSRFWithConfig(middleware.CSRFConfig{
		TokenLookup:    "form:_csrf",
		CookieName:     "ratelab_csrf",
		CookiePath:     "/class",
		CookieHTTPOnly: true,
		CookieSecure:   h.secureCookies,
		CookieSameSite: http.SameSiteStrictMode,
		Skipper:        func(c echo.Context) bool { return bearer(c) != "" },
		ErrorHandler: func(err error, c echo.Context) error {
			return echo.NewHTTPError(http.StatusForbidden, "This form has expired or did not come from this site: reload the page and try again.")
		},
	})
}

func csrfToken(c echo.Context) string {
	s, _ := c.Get(csrfKey).(string)
	return s
}

// authenticate finds the user from a bearer token (learners' command line)
// or the session cookie, if any.
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
		} else if ck, err := c.Cookie(sessionCookie); err == nil && ck.Value != "" {
			u, err := h.accounts.SessionUser(ctx, store.Hash(ck.Value), h.clock.Now())
			switch {
			case err == nil:
				c.Set(userKey, u)
			case !errors.Is(err, store.ErrNotFound):
				return err
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
// "password") and sets the session cookie.
func (h *classHandlers) login(c echo.Context) error {
	ctx := c.Request().Context()
	var (
		u   store.User
		err error
	)
	if token := strings.TrimSpace(c.FormValue("token")); token != "" {
		u, err = h.accounts.LearnerByToken(ctx, store.Hash(token))
	} else {
		var pw string
		u, pw, err = h.accounts.Instructor(ctx, strings.TrimSpace(c.FormValue("name")))
		if err == nil && bcrypt.CompareHashAndPassword([]byte(pw), []byte(c.FormValue("password"))) != nil {
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
	c.SetCookie(&http.Cookie{Name: sessionCookie, Value: id, Path: "/class", HttpOnly: true,
		Secure: h.secureCookies, SameSite: http.SameSiteLaxMode, MaxAge: int(h.sessionTTL / time.Second)})
	return c.Redirect(http.StatusSeeOther, "/class")
}

func (h *classHandlers) logout(c echo.Context) error {
	if ck, err := c.Cookie(sessionCookie); err == nil {
		if err := h.accounts.DeleteSession(c.Request().Context(), store.Hash(ck.Value), h.clock.Now()); err != nil {
			return err
		}
	}
	c.SetCookie(&http.Cookie{Name: sessionCookie, Value: "", Path: "/class", HttpOnly: true, MaxAge: -1})
	return c.Redirect(http.StatusSeeOther, "/class/login")
}
