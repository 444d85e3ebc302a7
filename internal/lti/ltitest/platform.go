// Package ltitest is a learning platform for tests, written to the IMS
// specifications the tool implements: it starts OIDC logins, signs
// id_tokens with its own keys (published as a JWKS, rotatable), issues
// OAuth 2 tokens to a tool that authenticates with a signed JWT, keeps
// line items and their scores (AGS), lists a course's members (NRPS) and
// takes deep-linking responses. It serves on 127.0.0.1 only, and can be
// told to send the broken tokens of the IMS certification suite's
// negative cases (Next).
package ltitest

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"

	"ratelab/internal/store"
)

// Roles a member may have.
const (
	RoleLearner    = "http://purl.imsglobal.org/vocab/lis/v2/membership#Learner"
	RoleInstructor = "http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor"
)

// Member is a user of the platform's course.
type Member struct {
	Sub   string
	Name  string
	Email string
	Roles []string
}

// Link is a resource link of the course: an assignment that launches the
// tool.
type Link struct {
	ID       string
	Title    string
	Custom   map[string]string
	LineItem string // the id of its line item, "" if none
}

// LineItem is a column of the platform's gradebook.
type LineItem struct {
	ID             string  `json:"id"`
	Label          string  `json:"label"`
	ScoreMaximum   float64 `json:"scoreMaximum"`
	ResourceID     string  `json:"resourceId,omitempty"`
	ResourceLinkID string  `json:"resourceLinkId,omitempty"`
	Tag            string  `json:"tag,omitempty"`
}

// Score is a score the tool posted.
type Score struct {
	UserID           string  `json:"userId"`
	ScoreGiven       float64 `json:"scoreGiven"`
	ScoreMaximum     float64 `json:"scoreMaximum"`
	ActivityProgress string  `json:"activityProgress"`
	GradingProgress  string  `json:"gradingProgress"`
	Timestamp        string  `json:"timestamp"`
	Comment          string  `json:"comment,omitempty"`
}

// Options breaks the next id_token the platform signs, as the IMS
// certification suite's negative cases do.
type Options struct {
	Claims func(c map[string]any) // changes the claims before signing
	Key    KeyChoice
	Raw    func(raw string) string // changes the signed token (tampering)
}

// KeyChoice is what signs an id_token.
type KeyChoice int

// Key choices.
const (
	OwnKey     KeyChoice = iota // the platform's current key
	UnknownKey                  // a key its JWKS does not publish
	HMAC                        // HS256 with a shared secret
	None                        // alg none, no signature
)

// Platform is a running test platform. Its fields are set by New; change
// Members, Links and Fail under Lock.
type Platform struct {
	URL        string // its address; also its issuer
	ClientID   string // the tool's client id here
	Deployment string
	ContextID  string
	ToolURL    string // the tool's address, for redirect URIs and its JWKS
	Now        func() time.Time

	mu         sync.Mutex
	keys       []jose.JSONWebKey // private; the last signs
	Members    []Member
	Links      map[string]*Link
	lineItems  []*LineItem
	scores     map[string][]Score // line item id → scores in the order posted
	tokens     map[string][]string
	next       *Options
	failScores int // the next posts that answer 503
	perPage    int // members a page of the roster; 0: all
	// DeepLinked holds the content items of the deep-linking responses.
	DeepLinked []map[string]any
	// Registration is the tool's client registration, once it registered
	// dynamically.
	registration map[string]any
	srv          *httptest.Server
}

// New starts a platform for the tool at toolURL, its clock now, with a
// course of one instructor ("teacher") and two learners ("ada", "grace").
func New(t testing.TB, toolURL string, now func() time.Time) *Platform {
	t.Helper()
	p := &Platform{ClientID: "ratelab-tool", Deployment: "deployment-1", ContextID: "course-1", ToolURL: toolURL, Now: now,
		Links: map[string]*Link{}, scores: map[string][]Score{}, tokens: map[string][]string{}}
	p.Members = []Member{
		{Sub: "sub-teacher", Name: "Tess Teacher", Roles: []string{RoleInstructor}},
		{Sub: "sub-ada", Name: "Ada Lovelace", Email: "ada@example.edu", Roles: []string{RoleLearner}},
		{Sub: "sub-grace", Name: "Grace Hopper", Email: "grace@example.edu", Roles: []string{RoleLearner}},
	}
	p.Rotate()
	mux := http.NewServeMux()
	mux.HandleFunc("GET /jwks", p.jwks)
	mux.HandleFunc("GET /start", p.start)
	mux.HandleFunc("GET /course", p.course)
	mux.HandleFunc("GET /favicon.ico", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) })
	mux.HandleFunc("GET /auth", p.auth)
	mux.HandleFunc("POST /token", p.token)
	mux.HandleFunc("GET /lineitems", p.listLineItems)
	mux.HandleFunc("POST /lineitems", p.addLineItem)
	mux.HandleFunc("GET /lineitems/{id}", p.getLineItem)
	mux.HandleFunc("POST /lineitems/{id}/scores", p.postScore)
	mux.HandleFunc("GET /memberships", p.memberships)
	mux.HandleFunc("POST /deeplink", p.deepLinkReturn)
	mux.HandleFunc("GET /.well-known/openid-configuration", p.openIDConfiguration)
	mux.HandleFunc("POST /register", p.register)
	p.srv = httptest.NewServer(mux) // listens on 127.0.0.1
	t.Cleanup(p.srv.Close)
	p.URL = p.srv.URL
	return p
}

// Register registers the platform with the class whose store is st.
func (p *Platform) Register(ctx context.Context, st *store.Store) (store.LTIPlatform, error) {
	return st.AddLTIPlatform(ctx, p.Registration())
}

// Registration is the platform as the tool registers it.
func (p *Platform) Registration() store.LTIPlatform {
	return store.LTIPlatform{Issuer: p.URL, ClientID: p.ClientID, Name: "Test platform",
		AuthLoginURL: p.URL + "/auth", TokenURL: p.URL + "/token", JWKSURL: p.URL + "/jwks", Deployments: []string{p.Deployment}}
}

// Rotate makes a new signing key; the old ones stay published.
func (p *Platform) Rotate() string {
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		panic(err)
	}
	kid := "platform-key-" + strconv.Itoa(len(p.keys)+1)
	p.mu.Lock()
	p.keys = append(p.keys, jose.JSONWebKey{Key: k, KeyID: kid, Algorithm: "RS256", Use: "sig"})
	p.mu.Unlock()
	return kid
}

// Next breaks the next id_token as o says.
func (p *Platform) Next(o Options) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.next = &o
}

// AddLink adds a resource link for an exercise with a line item of points
// (none if points is 0) and returns it.
func (p *Platform) AddLink(id, exercise string, points float64) *Link {
	p.mu.Lock()
	defer p.mu.Unlock()
	l := &Link{ID: id, Title: "ratelab: " + exercise, Custom: map[string]string{"exercise": exercise}}
	if points > 0 {
		li := &LineItem{ID: p.URL + "/lineitems/" + strconv.Itoa(len(p.lineItems)+1), Label: exercise, ScoreMaximum: points, ResourceLinkID: id}
		p.lineItems = append(p.lineItems, li)
		l.LineItem = li.ID
	}
	p.Links[id] = l
	return l
}

// FailScores makes the next n score posts answer 503, as a platform down
// for maintenance does.
func (p *Platform) FailScores(n int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.failScores = n
}

// Scores returns the scores posted to a line item, in order.
func (p *Platform) Scores(lineItem string) []Score {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.scores[lineItem])
}

// LineItems returns the gradebook's columns.
func (p *Platform) LineItems() []LineItem {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []LineItem
	for _, li := range p.lineItems {
		out = append(out, *li)
	}
	return out
}

// StartURL is where a browser starts a launch of link by sub (link
// "deeplink": a deep-linking request).
func (p *Platform) StartURL(sub, link string) string {
	return p.URL + "/start?" + url.Values{"user": {sub}, "link": {link}}.Encode()
}

// CourseURL is the platform's course page that opens a launch of link by
// sub in a frame, as platforms show tools inside their own page.
func (p *Platform) CourseURL(sub, link string) string {
	return p.URL + "/course?" + url.Values{"user": {sub}, "link": {link}}.Encode()
}

func (p *Platform) course(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	fmt.Fprintf(w, `<!doctype html><title>Test platform: a course</title><h1>Rate limiting 101</h1>`+
		`<iframe title="ratelab" data-testid="tool-frame" width="1000" height="700" src="%s"></iframe>`,
		html.EscapeString(p.StartURL(r.URL.Query().Get("user"), r.URL.Query().Get("link"))))
}

func (p *Platform) jwks(w http.ResponseWriter, r *http.Request) {
	p.mu.Lock()
	set := jose.JSONWebKeySet{}
	for _, k := range p.keys {
		set.Keys = append(set.Keys, k.Public())
	}
	p.mu.Unlock()
	writeJSON(w, "application/json", set)
}

// start sends the browser to the tool's login initiation, as a platform's
// page does when a user clicks the tool's link.
func (p *Platform) start(w http.ResponseWriter, r *http.Request) {
	q := url.Values{
		"iss":               {p.URL},
		"login_hint":        {r.URL.Query().Get("user")},
		"lti_message_hint":  {r.URL.Query().Get("link")},
		"target_link_uri":   {p.ToolURL + "/lti/launch"},
		"client_id":         {p.ClientID},
		"lti_deployment_id": {p.Deployment},
	}
	http.Redirect(w, r, p.ToolURL+"/lti/login?"+q.Encode(), http.StatusFound)
}

// auth is the OIDC authorization endpoint: it checks the tool's request
// and answers with a page that posts the id_token to the tool.
func (p *Platform) auth(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	for k, want := range map[string]string{"scope": "openid", "response_type": "id_token", "response_mode": "form_post",
		"prompt": "none", "client_id": p.ClientID, "redirect_uri": p.ToolURL + "/lti/launch"} {
		if q.Get(k) != want {
			http.Error(w, fmt.Sprintf("authorization request: %s = %q, want %q", k, q.Get(k), want), http.StatusBadRequest)
			return
		}
	}
	if q.Get("state") == "" || q.Get("nonce") == "" {
		http.Error(w, "authorization request without state or nonce", http.StatusBadRequest)
		return
	}
	raw, err := p.IDToken(q.Get("login_hint"), q.Get("lti_message_hint"), q.Get("nonce"))
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	fmt.Fprintf(w, `<!doctype html><title>Test platform</title><form method="post" action="%s">`+
		`<input type="hidden" name="id_token" value="%s"><input type="hidden" name="state" value="%s">`+
		`<button>Continue</button></form><script>document.forms[0].submit()</script>`,
		html.EscapeString(q.Get("redirect_uri")), html.EscapeString(raw), html.EscapeString(q.Get("state")))
}

// IDToken signs the id_token of a launch of link by sub with nonce
// (applying, once, what Next asked).
func (p *Platform) IDToken(sub, link, nonce string) (string, error) {
	p.mu.Lock()
	var m *Member
	for i := range p.Members {
		if p.Members[i].Sub == sub {
			m = &p.Members[i]
		}
	}
	o := p.next
	p.next = nil
	key := p.keys[len(p.keys)-1]
	now := p.Now()
	claims := map[string]any{
		"iss": p.URL, "aud": p.ClientID, "sub": sub, "nonce": nonce,
		"iat": now.Unix(), "exp": now.Add(5 * time.Minute).Unix(),
		"https://purl.imsglobal.org/spec/lti/claim/deployment_id": p.Deployment,
		"https://purl.imsglobal.org/spec/lti/claim/version":       "1.3.0",
		"https://purl.imsglobal.org/spec/lti/claim/context":       map[string]any{"id": p.ContextID, "label": "RL101", "title": "Rate limiting 101"},
		"https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice": map[string]any{
			"context_memberships_url": p.URL + "/memberships", "service_versions": []string{"2.0"}},
	}
	if m == nil {
		p.mu.Unlock()
		return "", fmt.Errorf("no member %q in the course", sub)
	}
	claims["name"], claims["email"] = m.Name, m.Email
	claims["https://purl.imsglobal.org/spec/lti/claim/roles"] = m.Roles
	ags := map[string]any{"scope": []string{"https://purl.imsglobal.org/spec/lti-ags/scope/lineitem",
		"https://purl.imsglobal.org/spec/lti-ags/scope/score"}, "lineitems": p.URL + "/lineitems"}
	if link == "deeplink" {
		claims["https://purl.imsglobal.org/spec/lti/claim/message_type"] = "LtiDeepLinkingRequest"
		claims["https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings"] = map[string]any{
			"deep_link_return_url": p.URL + "/deeplink", "accept_types": []string{"ltiResourceLink"},
			"accept_presentation_document_targets": []string{"iframe", "window"}, "accept_multiple": true, "data": "opaque-" + nonce[:6]}
	} else {
		l := p.Links[link]
		if l == nil {
			p.mu.Unlock()
			return "", fmt.Errorf("no link %q in the course", link)
		}
		claims["https://purl.imsglobal.org/spec/lti/claim/message_type"] = "LtiResourceLinkRequest"
		claims["https://purl.imsglobal.org/spec/lti/claim/resource_link"] = map[string]any{"id": l.ID, "title": l.Title}
		claims["https://purl.imsglobal.org/spec/lti/claim/target_link_uri"] = p.ToolURL + "/lti/launch"
		claims["https://purl.imsglobal.org/spec/lti/claim/custom"] = l.Custom
		if l.LineItem != "" {
			ags["lineitem"] = l.LineItem
		}
	}
	claims["https://purl.imsglobal.org/spec/lti-ags/claim/endpoint"] = ags
	p.mu.Unlock()
	if o == nil {
		o = &Options{}
	}
	if o.Claims != nil {
		o.Claims(claims)
	}
	raw, err := signWith(o.Key, key, claims)
	if err != nil {
		return "", err
	}
	if o.Raw != nil {
		raw = o.Raw(raw)
	}
	return raw, nil
}

// signWith signs claims as k asks.
func signWith(k KeyChoice, own jose.JSONWebKey, claims map[string]any) (string, error) {
	var sk jose.SigningKey
	switch k {
	case OwnKey:
		sk = jose.SigningKey{Algorithm: jose.RS256, Key: own}
	case UnknownKey:
		other, err := rsa.GenerateKey(rand.Reader, 2048)
		if err != nil {
			return "", err
		}
		sk = jose.SigningKey{Algorithm: jose.RS256, Key: jose.JSONWebKey{Key: other, KeyID: "not-published"}}
	case HMAC:
		sk = jose.SigningKey{Algorithm: jose.HS256, Key: jose.JSONWebKey{Key: []byte("a shared secret of thirty-two bytes!"), KeyID: own.KeyID}}
	case None:
		head, _ := json.Marshal(map[string]string{"alg": "none", "typ": "JWT"})
		body, err := json.Marshal(claims)
		if err != nil {
			return "", err
		}
		return base64.RawURLEncoding.EncodeToString(head) + "." + base64.RawURLEncoding.EncodeToString(body) + ".", nil
	}
	signer, err := jose.NewSigner(sk, (&jose.SignerOptions{}).WithType("JWT"))
	if err != nil {
		return "", err
	}
	return jwt.Signed(signer).Claims(claims).Serialize()
}

// TamperClaims returns raw with its claims changed by change and its
// signature kept: what an attacker who edits a token gets.
func TamperClaims(raw string, change func(map[string]any)) string {
	parts := strings.Split(raw, ".")
	body, _ := base64.RawURLEncoding.DecodeString(parts[1])
	var c map[string]any
	json.Unmarshal(body, &c)
	change(c)
	body, _ = json.Marshal(c)
	parts[1] = base64.RawURLEncoding.EncodeToString(body)
	return strings.Join(parts, ".")
}

func writeJSON(w http.ResponseWriter, contentType string, v any) {
	w.Header().Set("Content-Type", contentType)
	json.NewEncoder(w).Encode(v)
}
