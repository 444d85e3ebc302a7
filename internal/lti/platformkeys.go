package lti

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/go-jose/go-jose/v4"
)

// platformKeys caches the platforms' public keys (their JWKS), by URL.
// A key set is read again after keysMaxAge, and at once when a token names
// a key it lacks (the platform rotated its keys), but not more often than
// refetchEvery: tokens with made-up key ids cannot make the tool hammer a
// platform.
type platformKeys struct {
	client *http.Client
	clock  Clock
	mu     sync.Mutex
	sets   map[string]*keySet
}

type keySet struct {
	mu      sync.Mutex // one fetch at a time per URL
	set     jose.JSONWebKeySet
	fetched time.Time // zero: never
}

const (
	keysMaxAge   = time.Hour
	refetchEvery = 10 * time.Second
	maxJWKSBytes = 1 << 20
)

func newPlatformKeys(client *http.Client, clock Clock) *platformKeys {
	return &platformKeys{client: client, clock: clock, sets: map[string]*keySet{}}
}

// key returns the key kid of the key set at url; kid "" takes the set's
// only key. A kid the cached set lacks fetches the set again, once.
func (p *platformKeys) key(ctx context.Context, url, kid string) (*jose.JSONWebKey, error) {
	p.mu.Lock()
	ks := p.sets[url]
	if ks == nil {
		ks = &keySet{}
		p.sets[url] = ks
	}
	p.mu.Unlock()
	ks.mu.Lock()
	defer ks.mu.Unlock()
	now := p.clock.Now()
	stale := ks.fetched.IsZero() || now.Sub(ks.fetched) > keysMaxAge || now.Before(ks.fetched)
	if !stale {
		if k := pick(ks.set, kid); k != nil {
			return k, nil
		}
		stale = now.Sub(ks.fetched) >= refetchEvery
	}
	if stale {
		set, err := p.fetch(ctx, url)
		if err != nil {
			return nil, err
		}
		ks.set, ks.fetched = set, now
	}
	if k := pick(ks.set, kid); k != nil {
		return k, nil
	}
	if kid == "" {
		return nil, refuse(ReasonUnknownKey, "the id_token names no key (kid) and the platform's key set at %s does not hold exactly one", url)
	}
	return nil, refuse(ReasonUnknownKey, "the id_token is signed with key %q, which the platform's key set at %s does not hold (read again just now)", kid, url)
}

// pick finds a signing key by kid (kid "": the only one).
func pick(set jose.JSONWebKeySet, kid string) *jose.JSONWebKey {
	var found []jose.JSONWebKey
	for _, k := range set.Keys {
		if k.Use != "" && k.Use != "sig" {
			continue
		}
		if kid == "" || k.KeyID == kid {
			found = append(found, k)
		}
	}
	if len(found) != 1 {
		return nil
	}
	return &found[0]
}

// fetch reads a key set.
func (p *platformKeys) fetch(ctx context.Context, url string) (jose.JSONWebKeySet, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return jose.JSONWebKeySet{}, fmt.Errorf("lti: the platform's key set URL %q: %w", url, err)
	}
	req.Header.Set("Accept", "application/json")
	resp, err := p.client.Do(req)
	if err != nil {
		return jose.JSONWebKeySet{}, fmt.Errorf("lti: reading the platform's keys at %s: %w", url, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return jose.JSONWebKeySet{}, fmt.Errorf("lti: reading the platform's keys at %s: %s", url, resp.Status)
	}
	var set jose.JSONWebKeySet
	if err := json.NewDecoder(io.LimitReader(resp.Body, maxJWKSBytes)).Decode(&set); err != nil {
		return jose.JSONWebKeySet{}, fmt.Errorf("lti: the platform's keys at %s are not a JWKS: %w", url, err)
	}
	return set, nil
}
