package lti

import (
	"context"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"

	"ratelab/internal/store"
	"ratelab/lab/course"
)

// The launch (LTI Core 1.3 §5.1.1.3, IMS Security Framework §5.1.3): the
// platform posts an id_token and the state to LaunchPath. Launch checks
// it in the Security Framework's order, refusing with a RefusedError that
// says which check failed, then signs the user into the class.

// algorithms are the signature algorithms a platform may sign with: RSA
// and elliptic-curve ones. Never "none", never HMAC (a shared secret
// would let anyone holding it sign launches).
var algorithms = []jose.SignatureAlgorithm{jose.RS256, jose.RS384, jose.RS512, jose.PS256, jose.PS384, jose.PS512, jose.ES256, jose.ES384, jose.ES512}

// Launch is a launch the tool took: who came, from where, to what.
type Launch struct {
	Platform store.LTIPlatform
	User     store.User // the class's user, provisioned on first launch
	Sub      string     // the platform's stable id of the user
	Roles    []string
	// Message is LtiResourceLinkRequest, or LtiDeepLinkingRequest (an
	// instructor adding exercises: DeepLinking holds the settings).
	Message     string
	Deployment  string
	ContextID   string
	LinkID      string
	Exercise    string // the exercise the resource link maps to; "" for a week or none
	Week        int    // the week it maps to, when no exercise
	AGS         *AGSEndpoint
	DeepLinking *DeepLinkSettings
}

// Landing is the class's page the launch lands on.
func (l *Launch) Landing() string {
	switch {
	case l.Message == messageDeepLinkReq:
		return PickerPath
	case l.Exercise != "":
		return "/class/exercises/" + l.Exercise
	case l.Week > 0:
		for _, w := range course.Weeks() {
			if w.Number == l.Week {
				return "/class/lessons/" + w.Lesson.Slug
			}
		}
	}
	if l.User.Role == store.Instructor {
		return "/class/dashboard"
	}
	return "/class"
}

// Launch validates a launch's form (id_token and state, or the platform's
// error) against the state cookie's value this browser sent, and signs
// the user into the class. Every refusal is a *RefusedError.
func (t *Tool) Launch(ctx context.Context, form url.Values, stateCookie string) (*Launch, error) {
	if e := form.Get("error"); e != "" {
		return nil, refuse(ReasonPlatformError, "the platform did not sign you in: %s %s", e, form.Get("error_description"))
	}
	raw, state := form.Get("id_token"), form.Get("state")
	if raw == "" {
		return nil, refuse(ReasonMalformed, "the launch carries no id_token: start it again from the platform")
	}
	if state == "" || stateCookie == "" || subtle.ConstantTimeCompare([]byte(state), []byte(stateCookie)) != 1 {
		return nil, refuse(ReasonState, "this launch was not started in this browser (its state does not match the browser's cookie): start it again from the platform; if it keeps failing, the browser may block the class's cookies inside the platform's frame")
	}
	alg, kid, err := header(raw)
	if err != nil {
		return nil, err
	}
	switch {
	case strings.EqualFold(alg, "none"):
		return nil, refuse(ReasonAlgorithm, "the id_token is not signed (alg none): the tool takes only tokens the platform signs with its private key")
	case strings.HasPrefix(strings.ToUpper(alg), "HS"):
		return nil, refuse(ReasonAlgorithm, "the id_token is signed with a shared secret (%s): the tool takes only tokens signed with the platform's private key (RS256)", alg)
	}
	tok, err := jwt.ParseSigned(raw, algorithms)
	if err != nil {
		return nil, refuse(ReasonAlgorithm, "the id_token's algorithm %q is not one the tool takes (RS256 and the other RSA and EC ones): %v", alg, err)
	}
	var unverified idToken
	if err := tok.UnsafeClaimsWithoutVerification(&unverified); err != nil {
		return nil, refuse(ReasonMalformed, "the id_token's claims do not decode: %v", err)
	}
	p, err := t.issuer(ctx, unverified)
	if err != nil {
		return nil, err
	}
	key, err := t.keys.key(ctx, p.JWKSURL, kid)
	if err != nil {
		return nil, err
	}
	var claims idToken
	if err := tok.Claims(key.Key, &claims); err != nil {
		return nil, refuse(ReasonSignature, "the id_token's signature does not verify with the platform's key %q: the token was changed after the platform signed it, or someone else signed it", kid)
	}
	if err := t.checkClaims(p, &claims); err != nil {
		return nil, err
	}
	if err := t.useNonce(ctx, p, claims.Nonce, state); err != nil {
		return nil, err
	}
	return t.signIn(ctx, p, &claims)
}

// header reads a compact JWS's header: its alg and kid, to refuse with a
// clear reason before the library refuses with its own.
func header(raw string) (alg, kid string, err error) {
	head, _, ok := strings.Cut(raw, ".")
	b, derr := base64.RawURLEncoding.DecodeString(head)
	var h struct {
		Alg string `json:"alg"`
		Kid string `json:"kid"`
	}
	if !ok || derr != nil || json.Unmarshal(b, &h) != nil {
		return "", "", refuse(ReasonMalformed, "the id_token is not a signed JWT: start the launch again from the platform")
	}
	return h.Alg, h.Kid, nil
}

// issuer finds the platform a token says it comes from: its iss, and the
// client id in its aud (azp when aud names several).
func (t *Tool) issuer(ctx context.Context, c idToken) (store.LTIPlatform, error) {
	ps, err := t.st.LTIPlatforms(ctx)
	if err != nil {
		return store.LTIPlatform{}, err
	}
	known := false
	for _, p := range ps {
		if p.Issuer != c.Issuer {
			continue
		}
		known = true
		if c.Audience.Contains(p.ClientID) {
			return p, nil
		}
	}
	if known {
		return store.LTIPlatform{}, refuse(ReasonAudience, "the id_token is for %s (aud), not for this class's client id at %s", strings.Join(c.Audience, ", "), c.Issuer)
	}
	return store.LTIPlatform{}, refuse(ReasonPlatform, "the id_token comes from %q, a platform not registered with this class", c.Issuer)
}

// checkClaims checks a verified token's claims: audience, times,
// deployment, message.
func (t *Tool) checkClaims(p store.LTIPlatform, c *idToken) error {
	if len(c.Audience) > 1 && c.Azp == "" {
		return refuse(ReasonAudience, "the id_token names several audiences and no azp: the platform must say which is this class's")
	}
	if c.Azp != "" && c.Azp != p.ClientID {
		return refuse(ReasonAudience, "the id_token's azp is %q, not this class's client id %q", c.Azp, p.ClientID)
	}
	now, leeway := t.cfg.Clock.Now(), t.cfg.Leeway
	switch {
	case c.Expiry == nil || c.IssuedAt == nil:
		return refuse(ReasonMalformed, "the id_token lacks exp or iat")
	case now.After(c.Expiry.Time().Add(leeway)):
		return refuse(ReasonExpired, "the id_token expired at %s (it is %s here): start the launch again; if it keeps failing, the platform's clock or this server's is wrong",
			c.Expiry.Time().UTC().Format(time.RFC3339), now.UTC().Format(time.RFC3339))
	case c.IssuedAt.Time().After(now.Add(leeway)):
		return refuse(ReasonIssuedAt, "the id_token was issued at %s, in the future (it is %s here): the platform's clock or this server's is wrong",
			c.IssuedAt.Time().UTC().Format(time.RFC3339), now.UTC().Format(time.RFC3339))
	case c.Subject == "":
		return refuse(ReasonMalformed, "the id_token has no sub: the class needs to know who launched (anonymous launches are not taken)")
	case c.Nonce == "":
		return refuse(ReasonNonce, "the id_token has no nonce")
	}
	if !contains(p.Deployments, c.Deployment) {
		return unknownDeployment(p, c.Deployment)
	}
	if c.Version != ltiVersion {
		return refuse(ReasonMessage, "LTI version %q: the tool speaks %s", c.Version, ltiVersion)
	}
	switch c.Message {
	case messageResourceReq:
		if c.Link == nil || c.Link.ID == "" {
			return refuse(ReasonMalformed, "a resource link launch without a resource link id")
		}
	case messageDeepLinkReq:
		if c.DeepLinking == nil || c.DeepLinking.ReturnURL == "" {
			return refuse(ReasonMalformed, "a deep-linking launch without deep_link_return_url")
		}
		if !teaches(c.Roles) {
			return refuse(ReasonMessage, "only an instructor adds exercises to a course")
		}
	default:
		return refuse(ReasonMessage, "message type %q: the tool takes %s and %s", c.Message, messageResourceReq, messageDeepLinkReq)
	}
	if c.Roles == nil {
		return refuse(ReasonMalformed, "the id_token has no roles claim")
	}
	return nil
}

// useNonce spends the token's nonce: it must be one the tool issued at
// login, for this platform and this state, not used before, not lapsed.
func (t *Tool) useNonce(ctx context.Context, p store.LTIPlatform, nonce, state string) error {
	l, err := t.st.UseLTILogin(ctx, nonce)
	switch {
	case errors.Is(err, store.ErrUsed):
		return refuse(ReasonNonceReused, "this launch's nonce was used already: a launch is taken once; start it again from the platform")
	case errors.Is(err, store.ErrNotFound):
		return refuse(ReasonNonce, "the id_token's nonce is not one this class issued: start the launch again from the platform")
	case err != nil:
		return err
	case l.PlatformID != p.ID || subtle.ConstantTimeCompare(l.StateHash, hashState(state)) != 1:
		return refuse(ReasonNonce, "the id_token's nonce belongs to another login than this browser's: start the launch again from the platform")
	case t.cfg.Clock.Now().After(l.Expires):
		return refuse(ReasonNonce, "the login took longer than %s: start the launch again from the platform", t.cfg.LoginTTL)
	}
	return nil
}

// signIn provisions the launch's user and records its course and link.
func (t *Tool) signIn(ctx context.Context, p store.LTIPlatform, c *idToken) (*Launch, error) {
	role := store.Learner
	if teaches(c.Roles) {
		role = store.Instructor
	}
	u, err := t.st.ProvisionLTIUser(ctx, p.ID, c.Subject, displayName(c, "learner "+shortSub(c.Subject)), role)
	if err != nil {
		return nil, err
	}
	if err := t.pageOrigins(ctx, p, c); err != nil {
		return nil, err
	}
	l := &Launch{Platform: p, User: u, Sub: c.Subject, Roles: c.Roles, Message: c.Message, Deployment: c.Deployment,
		AGS: c.AGS, DeepLinking: c.DeepLinking}
	if c.Context != nil {
		l.ContextID = c.Context.ID
		lc := store.LTIContext{PlatformID: p.ID, ContextID: c.Context.ID, Title: c.Context.Title}
		if lc.Title == "" {
			lc.Title = c.Context.Label
		}
		if c.NRPS != nil {
			lc.MembershipsURL = c.NRPS.URL
		}
		if c.AGS != nil {
			lc.LineItemsURL = c.AGS.LineItems
		}
		if err := t.st.SaveLTIContext(ctx, lc); err != nil {
			return nil, err
		}
	}
	if c.Message != messageResourceReq {
		return l, nil
	}
	l.LinkID = c.Link.ID
	l.Exercise, l.Week = target(c)
	if l.Exercise != "" {
		link := store.LTILink{PlatformID: p.ID, ResourceLinkID: l.LinkID, ContextID: l.ContextID, Exercise: l.Exercise,
			LineItemURL: t.linkLineItem(ctx, p, c, l.Exercise)}
		if err := t.st.SaveLTILink(ctx, link, u.ID, c.Subject); err != nil {
			return nil, err
		}
		if role == store.Learner {
			t.Poke()
		}
	}
	return l, nil
}

// pageOrigins records the origins of the platform's pages a launch names
// (its return URL's, its tool_platform's), which may frame the class: a
// Canvas's issuer is canvas.instructure.com whatever the school's Canvas
// is called. The token is the platform's, signed: it vouches for them.
func (t *Tool) pageOrigins(ctx context.Context, p store.LTIPlatform, c *idToken) error {
	var urls []string
	if c.Presentation != nil {
		urls = append(urls, c.Presentation.ReturnURL)
	}
	if c.ToolPlatform != nil {
		urls = append(urls, c.ToolPlatform.URL)
	}
	for _, u := range urls {
		o := origin(u)
		if o == "" {
			continue
		}
		added, err := t.st.AddLTIOrigin(ctx, p.ID, o)
		if err != nil {
			return err
		}
		if added {
			t.forget()
		}
	}
	return nil
}

// target is the exercise (or week) a resource link maps to: its custom
// parameter "exercise" (or "week"), as deep linking sets them, else its
// target link URI's /class/exercises/<id> or ?exercise=<id>.
func target(c *idToken) (exercise string, week int) {
	if id, ok := c.Custom["exercise"].(string); ok {
		if _, known := course.Lookup(id); known {
			return id, 0
		}
	}
	switch w := c.Custom["week"].(type) {
	case string:
		n, _ := strconv.Atoi(w)
		return "", n
	case float64:
		return "", int(w)
	}
	if u, err := url.Parse(c.TargetLink); err == nil {
		id := u.Query().Get("exercise")
		if rest, ok := strings.CutPrefix(u.Path, "/class/exercises/"); ok {
			id = rest
		}
		if _, known := course.Lookup(id); known {
			return id, 0
		}
	}
	return "", 0
}

func shortSub(sub string) string {
	if len(sub) > 8 {
		return sub[:8]
	}
	return sub
}

// Poke wakes the score poster: something may have a score to send.
func (t *Tool) Poke() {
	select {
	case t.wake <- struct{}{}:
	default:
	}
}

// errorf wraps a fault of the tool (not a refusal).
func errorf(format string, args ...any) error { return fmt.Errorf("lti: "+format, args...) }
