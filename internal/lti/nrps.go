package lti

import (
	"context"
	"net/http"
	"regexp"
	"sort"

	"ratelab/internal/store"
)

// Names and Role Provisioning Services 2.0: the roster of each course
// launches came from, read from the platform, learners who never launched
// included.

// Member is one person of a platform's course.
type Member struct {
	Sub        string
	Name       string
	Email      string
	Status     string // Active, Inactive or Deleted; "" is Active
	Instructor bool
	// Class is the class's name for them once they launched, "" before.
	Class string
}

// Roster is one course's members, or why they could not be read.
type Roster struct {
	Platform string // the platform's name, or its issuer
	Course   string // the course's title, or its id
	Members  []Member
	Err      string
}

// maxRosterPages bounds the pages of one roster the tool reads.
const maxRosterPages = 50

var nextLink = regexp.MustCompile(`<([^>]+)>\s*;\s*rel="?next"?`)

// Rosters reads the roster of every course seen in a launch that offers
// one. A course whose roster cannot be read says why in its Err.
func (t *Tool) Rosters(ctx context.Context) ([]Roster, error) {
	contexts, err := t.st.LTIContexts(ctx)
	if err != nil {
		return nil, err
	}
	var out []Roster
	for _, c := range contexts {
		if c.MembershipsURL == "" {
			continue
		}
		p, err := t.platformByID(ctx, c.PlatformID)
		if err != nil {
			continue
		}
		r := Roster{Platform: p.Name, Course: c.Title}
		if r.Platform == "" {
			r.Platform = p.Issuer
		}
		if r.Course == "" {
			r.Course = c.ContextID
		}
		r.Members, err = t.members(ctx, p, c.MembershipsURL)
		if err != nil {
			r.Err = err.Error()
		}
		out = append(out, r)
	}
	return out, nil
}

// members reads a membership container, following its next pages.
func (t *Tool) members(ctx context.Context, p store.LTIPlatform, url string) ([]Member, error) {
	known, err := t.st.LTIUsers(ctx, p.ID)
	if err != nil {
		return nil, err
	}
	tok, err := t.accessToken(ctx, p, ScopeRoster)
	if err != nil {
		return nil, err
	}
	var out []Member
	for page := 0; url != "" && page < maxRosterPages; page++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return nil, errorf("the roster's URL %q: %v", url, err)
		}
		req.Header.Set("Accept", "application/vnd.ims.lti-nrps.v2.membershipcontainer+json")
		req.Header.Set("Authorization", "Bearer "+tok)
		var body struct {
			Members []struct {
				UserID string   `json:"user_id"`
				Name   string   `json:"name"`
				Given  string   `json:"given_name"`
				Family string   `json:"family_name"`
				Email  string   `json:"email"`
				Status string   `json:"status"`
				Roles  []string `json:"roles"`
			} `json:"members"`
		}
		h, err := t.do(req, &body)
		if err != nil {
			return nil, err
		}
		next := ""
		if m := nextLink.FindStringSubmatch(h.Get("Link")); m != nil {
			next = m[1]
		}
		for _, m := range body.Members {
			name := m.Name
			if name == "" {
				name = m.Given + " " + m.Family
			}
			out = append(out, Member{Sub: m.UserID, Name: name, Email: m.Email, Status: m.Status,
				Instructor: teaches(m.Roles), Class: known[m.UserID].Name})
		}
		url = next
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Instructor != out[j].Instructor {
			return out[i].Instructor
		}
		return out[i].Name < out[j].Name
	})
	return out, nil
}
