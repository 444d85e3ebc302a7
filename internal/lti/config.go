package lti

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	"ratelab/internal/store"
)

// What a platform's administrator types in to register the class, by
// platform: Canvas's developer key JSON and Moodle's manual tool fields.

// scopes are the services the tool asks for: line items and scores (AGS)
// and the roster (NRPS).
var scopes = []string{ScopeLineItem, ScopeResult, ScopeScore, ScopeRoster}

// CanvasKey returns the JSON of a Canvas LTI 1.3 developer key (Admin >
// Developer Keys > + LTI Key > Method: Paste JSON) for the class at base:
// its login, launch and key URLs, the services, and the placements that
// open the picker (deep linking) in assignments and modules.
func CanvasKey(base string) ([]byte, error) {
	base = strings.TrimSuffix(base, "/")
	placement := func(name string) map[string]any {
		return map[string]any{"placement": name, "message_type": messageDeepLinkReq, "target_link_uri": base + LaunchPath, "text": "ratelab"}
	}
	return json.MarshalIndent(map[string]any{
		"title":               "ratelab",
		"description":         "Rate-limiting exercises graded in the class's sandbox; scores go to the gradebook.",
		"oidc_initiation_url": base + LoginPath,
		"target_link_uri":     base + LaunchPath,
		"public_jwk_url":      base + JWKSPath,
		"scopes":              scopes,
		"extensions": []map[string]any{{
			"platform":      "canvas.instructure.com",
			"domain":        strings.TrimPrefix(strings.TrimPrefix(base, "https://"), "http://"),
			"privacy_level": "public", // names and emails: the class shows learners by name
			"settings": map[string]any{
				"placements": []map[string]any{placement("assignment_selection"), placement("link_selection")},
			},
		}},
	}, "", "  ")
}

// MoodleFields returns the fields of Moodle's "Configure a tool manually"
// (Site administration > Plugins > Activity modules > External tool >
// Manage tools) for the class at base, as label and value.
func MoodleFields(base string) [][2]string {
	base = strings.TrimSuffix(base, "/")
	return [][2]string{
		{"Tool name", "ratelab"},
		{"Tool URL", base + LaunchPath},
		{"LTI version", "LTI 1.3"},
		{"Public key type", "Keyset URL"},
		{"Public keyset", base + JWKSPath},
		{"Initiate login URL", base + LoginPath},
		{"Redirection URI(s)", base + LaunchPath},
		{"Supports Deep Linking (Content-Item Message)", "yes"},
		{"Content Selection URL", base + LaunchPath},
		{"IMS LTI Assignment and Grade Services", "Use this service for grade sync and column management"},
		{"IMS LTI Names and Role Provisioning", "Use this service to retrieve members' information as per privacy settings"},
		{"Share launcher's name with tool", "Always"},
		{"Share launcher's email with tool", "Always"},
	}
}

// Problems lists what is wrong with a platform's registration, one
// sentence each, naming the field as the add-platform command's flags
// and the dashboard's form do; none when it can be registered.
func Problems(p store.LTIPlatform) []string {
	var out []string
	if strings.TrimSpace(p.Issuer) == "" {
		out = append(out, "the issuer is required")
	}
	if strings.TrimSpace(p.ClientID) == "" {
		out = append(out, "the client id is required")
	}
	for _, f := range []struct{ name, v string }{{"login URL", p.AuthLoginURL}, {"token URL", p.TokenURL}, {"keyset (JWKS) URL", p.JWKSURL}} {
		if origin(f.v) == "" {
			out = append(out, "the "+f.name+" needs the platform's https:// address")
		}
	}
	if len(p.Deployments) == 0 {
		out = append(out, "at least one deployment id is required")
	}
	return out
}

// AddPlatform registers a platform, or adds the deployments given to the
// one registered with its issuer and client id; it reports whether the
// platform is new.
func (t *Tool) AddPlatform(ctx context.Context, p store.LTIPlatform) (bool, error) {
	if ps := Problems(p); len(ps) > 0 {
		return false, errors.New(strings.Join(ps, "; "))
	}
	defer t.forget()
	return AddPlatform(ctx, t.st, p)
}

// AddPlatform is Tool.AddPlatform on a store, for a command that has no
// tool running.
func AddPlatform(ctx context.Context, st *store.Store, p store.LTIPlatform) (bool, error) {
	if ps := Problems(p); len(ps) > 0 {
		return false, errors.New(strings.Join(ps, "; "))
	}
	_, err := st.AddLTIPlatform(ctx, p)
	if !errors.Is(err, store.ErrExists) {
		return err == nil, err
	}
	ps, err := st.LTIPlatforms(ctx)
	if err != nil {
		return false, err
	}
	for _, q := range ps {
		if q.Issuer == p.Issuer && q.ClientID == p.ClientID {
			for _, d := range p.Deployments {
				if err := st.AddLTIDeployment(ctx, q.ID, d); err != nil {
					return false, err
				}
			}
		}
	}
	return false, nil
}
