package lti

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/go-jose/go-jose/v4/jwt"

	"ratelab/internal/store"
)

// The tool's access tokens to a platform's services (IMS Security
// Framework §4.1): OAuth 2 client credentials, the client authenticated by
// a JWT it signs with its own key (RFC 7523), cached until shortly before
// they lapse.

// tokenCache holds access tokens by platform and scopes.
type tokenCache struct {
	mu     sync.Mutex
	tokens map[string]accessToken
}

type accessToken struct {
	value   string
	expires time.Time
}

// maxServiceBytes bounds what the tool reads of a platform's answer.
const maxServiceBytes = 4 << 20

// accessToken returns a token for scopes at p's token endpoint.
func (t *Tool) accessToken(ctx context.Context, p store.LTIPlatform, scopes ...string) (string, error) {
	sort.Strings(scopes)
	scope := strings.Join(scopes, " ")
	key := fmt.Sprint(p.ID, " ", scope)
	now := t.cfg.Clock.Now()
	t.tokens.mu.Lock()
	tok, ok := t.tokens.tokens[key]
	t.tokens.mu.Unlock()
	if ok && now.Before(tok.expires) {
		return tok.value, nil
	}
	assertion, err := t.sign(ctx, jwt.Claims{
		Issuer: p.ClientID, Subject: p.ClientID, Audience: jwt.Audience{p.TokenURL},
		IssuedAt: jwt.NewNumericDate(now), Expiry: jwt.NewNumericDate(now.Add(5 * time.Minute)), ID: random(),
	})
	if err != nil {
		return "", err
	}
	form := url.Values{
		"grant_type":            {"client_credentials"},
		"client_assertion_type": {"urn:ietf:params:oauth:client-assertion-type:jwt-bearer"},
		"client_assertion":      {assertion},
		"scope":                 {scope},
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.TokenURL, strings.NewReader(form.Encode()))
	if err != nil {
		return "", errorf("the platform's token URL %q: %v", p.TokenURL, err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	var body struct {
		AccessToken string `json:"access_token"`
		ExpiresIn   int64  `json:"expires_in"`
	}
	if _, err := t.do(req, &body); err != nil {
		return "", fmt.Errorf("lti: asking %s for an access token: %w", p.TokenURL, err)
	}
	if body.AccessToken == "" {
		return "", errorf("the platform's token endpoint %s answered no access_token", p.TokenURL)
	}
	life := time.Duration(body.ExpiresIn) * time.Second
	if life <= 0 {
		life = time.Hour
	}
	t.tokens.mu.Lock()
	if t.tokens.tokens == nil {
		t.tokens.tokens = map[string]accessToken{}
	}
	// Renewed a minute early, so that a token never lapses on its way.
	t.tokens.tokens[key] = accessToken{value: body.AccessToken, expires: now.Add(life - min(life/2, time.Minute))}
	t.tokens.mu.Unlock()
	return body.AccessToken, nil
}

// forgetToken drops a cached token the platform refused.
func (t *Tool) forgetToken(p store.LTIPlatform, scopes ...string) {
	sort.Strings(scopes)
	t.tokens.mu.Lock()
	delete(t.tokens.tokens, fmt.Sprint(p.ID, " ", strings.Join(scopes, " ")))
	t.tokens.mu.Unlock()
}

// StatusError is a platform's answer other than 2xx.
type StatusError struct {
	Code int
	Body string // its start
}

func (e *StatusError) Error() string {
	if e.Body == "" {
		return fmt.Sprintf("the platform answered %d %s", e.Code, http.StatusText(e.Code))
	}
	return fmt.Sprintf("the platform answered %d %s: %s", e.Code, http.StatusText(e.Code), e.Body)
}

// do sends req and decodes a 2xx answer's JSON into out (nil: discard);
// it returns the answer's header.
func (t *Tool) do(req *http.Request, out any) (http.Header, error) {
	resp, err := t.cfg.HTTP.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxServiceBytes))
	if err != nil {
		return nil, err
	}
	if resp.StatusCode/100 != 2 {
		return nil, &StatusError{Code: resp.StatusCode, Body: strings.TrimSpace(string(body[:min(len(body), 300)]))}
	}
	if out != nil && len(body) > 0 {
		if err := json.Unmarshal(body, out); err != nil {
			return nil, fmt.Errorf("the platform's answer is not the JSON expected: %w", err)
		}
	}
	return resp.Header, nil
}
