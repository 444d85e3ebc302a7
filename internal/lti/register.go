package lti

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"time"

	"ratelab/internal/store"
)

// LTI Dynamic Registration 1.0: the platform's administrator gives the
// platform a registration URL of the class (RegistrationURL); the
// platform opens it with its OpenID configuration's address and a
// registration token; the tool reads the configuration, registers itself
// at the platform's registration endpoint and records the platform with
// the client id (and deployment) the platform answers. A registration URL
// carries a key an instructor made, good for one registration before it
// lapses: without it, anyone could register a platform of their own and
// launch into the class as its instructor.

// RegistrationURL makes a key good for one registration until ttl from
// now, and returns the registration URL that carries it.
func (t *Tool) RegistrationURL(ctx context.Context, ttl time.Duration) (string, error) {
	key := random()
	if err := t.st.AddLTIRegistrationKey(ctx, hashKey(key), t.cfg.Clock.Now().Add(ttl)); err != nil {
		return "", err
	}
	return t.URL(RegisterPath) + "?" + url.Values{"key": {key}}.Encode(), nil
}

func hashKey(key string) []byte {
	sum := sha256.Sum256([]byte("registration:" + key))
	return sum[:]
}

// platformConfig is the part of a platform's OpenID configuration the
// tool reads.
type platformConfig struct {
	Issuer        string `json:"issuer"`
	Authorization string `json:"authorization_endpoint"`
	Token         string `json:"token_endpoint"`
	JWKS          string `json:"jwks_uri"`
	Registration  string `json:"registration_endpoint"`
	LTI           struct {
		Product string `json:"product_family_code"`
	} `json:"https://purl.imsglobal.org/spec/lti-platform-configuration"`
}

// Register runs a dynamic registration: key from the class's registration
// URL, the platform's openid_configuration URL and registration_token.
// It returns the platform as registered.
func (t *Tool) Register(ctx context.Context, key, configURL, token string) (store.LTIPlatform, error) {
	if configURL == "" {
		return store.LTIPlatform{}, refuse(ReasonMalformed, "a dynamic registration needs the platform's openid_configuration: start it from the platform's tool registration page")
	}
	switch err := t.st.UseLTIRegistrationKey(ctx, hashKey(key)); {
	case errors.Is(err, store.ErrUsed):
		return store.LTIPlatform{}, refuse(ReasonPlatform, "this registration URL was used already: make another with labserver lti register-url")
	case errors.Is(err, store.ErrNotFound):
		return store.LTIPlatform{}, refuse(ReasonPlatform, "this registration URL is not one of the class's, or it lapsed: make another with labserver lti register-url")
	case err != nil:
		return store.LTIPlatform{}, err
	}
	var pc platformConfig
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, configURL, nil)
	if err != nil {
		return store.LTIPlatform{}, refuse(ReasonMalformed, "the openid_configuration %q is not a URL", configURL)
	}
	req.Header.Set("Accept", "application/json")
	if _, err := t.do(req, &pc); err != nil {
		return store.LTIPlatform{}, refuse(ReasonPlatform, "reading the platform's configuration at %s: %v", configURL, err)
	}
	if pc.Issuer == "" || !strings.HasPrefix(configURL, strings.TrimSuffix(pc.Issuer, "/")+"/") {
		return store.LTIPlatform{}, refuse(ReasonPlatform, "the platform's configuration at %s names issuer %q, which is not where it was read from", configURL, pc.Issuer)
	}
	for name, v := range map[string]string{"authorization_endpoint": pc.Authorization, "token_endpoint": pc.Token, "jwks_uri": pc.JWKS, "registration_endpoint": pc.Registration} {
		if origin(v) == "" {
			return store.LTIPlatform{}, refuse(ReasonPlatform, "the platform's configuration has no %s", name)
		}
	}
	body, err := json.Marshal(t.registration())
	if err != nil {
		return store.LTIPlatform{}, err
	}
	req, err = http.NewRequestWithContext(ctx, http.MethodPost, pc.Registration, bytes.NewReader(body))
	if err != nil {
		return store.LTIPlatform{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	var answer struct {
		ClientID string `json:"client_id"`
		Tool     struct {
			Deployment string `json:"deployment_id"`
		} `json:"https://purl.imsglobal.org/spec/lti-tool-configuration"`
	}
	if _, err := t.do(req, &answer); err != nil {
		return store.LTIPlatform{}, refuse(ReasonPlatform, "the platform refused the registration at %s: %v", pc.Registration, err)
	}
	if answer.ClientID == "" {
		return store.LTIPlatform{}, refuse(ReasonPlatform, "the platform's answer to the registration has no client_id")
	}
	p := store.LTIPlatform{Issuer: pc.Issuer, ClientID: answer.ClientID, Name: pc.LTI.Product,
		AuthLoginURL: pc.Authorization, TokenURL: pc.Token, JWKSURL: pc.JWKS}
	if answer.Tool.Deployment != "" {
		p.Deployments = []string{answer.Tool.Deployment}
	}
	if _, err := AddPlatform(ctx, t.st, p); err != nil {
		return store.LTIPlatform{}, err
	}
	t.forget()
	return p, nil
}

// registration is the tool's client registration (Dynamic Registration
// §3.5.2): OpenID Connect's fields and LTI's tool configuration.
func (t *Tool) registration() map[string]any {
	launch := t.URL(LaunchPath)
	host := strings.TrimPrefix(strings.TrimPrefix(t.cfg.URL, "https://"), "http://")
	return map[string]any{
		"application_type":           "web",
		"response_types":             []string{"id_token"},
		"grant_types":                []string{"implicit", "client_credentials"},
		"initiate_login_uri":         t.URL(LoginPath),
		"redirect_uris":              []string{launch},
		"client_name":                "ratelab",
		"jwks_uri":                   t.URL(JWKSPath),
		"token_endpoint_auth_method": "private_key_jwt",
		"scope":                      strings.Join(scopes, " "),
		"https://purl.imsglobal.org/spec/lti-tool-configuration": map[string]any{
			"domain":          host,
			"target_link_uri": launch,
			"claims":          []string{"iss", "sub", "name", "given_name", "family_name", "email"},
			"messages": []map[string]any{
				{"type": messageResourceReq, "target_link_uri": launch, "label": "ratelab"},
				{"type": messageDeepLinkReq, "target_link_uri": launch, "label": "ratelab",
					"placements": []string{"ContentArea", "assignment_selection", "link_selection"}},
			},
		},
	}
}
