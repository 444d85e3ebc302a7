package lti

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"time"

	"ratelab/internal/store"
	"ratelab/lab/course"
)

// A resource link made by hand in the platform (not by deep linking) may
// come without a line item, its launches offering the course's container
// of them instead: the tool then finds the link's line item there, or
// makes one worth the exercise's points (AGS 2.0 §3.2), so that its
// scores have somewhere to go.

// lineItemTimeout bounds finding or making a line item during a launch.
const lineItemTimeout = 10 * time.Second

// linkLineItem returns the line item of a launch's link: the launch's own,
// the one recorded before, or one found or made in the course's container.
// "" when the platform offers none; an error only logs: the launch goes on.
func (t *Tool) linkLineItem(ctx context.Context, p store.LTIPlatform, c *idToken, exercise string) string {
	if c.AGS == nil {
		return ""
	}
	if c.AGS.LineItem != "" {
		return c.AGS.LineItem
	}
	if l, err := t.st.LTILinkOf(ctx, p.ID, c.Link.ID); err == nil && l.LineItemURL != "" && l.Exercise == exercise {
		return l.LineItemURL
	}
	if c.AGS.LineItems == "" || !slices.Contains(c.AGS.Scope, ScopeLineItem) {
		return ""
	}
	ctx, cancel := context.WithTimeout(ctx, lineItemTimeout)
	defer cancel()
	id, err := t.findOrMakeLineItem(ctx, p, c.AGS.LineItems, c.Link.ID, exercise)
	if err != nil {
		t.log.Warn("lti: the link's line item", "platform", p.Issuer, "link", c.Link.ID, "err", err)
	}
	return id
}

// lineItem is AGS's line item, as much as the tool reads and writes.
type lineItem struct {
	ID             string  `json:"id,omitempty"`
	Label          string  `json:"label"`
	ScoreMaximum   float64 `json:"scoreMaximum"`
	ResourceID     string  `json:"resourceId,omitempty"`
	ResourceLinkID string  `json:"resourceLinkId,omitempty"`
	Tag            string  `json:"tag,omitempty"`
}

func (t *Tool) findOrMakeLineItem(ctx context.Context, p store.LTIPlatform, container, linkID, exercise string) (string, error) {
	tok, err := t.accessToken(ctx, p, ScopeLineItem)
	if err != nil {
		return "", err
	}
	u, err := url.Parse(container)
	if err != nil {
		return "", errorf("the line items' URL %q: %v", container, err)
	}
	q := u.Query()
	q.Set("resource_link_id", linkID)
	u.RawQuery = q.Encode()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return "", err
	}
	req.Header.Set("Accept", "application/vnd.ims.lis.v2.lineitemcontainer+json")
	req.Header.Set("Authorization", "Bearer "+tok)
	var items []lineItem
	if _, err := t.do(req, &items); err != nil {
		return "", err
	}
	for _, li := range items {
		if li.ResourceLinkID == linkID && li.ID != "" {
			return li.ID, nil
		}
	}
	e, _ := course.Lookup(exercise)
	body, err := json.Marshal(lineItem{Label: "ratelab: " + e.Title, ScoreMaximum: points(exercise), ResourceID: exercise, ResourceLinkID: linkID, Tag: "ratelab"})
	if err != nil {
		return "", err
	}
	req, err = http.NewRequestWithContext(ctx, http.MethodPost, container, bytes.NewReader(body))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/vnd.ims.lis.v2.lineitem+json")
	req.Header.Set("Accept", "application/vnd.ims.lis.v2.lineitem+json")
	req.Header.Set("Authorization", "Bearer "+tok)
	var made lineItem
	if _, err := t.do(req, &made); err != nil {
		return "", err
	}
	if made.ID == "" {
		return "", errors.New("the platform made a line item without an id")
	}
	return made.ID, nil
}
