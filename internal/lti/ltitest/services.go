package ltitest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
)

// The platform's services: its token endpoint and what the tokens open
// (AGS line items and scores, NRPS memberships), and the return of deep
// linking.

// toolKeys reads the tool's JWKS.
func (p *Platform) toolKeys() (jose.JSONWebKeySet, error) {
	var set jose.JSONWebKeySet
	resp, err := http.Get(p.ToolURL + "/lti/jwks")
	if err != nil {
		return set, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return set, fmt.Errorf("the tool's JWKS answered %s", resp.Status)
	}
	return set, json.NewDecoder(resp.Body).Decode(&set)
}

// verifyTool verifies a JWT the tool signed, against its JWKS, into dest.
func (p *Platform) verifyTool(raw string, dest ...any) error {
	tok, err := jwt.ParseSigned(raw, []jose.SignatureAlgorithm{jose.RS256})
	if err != nil {
		return err
	}
	set, err := p.toolKeys()
	if err != nil {
		return err
	}
	keys := set.Key(tok.Headers[0].KeyID)
	if len(keys) != 1 {
		return fmt.Errorf("the tool signed with key %q, which its JWKS does not publish", tok.Headers[0].KeyID)
	}
	return tok.Claims(keys[0].Key, dest...)
}

// token is the OAuth 2 token endpoint: client credentials, the client
// authenticated by a JWT it signed (RFC 7523).
func (p *Platform) token(w http.ResponseWriter, r *http.Request) {
	if r.FormValue("grant_type") != "client_credentials" ||
		r.FormValue("client_assertion_type") != "urn:ietf:params:oauth:client-assertion-type:jwt-bearer" {
		oauthError(w, "unsupported_grant_type", "client_credentials with a JWT bearer assertion expected")
		return
	}
	var c jwt.Claims
	if err := p.verifyTool(r.FormValue("client_assertion"), &c); err != nil {
		oauthError(w, "invalid_client", err.Error())
		return
	}
	err := c.ValidateWithLeeway(jwt.Expected{Issuer: p.ClientID, Subject: p.ClientID, AnyAudience: jwt.Audience{p.URL + "/token"}, Time: p.Now()}, time.Minute)
	if err != nil || c.ID == "" {
		oauthError(w, "invalid_client", fmt.Sprintf("assertion: %v (jti %q)", err, c.ID))
		return
	}
	scopes := strings.Fields(r.FormValue("scope"))
	tok := "token-" + c.ID[:8]
	p.mu.Lock()
	p.tokens[tok] = scopes
	p.mu.Unlock()
	writeJSON(w, "application/json", map[string]any{"access_token": tok, "token_type": "Bearer", "expires_in": 3600, "scope": strings.Join(scopes, " ")})
}

func oauthError(w http.ResponseWriter, code, why string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusBadRequest)
	json.NewEncoder(w).Encode(map[string]string{"error": code, "error_description": why})
}

// allowed reports whether the request's bearer token holds scope,
// answering 401 or 403 if not.
func (p *Platform) allowed(w http.ResponseWriter, r *http.Request, scope string) bool {
	tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	p.mu.Lock()
	scopes, known := p.tokens[tok]
	p.mu.Unlock()
	switch {
	case !ok || !known:
		http.Error(w, "no valid access token", http.StatusUnauthorized)
		return false
	case !slices.Contains(scopes, scope):
		http.Error(w, "the token lacks scope "+scope, http.StatusForbidden)
		return false
	}
	return true
}

const (
	scopeLineItem = "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem"
	scopeScore    = "https://purl.imsglobal.org/spec/lti-ags/scope/score"
	scopeRoster   = "https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly"
	lineItemType  = "application/vnd.ims.lis.v2.lineitem+json"
)

func (p *Platform) listLineItems(w http.ResponseWriter, r *http.Request) {
	if !p.allowed(w, r, scopeLineItem) {
		return
	}
	items := []LineItem{}
	for _, li := range p.LineItems() {
		if rl := r.URL.Query().Get("resource_link_id"); rl == "" || li.ResourceLinkID == rl {
			items = append(items, li)
		}
	}
	writeJSON(w, "application/vnd.ims.lis.v2.lineitemcontainer+json", items)
}

func (p *Platform) addLineItem(w http.ResponseWriter, r *http.Request) {
	if !p.allowed(w, r, scopeLineItem) {
		return
	}
	var li LineItem
	if err := json.NewDecoder(r.Body).Decode(&li); err != nil || li.Label == "" || li.ScoreMaximum <= 0 {
		http.Error(w, "a line item needs a label and a scoreMaximum above 0", http.StatusBadRequest)
		return
	}
	p.mu.Lock()
	li.ID = fmt.Sprintf("%s/lineitems/%d", p.URL, len(p.lineItems)+1)
	p.lineItems = append(p.lineItems, &li)
	p.mu.Unlock()
	w.WriteHeader(http.StatusCreated)
	writeJSON(w, lineItemType, li)
}

func (p *Platform) lineItem(id string) *LineItem {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, li := range p.lineItems {
		if li.ID == p.URL+"/lineitems/"+id {
			return li
		}
	}
	return nil
}

func (p *Platform) getLineItem(w http.ResponseWriter, r *http.Request) {
	if !p.allowed(w, r, scopeLineItem) {
		return
	}
	li := p.lineItem(r.PathValue("id"))
	if li == nil {
		http.NotFound(w, r)
		return
	}
	writeJSON(w, lineItemType, li)
}

// postScore takes a score (AGS 2.0 §3.4): for a known member, with the
// score media type, at most the maximum.
func (p *Platform) postScore(w http.ResponseWriter, r *http.Request) {
	if !p.allowed(w, r, scopeScore) {
		return
	}
	if ct := r.Header.Get("Content-Type"); ct != "application/vnd.ims.lis.v1.score+json" {
		http.Error(w, "scores are application/vnd.ims.lis.v1.score+json, not "+ct, http.StatusUnsupportedMediaType)
		return
	}
	li := p.lineItem(r.PathValue("id"))
	if li == nil {
		http.NotFound(w, r)
		return
	}
	var s Score
	if err := json.NewDecoder(r.Body).Decode(&s); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	if _, err := time.Parse(time.RFC3339Nano, s.Timestamp); err != nil || s.UserID == "" || s.ScoreMaximum <= 0 || s.ScoreGiven > s.ScoreMaximum {
		http.Error(w, fmt.Sprintf("a score needs userId, a timestamp and 0 <= scoreGiven <= scoreMaximum: %+v", s), http.StatusBadRequest)
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.failScores > 0 {
		p.failScores--
		http.Error(w, "the gradebook is down for maintenance", http.StatusServiceUnavailable)
		return
	}
	p.scores[li.ID] = append(p.scores[li.ID], s)
	w.WriteHeader(http.StatusOK)
}

// PageMembers makes the roster come n members a page (0: all at once),
// each page naming the next in its Link header, as NRPS 2.0 pages.
func (p *Platform) PageMembers(n int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.perPage = n
}

// memberships is NRPS 2.0's membership container of the course.
func (p *Platform) memberships(w http.ResponseWriter, r *http.Request) {
	if !p.allowed(w, r, scopeRoster) {
		return
	}
	p.mu.Lock()
	members := []map[string]any{}
	for _, m := range p.Members {
		members = append(members, map[string]any{"user_id": m.Sub, "name": m.Name, "email": m.Email, "roles": m.Roles, "status": "Active"})
	}
	per := p.perPage
	p.mu.Unlock()
	if per > 0 {
		page, _ := strconv.Atoi(r.URL.Query().Get("page"))
		from := min(page*per, len(members))
		to := min(from+per, len(members))
		if to < len(members) {
			w.Header().Set("Link", fmt.Sprintf(`<%s/memberships?page=%d>; rel="next"`, p.URL, page+1))
		}
		members = members[from:to]
	}
	writeJSON(w, "application/vnd.ims.lti-nrps.v2.membershipcontainer+json", map[string]any{
		"id": p.URL + "/memberships", "context": map[string]any{"id": p.ContextID, "title": "Rate limiting 101"}, "members": members})
}

// deepLinkReturn takes a deep-linking response: a JWT the tool signed,
// whose resource links with a line item each get a column.
func (p *Platform) deepLinkReturn(w http.ResponseWriter, r *http.Request) {
	var c jwt.Claims
	var dl struct {
		Message    string           `json:"https://purl.imsglobal.org/spec/lti/claim/message_type"`
		Version    string           `json:"https://purl.imsglobal.org/spec/lti/claim/version"`
		Deployment string           `json:"https://purl.imsglobal.org/spec/lti/claim/deployment_id"`
		Items      []map[string]any `json:"https://purl.imsglobal.org/spec/lti-dl/claim/content_items"`
		Data       string           `json:"https://purl.imsglobal.org/spec/lti-dl/claim/data"`
	}
	if err := p.verifyTool(r.FormValue("JWT"), &c, &dl); err != nil {
		http.Error(w, "deep-linking response: "+err.Error(), http.StatusBadRequest)
		return
	}
	if err := c.ValidateWithLeeway(jwt.Expected{Issuer: p.ClientID, AnyAudience: jwt.Audience{p.URL}, Time: p.Now()}, time.Minute); err != nil {
		http.Error(w, "deep-linking response: "+err.Error(), http.StatusBadRequest)
		return
	}
	if dl.Message != "LtiDeepLinkingResponse" || dl.Version != "1.3.0" || dl.Deployment != p.Deployment || !strings.HasPrefix(dl.Data, "opaque-") {
		http.Error(w, fmt.Sprintf("deep-linking response: wrong message, version, deployment or data: %+v", dl), http.StatusBadRequest)
		return
	}
	p.mu.Lock()
	for i, it := range dl.Items {
		p.DeepLinked = append(p.DeepLinked, it)
		id := fmt.Sprintf("dl-%d-%d", len(p.Links)+1, i)
		l := &Link{ID: id, Title: fmt.Sprint(it["title"]), Custom: map[string]string{}}
		if custom, ok := it["custom"].(map[string]any); ok {
			for k, v := range custom {
				l.Custom[k] = fmt.Sprint(v)
			}
		}
		if li, ok := it["lineItem"].(map[string]any); ok {
			max, _ := li["scoreMaximum"].(float64)
			item := &LineItem{ID: fmt.Sprintf("%s/lineitems/%d", p.URL, len(p.lineItems)+1), Label: fmt.Sprint(li["label"]),
				ScoreMaximum: max, ResourceLinkID: id}
			if rid, ok := li["resourceId"].(string); ok {
				item.ResourceID = rid
			}
			p.lineItems = append(p.lineItems, item)
			l.LineItem = item.ID
		}
		p.Links[id] = l
	}
	p.mu.Unlock()
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	fmt.Fprintf(w, `<!doctype html><title>Test platform</title><p data-testid="deep-linked">%d items added</p>`, len(dl.Items))
}

// registrationToken is the token the platform hands the tool with its
// configuration, for one dynamic registration.
const registrationToken = "registration-token-1"

// DynamicRegistration returns the URL the platform opens to register the
// tool whose registration URL is toolURL (LTI Dynamic Registration).
func (p *Platform) DynamicRegistration(toolURL string) string {
	sep := "?"
	if strings.Contains(toolURL, "?") {
		sep = "&"
	}
	return toolURL + sep + url.Values{"openid_configuration": {p.URL + "/.well-known/openid-configuration"},
		"registration_token": {registrationToken}}.Encode()
}

// Registered returns the tool's client registration, nil before it
// registered.
func (p *Platform) Registered() map[string]any {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.registration
}

func (p *Platform) openIDConfiguration(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, "application/json", map[string]any{
		"issuer": p.URL, "authorization_endpoint": p.URL + "/auth", "token_endpoint": p.URL + "/token",
		"jwks_uri": p.URL + "/jwks", "registration_endpoint": p.URL + "/register",
		"scopes_supported": []string{"openid", scopeLineItem, scopeScore, scopeRoster},
		"https://purl.imsglobal.org/spec/lti-platform-configuration": map[string]any{
			"product_family_code": "test-platform", "version": "1.0",
			"messages_supported": []map[string]any{{"type": "LtiResourceLinkRequest"}, {"type": "LtiDeepLinkingRequest"}}},
	})
}

// register takes a tool's client registration: it answers the client id
// and deployment the launches use.
func (p *Platform) register(w http.ResponseWriter, r *http.Request) {
	if r.Header.Get("Authorization") != "Bearer "+registrationToken {
		http.Error(w, "registration without the registration token", http.StatusUnauthorized)
		return
	}
	var reg map[string]any
	if err := json.NewDecoder(r.Body).Decode(&reg); err != nil || reg["initiate_login_uri"] == nil || reg["jwks_uri"] == nil {
		http.Error(w, "a registration needs initiate_login_uri and jwks_uri", http.StatusBadRequest)
		return
	}
	p.mu.Lock()
	p.registration = reg
	p.mu.Unlock()
	reg["client_id"] = p.ClientID
	reg["https://purl.imsglobal.org/spec/lti-tool-configuration"].(map[string]any)["deployment_id"] = p.Deployment
	writeJSON(w, "application/json", reg)
}
