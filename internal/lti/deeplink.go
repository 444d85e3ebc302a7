package lti

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/go-jose/go-jose/v4/jwt"

	"ratelab/grader"
	"ratelab/lab/course"
)

// Deep Linking 2.0: an instructor adding ratelab in the platform lands on
// the picker (PickerPath) with a picker token, picks weeks or exercises,
// and the tool answers the platform with one LTI resource link per
// exercise, each with a line item worth the exercise's points. The
// picker token carries the deep-linking settings between the launch and
// the pick, signed by the tool: nothing of it is kept on the server, so
// any server of the class may take the pick.

// pickerAudience marks the tool's own picker tokens.
const pickerAudience = "ratelab-picker"

// pickerTTL is how long an instructor may take to pick.
const pickerTTL = time.Hour

type pickerClaims struct {
	PlatformID int64            `json:"platform"`
	Deployment string           `json:"deployment"`
	Settings   DeepLinkSettings `json:"settings"`
}

// PickerToken returns the signed token the picker carries for a
// deep-linking launch.
func (t *Tool) PickerToken(ctx context.Context, l *Launch) (string, error) {
	if l.DeepLinking == nil {
		return "", errorf("a picker token for a launch that is not deep linking")
	}
	now := t.cfg.Clock.Now()
	return t.sign(ctx, struct {
		jwt.Claims
		pickerClaims
	}{
		jwt.Claims{Subject: strconv.FormatInt(l.User.ID, 10), Audience: jwt.Audience{pickerAudience},
			IssuedAt: jwt.NewNumericDate(now), Expiry: jwt.NewNumericDate(now.Add(pickerTTL))},
		pickerClaims{PlatformID: l.Platform.ID, Deployment: l.Deployment, Settings: *l.DeepLinking},
	})
}

// Pickable is what the picker offers: each week and its gradable
// exercises with their points.
type Pickable struct {
	Week      int
	Title     string
	Exercises []PickableExercise
}

// PickableExercise is one exercise on the picker.
type PickableExercise struct {
	ID     string
	Title  string
	Points float64
}

// Pickables returns the weeks and exercises the picker offers.
func Pickables() []Pickable {
	var out []Pickable
	for _, w := range course.Weeks() {
		pw := Pickable{Week: w.Number, Title: w.Lesson.Title}
		for _, e := range w.Exercises {
			if pts := points(e.ID); pts > 0 {
				pw.Exercises = append(pw.Exercises, PickableExercise{ID: e.ID, Title: e.Title, Points: pts})
			}
		}
		if len(pw.Exercises) > 0 {
			out = append(out, pw)
		}
	}
	return out
}

// points is an exercise's points: the sum over its checks; 0 when the
// grader has no suite for it.
func points(id string) float64 {
	plan, err := grader.Plan(id)
	if err != nil {
		return 0
	}
	var sum float64
	for _, c := range plan {
		sum += c.MaxScore
	}
	return sum
}

// DeepLinkReturn is the answer to the platform: post JWT, as the form
// field "JWT", to URL.
type DeepLinkReturn struct {
	URL   string
	JWT   string
	Items int
}

// DeepLink answers a pick: token is the picker's, userID the instructor
// who picked (the one the token was made for), picks "week:N" or
// "exercise:ID" values. A week brings each of its exercises.
func (t *Tool) DeepLink(ctx context.Context, token string, userID int64, picks []string) (DeepLinkReturn, error) {
	var c struct {
		jwt.Claims
		pickerClaims
	}
	if err := t.verifyOwn(ctx, token, &c); err != nil || !c.Audience.Contains(pickerAudience) {
		return DeepLinkReturn{}, refuse(ReasonMalformed, "this picker has expired or was not made by this class: add the exercises again from the platform")
	}
	if c.Subject != strconv.FormatInt(userID, 10) {
		return DeepLinkReturn{}, refuse(ReasonState, "this picker was opened by another user: add the exercises again from the platform")
	}
	ps, err := t.st.LTIPlatforms(ctx)
	if err != nil {
		return DeepLinkReturn{}, err
	}
	var clientID, issuer string
	for _, p := range ps {
		if p.ID == c.PlatformID {
			clientID, issuer = p.ClientID, p.Issuer
		}
	}
	if clientID == "" {
		return DeepLinkReturn{}, refuse(ReasonPlatform, "the platform of this picker is no longer registered")
	}
	items, err := contentItems(picks, t.URL(LaunchPath))
	if err != nil {
		return DeepLinkReturn{}, err
	}
	if len(items) > 1 && !c.Settings.AcceptMultiple {
		return DeepLinkReturn{}, refuse(ReasonMessage, "the platform takes one item here: pick one exercise")
	}
	now := t.cfg.Clock.Now()
	claims := map[string]any{
		"iss": clientID, "aud": issuer, "iat": now.Unix(), "exp": now.Add(5 * time.Minute).Unix(), "nonce": random(),
		claimMessageType: messageDeepLinkRes, claimVersion: ltiVersion, claimDeployment: c.Deployment,
		claimDLContent: items,
	}
	if c.Settings.Data != "" {
		claims[claimDLData] = c.Settings.Data
	}
	if len(items) == 0 {
		claims[claimDLMessage] = "Nothing was picked."
	}
	raw, err := t.sign(ctx, claims)
	if err != nil {
		return DeepLinkReturn{}, err
	}
	return DeepLinkReturn{URL: c.Settings.ReturnURL, JWT: raw, Items: len(items)}, nil
}

// contentItems are the resource links of picks, each exercise once, in
// course order.
func contentItems(picks []string, launch string) ([]map[string]any, error) {
	want := map[string]bool{}
	for _, p := range picks {
		kind, v, _ := strings.Cut(p, ":")
		switch kind {
		case "exercise":
			if points(v) == 0 {
				return nil, refuse(ReasonMalformed, "there is no exercise %q to add", v)
			}
			want[v] = true
		case "week":
			n, err := strconv.Atoi(v)
			found := false
			for _, pw := range Pickables() {
				if err == nil && pw.Week == n {
					found = true
					for _, e := range pw.Exercises {
						want[e.ID] = true
					}
				}
			}
			if !found {
				return nil, refuse(ReasonMalformed, "there is no week %q to add", v)
			}
		default:
			return nil, refuse(ReasonMalformed, "cannot add %q: pick weeks or exercises", p)
		}
	}
	items := []map[string]any{}
	for _, pw := range Pickables() {
		for _, e := range pw.Exercises {
			if !want[e.ID] {
				continue
			}
			items = append(items, map[string]any{
				"type": "ltiResourceLink", "title": "ratelab: " + e.Title, "url": launch,
				"text":   fmt.Sprintf("Week %d: %s", pw.Week, e.Title),
				"custom": map[string]string{"exercise": e.ID},
				"lineItem": map[string]any{
					"scoreMaximum": e.Points, "label": "ratelab: " + e.Title, "resourceId": e.ID, "tag": "ratelab",
				},
			})
		}
	}
	return items, nil
}
