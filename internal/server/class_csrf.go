package server

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"

	"github.com/labstack/echo/v4"
)

// CSRF and the class's cookies. A page of another site must not make a
// signed-in browser write anything: a submission, a due date, an
// extension in the instructor's name, a sign-in as someone else.
//
//   - A browser's POST or PUT (a request without a bearer token) is
//     accepted only from this server's own origin: its Origin header names
//     this server (scheme and host), or, without an Origin, the browser
//     says Sec-Fetch-Site: same-origin. A sibling subdomain is same-site,
//     not same-origin: it is refused, whatever cookies it planted.
//   - It also carries the CSRF token of its page (the form's _csrf field or
//     the X-CSRF-Token header) matching its CSRF cookie, unless the
//     browser says Sec-Fetch-Site: same-origin.
//   - On HTTPS the cookies are __Host- cookies (Secure, Path=/, no
//     Domain): a sibling subdomain cannot set them for this host, so it
//     can plant neither a session nor a CSRF token.
//
// The server is on HTTPS when it serves TLS itself, when --secure-cookies
// says so (a TLS proxy in front), or when a trusted proxy (--trusted-proxy)
// says X-Forwarded-Proto: https. Behind a proxy, this server's host is the
// request's Host, or the X-Forwarded-Host a trusted proxy sets.

const (
	csrfCookie = "ratelab_csrf"
	hostPrefix = "__Host-"
)

// https reports whether the request reached the class over HTTPS.
func (h *classHandlers) https(r *http.Request) bool {
	return r.TLS != nil || h.secureCookies || strings.EqualFold(h.forwarded(r, "X-Forwarded-Proto"), "https")
}

// forwarded returns the last value of a proxy's header (X-Forwarded-Proto,
// X-Forwarded-Host) if the request came through a trusted proxy, else "".
func (h *handlers) forwarded(r *http.Request, header string) string {
	ap, err := netip.ParseAddrPort(r.RemoteAddr)
	if err != nil || !inPrefixes(ap.Addr().Unmap(), h.trustedProxies) {
		return ""
	}
	vals := strings.Split(strings.Join(r.Header.Values(header), ","), ",")
	return strings.TrimSpace(vals[len(vals)-1])
}

// cookie returns a class cookie named base for r: a __Host- cookie on
// HTTPS (Secure, Path=/), else one for /class.
func (h *classHandlers) cookie(r *http.Request, base, value string) *http.Cookie {
	ck := &http.Cookie{Name: base, Value: value, Path: "/class", HttpOnly: true, SameSite: http.SameSiteLaxMode}
	if h.https(r) {
		ck.Name, ck.Path, ck.Secure = hostPrefix+base, "/", true
	}
	return ck
}

// readCookie returns the value of r's class cookie named base (see
// cookie), or "": on HTTPS, a cookie without the __Host- prefix, which a
// sibling subdomain may have set, is not read.
func (h *classHandlers) readCookie(r *http.Request, base string) string {
	name := base
	if h.https(r) {
		name = hostPrefix + base
	}
	if ck, err := r.Cookie(name); err == nil {
		return ck.Value
	}
	return ""
}

// sameOrigin reports whether a browser's request comes from a page of
// this server: its Origin names this server's scheme and host, or, with
// no Origin, its Sec-Fetch-Site says same-origin. A Sec-Fetch-Site of any
// other value (same-site, cross-site, none) is refused either way.
func (h *classHandlers) sameOrigin(r *http.Request) bool {
	site := r.Header.Get("Sec-Fetch-Site")
	if site != "" && site != "same-origin" {
		return false
	}
	origin := r.Header.Get("Origin")
	if origin == "" || origin == "null" {
		return site == "same-origin"
	}
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "https" && (u.Scheme != "http" || h.https(r))) {
		return false
	}
	host := r.Host
	if fh := h.forwarded(r, "X-Forwarded-Host"); fh != "" {
		host = fh
	}
	return strings.EqualFold(withoutDefaultPort(u.Host, u.Scheme), withoutDefaultPort(host, u.Scheme))
}

// withoutDefaultPort is host without the scheme's default port, as an
// Origin names it.
func withoutDefaultPort(host, scheme string) string {
	if h, port, err := net.SplitHostPort(host); err == nil && (scheme == "https" && port == "443" || scheme == "http" && port == "80") {
		if strings.Contains(h, ":") {
			return "[" + h + "]"
		}
		return h
	}
	return host
}

// csrf gives every page a CSRF token (its cookie, set if missing) and
// refuses a browser's write that is not from this server's origin or
// lacks its page's token (see above). A bearer token is never sent by a
// browser on its own: requests with one are not checked.
func (h *classHandlers) csrf(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if bearer(c) != "" {
			return next(c)
		}
		r := c.Request()
		token := h.readCookie(r, csrfCookie)
		if len(token) < 32 || len(token) > 64 {
			raw := make([]byte, 32)
			rand.Read(raw)
			token = base64.RawURLEncoding.EncodeToString(raw)
			ck := h.cookie(r, csrfCookie, token)
			ck.SameSite = http.SameSiteStrictMode
			c.SetCookie(ck)
		}
		c.Set(csrfKey, token)
		c.Response().Header().Add(echo.HeaderVary, "Cookie")
		switch r.Method {
		case http.MethodGet, http.MethodHead, http.MethodOptions, http.MethodTrace:
			return next(c)
		}
		if !h.sameOrigin(r) {
			return echo.NewHTTPError(http.StatusForbidden, "This form did not come from this site's own pages, so it was refused: open the class's page and send it from there.")
		}
		if r.Header.Get("Sec-Fetch-Site") == "same-origin" {
			return next(c)
		}
		sent := r.Header.Get(echo.HeaderXCSRFToken)
		if sent == "" {
			sent = c.FormValue("_csrf")
		}
		if subtle.ConstantTimeCompare([]byte(sent), []byte(token)) != 1 {
			return echo.NewHTTPError(http.StatusForbidden, "This form has expired or did not come from this site: reload the page and try again.")
		}
		return next(c)
	}
}
