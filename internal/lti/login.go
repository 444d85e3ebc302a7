package lti

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"net/http"
	"net/url"
	"strings"

	"ratelab/internal/store"
)

// The OIDC third-party-initiated login (LTI Core 1.3 §5.1.1, IMS Security
// Framework §5.1.1): the platform sends the browser to LoginPath with who
// it is (iss, client_id) and a hint of whom it signs in; the tool answers
// with a redirect to the platform's authorization endpoint carrying a
// fresh state and nonce. The state goes in a cookie of this browser too:
// a launch is taken only with the state of the browser that started it.

// Login is the tool's answer to a login initiation: send the browser to
// Redirect, with Cookie set.
type Login struct {
	Redirect string
	Cookie   *http.Cookie
}

// stateCookiePrefix begins the name of a login's state cookie; the rest is
// derived from the state, so that logins in two tabs keep a cookie each.
const stateCookiePrefix = "ratelab_lti_"

// StateCookie returns the name of the cookie that holds state.
func StateCookie(state string) string {
	sum := sha256.Sum256([]byte("cookie:" + state))
	return stateCookiePrefix + hex.EncodeToString(sum[:8])
}

// Login answers a login initiation's parameters (GET query or POST form).
func (t *Tool) Login(ctx context.Context, params url.Values) (Login, error) {
	iss, hint := params.Get("iss"), params.Get("login_hint")
	if iss == "" || hint == "" || params.Get("target_link_uri") == "" {
		return Login{}, refuse(ReasonMalformed, "a login initiation needs iss, login_hint and target_link_uri; this one has iss=%q login_hint=%q target_link_uri=%q",
			iss, hint, params.Get("target_link_uri"))
	}
	if o := origin(params.Get("target_link_uri")); o != t.cfg.URL {
		return Login{}, refuse(ReasonMalformed, "the target_link_uri %q is not on this class's address %s: check the tool's URL in the platform's registration", params.Get("target_link_uri"), t.cfg.URL)
	}
	p, err := t.platform(ctx, iss, params.Get("client_id"))
	if err != nil {
		return Login{}, err
	}
	if d := params.Get("lti_deployment_id"); d != "" && !contains(p.Deployments, d) {
		return Login{}, unknownDeployment(p, d)
	}
	state, nonce := random(), random()
	exp := t.cfg.Clock.Now().Add(t.cfg.LoginTTL)
	if err := t.st.StartLTILogin(ctx, nonce, hashState(state), p.ID, exp); err != nil {
		return Login{}, err
	}
	q := url.Values{
		"scope":         {"openid"},
		"response_type": {"id_token"},
		"response_mode": {"form_post"},
		"prompt":        {"none"},
		"client_id":     {p.ClientID},
		"redirect_uri":  {t.URL(LaunchPath)},
		"login_hint":    {hint},
		"state":         {state},
		"nonce":         {nonce},
	}
	if m := params.Get("lti_message_hint"); m != "" {
		q.Set("lti_message_hint", m)
	}
	u, err := url.Parse(p.AuthLoginURL)
	if err != nil {
		return Login{}, refuse(ReasonPlatform, "the platform's registered login URL %q does not parse: register it again", p.AuthLoginURL)
	}
	for k, v := range u.Query() {
		q[k] = append(q[k], v...)
	}
	u.RawQuery = q.Encode()
	return Login{Redirect: u.String(), Cookie: t.cookie(StateCookie(state), state, int(t.cfg.LoginTTL.Seconds()))}, nil
}

// cookie is a cookie of the tool's paths, fit for a platform's frame:
// SameSite=None and Secure over HTTPS (a frame of another site gets it
// only so; Partitioned keeps it to that site's frames, where browsers
// block third-party cookies); SameSite=Lax over plain HTTP, where browsers
// refuse None without Secure.
func (t *Tool) cookie(name, value string, maxAge int) *http.Cookie {
	c := &http.Cookie{Name: name, Value: value, Path: "/lti", HttpOnly: true, MaxAge: maxAge, SameSite: http.SameSiteLaxMode}
	if t.Secure() {
		c.Secure, c.SameSite, c.Partitioned = true, http.SameSiteNoneMode, true
	}
	return c
}

// FrameCookie returns c made fit for a platform's frame as the tool's own
// cookies are (see cookie): the server uses it for the session a launch
// opens.
func (t *Tool) FrameCookie(c *http.Cookie) *http.Cookie {
	f := t.cookie(c.Name, c.Value, c.MaxAge)
	f.Path, f.Expires = c.Path, c.Expires
	return f
}

// platform finds a registered platform by issuer and, if given, client id.
func (t *Tool) platform(ctx context.Context, iss, clientID string) (store.LTIPlatform, error) {
	ps, err := t.st.LTIPlatforms(ctx)
	if err != nil {
		return store.LTIPlatform{}, err
	}
	var found []store.LTIPlatform
	for _, p := range ps {
		if p.Issuer == iss && (clientID == "" || p.ClientID == clientID) {
			found = append(found, p)
		}
	}
	switch {
	case len(found) == 1:
		return found[0], nil
	case len(found) > 1:
		return store.LTIPlatform{}, refuse(ReasonPlatform, "the issuer %s is registered with several client ids and this request names none: the platform must send client_id", iss)
	case clientID != "":
		return store.LTIPlatform{}, refuse(ReasonPlatform, "no platform is registered with issuer %s and client id %s: an instructor registers it first (labserver lti add-platform, or dynamic registration)", iss, clientID)
	}
	return store.LTIPlatform{}, refuse(ReasonPlatform, "no platform is registered with issuer %s: an instructor registers it first (labserver lti add-platform, or dynamic registration)", iss)
}

func unknownDeployment(p store.LTIPlatform, d string) error {
	return refuse(ReasonDeployment, "deployment %q of %s is not registered with this class (it knows %s): add it with labserver lti add-platform --deployment",
		d, p.Issuer, strings.Join(quoteAll(p.Deployments), ", "))
}

func quoteAll(list []string) []string {
	if len(list) == 0 {
		return []string{"none"}
	}
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = `"` + s + `"`
	}
	return out
}

// random returns 32 random bytes, URL-safe.
func random() string {
	b := make([]byte, 32)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

func hashState(state string) []byte {
	sum := sha256.Sum256([]byte(state))
	return sum[:]
}
