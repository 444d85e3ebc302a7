package lti

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/go-jose/go-jose/v4/jwt"
)

// The claims of LTI 1.3's messages (LTI Core 1.3 §5, Deep Linking 2.0,
// AGS 2.0, NRPS 2.0), by their full names.
const (
	claimMessageType   = "https://purl.imsglobal.org/spec/lti/claim/message_type"
	claimVersion       = "https://purl.imsglobal.org/spec/lti/claim/version"
	claimDeployment    = "https://purl.imsglobal.org/spec/lti/claim/deployment_id"
	claimTargetLink    = "https://purl.imsglobal.org/spec/lti/claim/target_link_uri"
	claimResourceLink  = "https://purl.imsglobal.org/spec/lti/claim/resource_link"
	claimRoles         = "https://purl.imsglobal.org/spec/lti/claim/roles"
	claimContext       = "https://purl.imsglobal.org/spec/lti/claim/context"
	claimCustom        = "https://purl.imsglobal.org/spec/lti/claim/custom"
	claimAGS           = "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint"
	claimNRPS          = "https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice"
	claimDLSettings    = "https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings"
	claimDLContent     = "https://purl.imsglobal.org/spec/lti-dl/claim/content_items"
	claimDLData        = "https://purl.imsglobal.org/spec/lti-dl/claim/data"
	claimDLMessage     = "https://purl.imsglobal.org/spec/lti-dl/claim/msg"
	messageResourceReq = "LtiResourceLinkRequest"
	messageDeepLinkReq = "LtiDeepLinkingRequest"
	messageDeepLinkRes = "LtiDeepLinkingResponse"
	ltiVersion         = "1.3.0"
)

// Scopes of the services the tool asks tokens for.
const (
	ScopeLineItem = "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem"
	ScopeResult   = "https://purl.imsglobal.org/spec/lti-ags/scope/result.readonly"
	ScopeScore    = "https://purl.imsglobal.org/spec/lti-ags/scope/score"
	ScopeRoster   = "https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly"
)

// idToken is a launch's id_token: the standard claims and LTI's.
type idToken struct {
	jwt.Claims
	Azp        string   `json:"azp"`
	Nonce      string   `json:"nonce"`
	Name       string   `json:"name"`
	GivenName  string   `json:"given_name"`
	FamilyName string   `json:"family_name"`
	Email      string   `json:"email"`
	Message    string   `json:"https://purl.imsglobal.org/spec/lti/claim/message_type"`
	Version    string   `json:"https://purl.imsglobal.org/spec/lti/claim/version"`
	Deployment string   `json:"https://purl.imsglobal.org/spec/lti/claim/deployment_id"`
	TargetLink string   `json:"https://purl.imsglobal.org/spec/lti/claim/target_link_uri"`
	Roles      []string `json:"https://purl.imsglobal.org/spec/lti/claim/roles"`
	Link       *struct {
		ID    string `json:"id"`
		Title string `json:"title"`
	} `json:"https://purl.imsglobal.org/spec/lti/claim/resource_link"`
	Context *struct {
		ID    string `json:"id"`
		Label string `json:"label"`
		Title string `json:"title"`
	} `json:"https://purl.imsglobal.org/spec/lti/claim/context"`
	Custom       map[string]any `json:"https://purl.imsglobal.org/spec/lti/claim/custom"`
	Presentation *struct {
		ReturnURL string `json:"return_url"`
	} `json:"https://purl.imsglobal.org/spec/lti/claim/launch_presentation"`
	ToolPlatform *struct {
		URL string `json:"url"`
	} `json:"https://purl.imsglobal.org/spec/lti/claim/tool_platform"`
	AGS  *AGSEndpoint `json:"https://purl.imsglobal.org/spec/lti-ags/claim/endpoint"`
	NRPS *struct {
		URL string `json:"context_memberships_url"`
	} `json:"https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice"`
	DeepLinking *DeepLinkSettings `json:"https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings"`
}

// AGSEndpoint is a launch's Assignment and Grade Services claim: the
// link's own line item, the course's container of them, and the scopes
// the tool may ask for.
type AGSEndpoint struct {
	Scope     []string `json:"scope"`
	LineItems string   `json:"lineitems,omitempty"`
	LineItem  string   `json:"lineitem,omitempty"`
}

// DeepLinkSettings is a deep-linking request's settings: where the
// picked items go back, and what the platform takes.
type DeepLinkSettings struct {
	ReturnURL      string   `json:"deep_link_return_url"`
	AcceptTypes    []string `json:"accept_types"`
	AcceptMultiple bool     `json:"accept_multiple,omitempty"`
	Data           string   `json:"data,omitempty"`
	Title          string   `json:"title,omitempty"`
}

// Roles of LIS (LTI Core 1.3 appendix A) that make a user an instructor of
// the class: a course's instructors and administrators, the institution's
// and the system's administrators. The short forms are LTI 1.1's, which
// some platforms still send.
var instructorRoles = []string{
	"http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor",
	"http://purl.imsglobal.org/vocab/lis/v2/membership#Administrator",
	"http://purl.imsglobal.org/vocab/lis/v2/institution/person#Administrator",
	"http://purl.imsglobal.org/vocab/lis/v2/system/person#Administrator",
	"Instructor", "Administrator",
}

// teaches reports whether roles make a user an instructor.
func teaches(roles []string) bool {
	for _, r := range roles {
		if slices.Contains(instructorRoles, r) {
			return true
		}
	}
	return false
}

// displayName is the name a platform's user gets in the class: the name
// the platform sends (or given and family names, or the email's), made fit
// for the class's names (no commas, quotes or slashes, printable, at most
// 64 bytes); fallback when nothing is left.
func displayName(t *idToken, fallback string) string {
	name := t.Name
	if name == "" {
		name = strings.TrimSpace(t.GivenName + " " + t.FamilyName)
	}
	if name == "" {
		name, _, _ = strings.Cut(t.Email, "@")
	}
	var b strings.Builder
	for _, r := range name {
		switch {
		case strings.ContainsRune(",\"'/\\", r):
		case unicode.IsPrint(r) && b.Len()+utf8.RuneLen(r) <= 56: // room for " (12)" when names clash
			b.WriteRune(r)
		}
	}
	if s := strings.Join(strings.Fields(b.String()), " "); s != "" {
		return s
	}
	return fallback
}
