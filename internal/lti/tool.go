package lti

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"ratelab/internal/store"
)

// The tool's paths, which platforms are configured with: they are part of
// the class's contract with them.
const (
	LoginPath    = "/lti/login"      // OIDC third-party-initiated login
	LaunchPath   = "/lti/launch"     // the redirect URI: launches arrive here
	JWKSPath     = "/lti/jwks"       // the tool's public keys
	RegisterPath = "/lti/register"   // LTI Dynamic Registration
	PickerPath   = "/class/lti/pick" // the deep-linking picker, behind a deep-linking launch
)

// Clock is the tool's time: token lifetimes and logins are judged on it.
type Clock interface{ Now() time.Time }

// Config is what New needs.
type Config struct {
	Store *store.Store
	Clock Clock
	// URL is the class's public address as the platforms and the browsers
	// reach it, e.g. https://lab.example.edu (no path): the tool's paths
	// are under it.
	URL string
	// HTTP talks to the platforms (their keys, tokens, grades, rosters);
	// nil means a client with a 20s timeout.
	HTTP *http.Client
	Log  *slog.Logger
	// Leeway is the clock skew allowed on a token's times; 0 means 1 minute.
	Leeway time.Duration
	// LoginTTL is how long a login may take between /lti/login and the
	// launch; 0 means 10 minutes.
	LoginTTL time.Duration
	// RetryDelay is the wait before posting a score again after a failure,
	// doubled each time up to an hour; 0 means 10s. MaxAttempts posts are
	// tried before a score is marked failed; 0 means 12.
	RetryDelay  time.Duration
	MaxAttempts int
}

// Tool is the class as an LTI 1.3 tool. Its methods are safe for
// concurrent use.
type Tool struct {
	cfg     Config
	st      *store.Store
	log     *slog.Logger
	keys    *platformKeys
	tokens  *tokenCache
	wake    chan struct{} // a score was queued: post
	mu      sync.Mutex
	origins []string     // the registered platforms' origins (frame-ancestors)
	readAt  time.Time    // when origins were read
	river   *riverPoster // Postgres: River posts the scores (river.go)
}

// New returns the tool of the class whose store is cfg.Store, creating its
// signing key on first use.
func New(ctx context.Context, cfg Config) (*Tool, error) {
	if cfg.Store == nil || cfg.Clock == nil {
		return nil, errors.New("lti: New needs a Store and a Clock")
	}
	u, err := url.Parse(cfg.URL)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || strings.Trim(u.Path, "/") != "" {
		return nil, fmt.Errorf("lti: the class's public URL %q must be an address such as https://lab.example.edu, without a path", cfg.URL)
	}
	cfg.URL = u.Scheme + "://" + u.Host
	if cfg.HTTP == nil {
		cfg.HTTP = &http.Client{Timeout: 20 * time.Second}
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	if cfg.Leeway <= 0 {
		cfg.Leeway = time.Minute
	}
	if cfg.LoginTTL <= 0 {
		cfg.LoginTTL = 10 * time.Minute
	}
	if cfg.RetryDelay <= 0 {
		cfg.RetryDelay = 10 * time.Second
	}
	if cfg.MaxAttempts <= 0 {
		cfg.MaxAttempts = 12
	}
	t := &Tool{cfg: cfg, st: cfg.Store, log: cfg.Log,
		keys: newPlatformKeys(cfg.HTTP, cfg.Clock), tokens: &tokenCache{}, wake: make(chan struct{}, 1)}
	if _, err := t.signingKey(ctx); err != nil {
		return nil, err
	}
	return t, nil
}

// URL returns the tool's address of one of its paths.
func (t *Tool) URL(path string) string { return t.cfg.URL + path }

// Secure reports whether the tool is served over HTTPS: its cookies are
// then SameSite=None and Secure, so that they reach it inside the
// platform's frame.
func (t *Tool) Secure() bool { return strings.HasPrefix(t.cfg.URL, "https://") }

// Platforms returns the registered platforms.
func (t *Tool) Platforms(ctx context.Context) ([]store.LTIPlatform, error) {
	return t.st.LTIPlatforms(ctx)
}

// originsEvery is how often FrameAncestors reads the platforms again (one
// registered by another process shows within it).
const originsEvery = 30 * time.Second

// FrameAncestors returns the origins allowed to frame the class's pages:
// the registered platforms' (of their issuer and login URLs, and those
// their launches named: see pageOrigins).
func (t *Tool) FrameAncestors(ctx context.Context) []string {
	now := t.cfg.Clock.Now()
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.origins != nil && now.Sub(t.readAt) < originsEvery && !now.Before(t.readAt) {
		return t.origins
	}
	ps, err := t.st.LTIPlatforms(ctx)
	if err != nil {
		t.log.Warn("lti: reading the platforms", "err", err)
		return t.origins
	}
	seen, err := t.st.LTIOrigins(ctx)
	if err != nil {
		t.log.Warn("lti: reading the platforms' origins", "err", err)
		return t.origins
	}
	out := []string{}
	for _, p := range ps {
		seen = append(seen, p.Issuer, p.AuthLoginURL)
	}
	for _, s := range seen {
		if o := origin(s); o != "" && !contains(out, o) {
			out = append(out, o)
		}
	}
	t.origins, t.readAt = out, now
	return out
}

// forget drops the cached origins, after a registration.
func (t *Tool) forget() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.origins = nil
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// origin returns a URL's scheme and host, "" if it has none.
func origin(s string) string {
	u, err := url.Parse(s)
	if err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") {
		return ""
	}
	return u.Scheme + "://" + u.Host
}
