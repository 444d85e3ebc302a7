package server

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"ratelab/internal/lti"
	"ratelab/internal/store"
	"ratelab/web/page"
)

// LTI 1.3 (package lti decides what a request means): the login
// initiation, the launch and the tool's keys at the paths platforms are
// configured with; the deep-linking picker and the instructor's page of
// the platforms under /class; and the class's pages made framable by the
// registered platforms.

type ltiHandlers struct {
	*classHandlers
	tool *lti.Tool
}

// routeLTI serves LTI beside the class (g is /class's group).
func (h *classHandlers) routeLTI(e *echo.Echo, g *echo.Group, tool *lti.Tool) {
	x := &ltiHandlers{classHandlers: h, tool: tool}
	limit := middleware.BodyLimit("64K") // an id_token is a few kB
	e.Match([]string{http.MethodGet, http.MethodPost}, lti.LoginPath, x.login, limit)
	e.POST(lti.LaunchPath, x.launch, limit)
	e.Match([]string{http.MethodGet, http.MethodHead}, lti.JWKSPath, x.jwks)
	e.GET(lti.RegisterPath, x.register)
	get := []string{http.MethodGet, http.MethodHead}
	g.Match(get, "/lti", x.page, h.require(store.Instructor))
	g.Match(get, strings.TrimPrefix(lti.PickerPath, "/class"), x.picker, h.require(store.Instructor))
	g.POST(strings.TrimPrefix(lti.PickerPath, "/class"), x.pick, h.require(store.Instructor))
	g.POST("/lti/register-url", x.registerURL, h.require(store.Instructor))
	g.POST("/lti/platforms", x.addPlatform, h.require(store.Instructor))
	g.POST("/lti/retry", x.retry, h.require(store.Instructor))
	e.Use(x.framable)
}

// refused turns a refused login, launch or registration into a 400 whose
// page says why.
func refused(err error) error {
	var re *lti.RefusedError
	if errors.As(err, &re) {
		return echo.NewHTTPError(http.StatusBadRequest, "The learning platform's request was refused: "+re.Message)
	}
	return err
}

func (x *ltiHandlers) login(c echo.Context) error {
	params, err := c.FormParams()
	if err != nil {
		return echo.NewHTTPError(http.StatusBadRequest, "The login initiation's parameters do not parse.")
	}
	l, err := x.tool.Login(c.Request().Context(), params)
	if err != nil {
		return refused(err)
	}
	c.SetCookie(l.Cookie)
	return c.Redirect(http.StatusFound, l.Redirect)
}

// launch takes a launch: the user is signed into the class (a session of
// its own, whose cookie reaches the class inside the platform's frame) and
// sent to the page the resource link maps to, or to the picker.
func (x *ltiHandlers) launch(c echo.Context) error {
	ctx := c.Request().Context()
	form, err := c.FormParams()
	if err != nil {
		return echo.NewHTTPError(http.StatusBadRequest, "The launch's form does not parse.")
	}
	name := lti.StateCookie(form.Get("state"))
	var state string
	if ck, err := c.Cookie(name); err == nil {
		state = ck.Value
	}
	l, err := x.tool.Launch(ctx, form, state)
	if err != nil {
		return refused(err)
	}
	drop := *x.tool.FrameCookie(&http.Cookie{Name: name, Path: "/lti", MaxAge: -1})
	c.SetCookie(&drop)
	raw := make([]byte, 32)
	rand.Read(raw)
	id := base64.RawURLEncoding.EncodeToString(raw)
	if err := x.accounts.CreateSession(ctx, store.Hash(id), l.User.ID, x.clock.Now().Add(x.sessionTTL)); err != nil {
		return err
	}
	c.SetCookie(x.tool.FrameCookie(&http.Cookie{Name: sessionCookie, Value: id, Path: "/class", MaxAge: int(x.sessionTTL / time.Second)}))
	to := l.Landing()
	if l.DeepLinking != nil {
		tok, err := x.tool.PickerToken(ctx, l)
		if err != nil {
			return err
		}
		to += "?" + url.Values{"t": {tok}}.Encode()
	}
	return c.Redirect(http.StatusSeeOther, to)
}

func (x *ltiHandlers) jwks(c echo.Context) error {
	set, err := x.tool.JWKS(c.Request().Context())
	if err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderCacheControl, "max-age=300")
	return c.JSON(http.StatusOK, set)
}

// closeScriptHash allows the registration page's script (page.LTICloseScript).
var closeScriptHash = func() string {
	sum := sha256.Sum256([]byte(page.LTICloseScript))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}()

// register runs a dynamic registration the platform opened, with the key
// of a registration URL an instructor made.
func (x *ltiHandlers) register(c echo.Context) error {
	// The platform may show the page in a frame of its own, before the class
	// knows it: any may frame it (it holds no action to trick anyone into).
	hdr := c.Response().Header()
	hdr.Del(echo.HeaderXFrameOptions)
	hdr.Set(echo.HeaderContentSecurityPolicy, strings.Replace(hdr.Get(echo.HeaderContentSecurityPolicy),
		"frame-ancestors 'none'", "frame-ancestors *", 1))
	q := c.QueryParams()
	p, err := x.tool.Register(c.Request().Context(), q.Get("key"), q.Get("openid_configuration"), q.Get("registration_token"))
	if err != nil {
		return refused(err)
	}
	name := p.Name
	if name == "" {
		name = p.Issuer
	}
	hdr.Set(echo.HeaderContentSecurityPolicy, strings.Replace(hdr.Get(echo.HeaderContentSecurityPolicy),
		"script-src 'self'", "script-src 'self' "+closeScriptHash, 1))
	return render(c, http.StatusOK, page.LTIRegistered(name, x.pageAssets()))
}

func (x *ltiHandlers) picker(c echo.Context) error {
	u, _ := currentUser(c)
	var weeks []page.LTIPick
	for _, w := range lti.Pickables() {
		pw := page.LTIPick{Week: w.Week, Title: w.Title}
		for _, e := range w.Exercises {
			pw.Exercises = append(pw.Exercises, page.LTIPickExercise{ID: e.ID, Title: e.Title, Points: e.Points})
		}
		weeks = append(weeks, pw)
	}
	return render(c, http.StatusOK, page.LTIPicker(u.Name, csrfToken(c), c.QueryParam("t"), weeks, x.pageAssets()))
}

// pick answers the platform with the picked exercises: a page whose form
// posts them to the platform's return URL (which the page's policy then
// allows as a form's action).
func (x *ltiHandlers) pick(c echo.Context) error {
	u, _ := currentUser(c)
	form, err := c.FormParams()
	if err != nil {
		return echo.NewHTTPError(http.StatusBadRequest, "The picker's form does not parse.")
	}
	ret, err := x.tool.DeepLink(c.Request().Context(), form.Get("t"), u.ID, form["pick"])
	if err != nil {
		return refused(err)
	}
	ru, err := url.Parse(ret.URL)
	if err != nil || (ru.Scheme != "https" && ru.Scheme != "http") {
		return echo.NewHTTPError(http.StatusBadRequest, "The platform's return address does not parse: add the exercises again from the platform.")
	}
	hdr := c.Response().Header()
	hdr.Set(echo.HeaderContentSecurityPolicy, strings.Replace(hdr.Get(echo.HeaderContentSecurityPolicy),
		"form-action 'self'", "form-action 'self' "+ru.Scheme+"://"+ru.Host, 1))
	return render(c, http.StatusOK, page.LTIReturn(ret.URL, ret.JWT, ret.Items, x.pageAssets()))
}

// ltiScoresShown is how many scores the platforms' page lists.
const ltiScoresShown = 100

func (x *ltiHandlers) page(c echo.Context) error { return x.show(c, page.LTIView{}) }

// show renders the platforms' page, with v's notice, problems or
// registration URL.
func (x *ltiHandlers) show(c echo.Context, v page.LTIView) error {
	ctx := c.Request().Context()
	u, _ := currentUser(c)
	v.Instructor, v.CSRF = u.Name, csrfToken(c)
	v.Config = page.LTIConfig{Login: x.tool.URL(lti.LoginPath), Launch: x.tool.URL(lti.LaunchPath), JWKS: x.tool.URL(lti.JWKSPath), Register: x.tool.URL(lti.RegisterPath)}
	ps, err := x.tool.Platforms(ctx)
	if err != nil {
		return err
	}
	for _, p := range ps {
		v.Platforms = append(v.Platforms, page.LTIPlatform{Name: p.Name, Issuer: p.Issuer, ClientID: p.ClientID, Deployments: p.Deployments})
	}
	scores, err := x.tool.Scores(ctx, ltiScoresShown)
	if err != nil {
		return err
	}
	for _, s := range scores {
		when := s.ChangedAt
		if s.State == store.LTIPosted {
			when = s.PostedAt
		}
		if s.State == store.LTIFailed {
			v.Failed++
		}
		v.Scores = append(v.Scores, page.LTIScore{Learner: s.Learner, Exercise: s.Exercise, Score: s.Score, Max: s.MaxScore,
			State: string(s.State), Attempts: s.Attempts, Error: s.Error, When: when.In(x.loc).Format("2006-01-02 15:04:05")})
	}
	rosters, err := x.tool.Rosters(ctx)
	if err != nil {
		v.RostersError = "The rosters could not be read: " + err.Error()
	}
	for _, r := range rosters {
		pr := page.LTIRoster{Platform: r.Platform, Course: r.Course, Error: r.Err}
		for _, m := range r.Members {
			pr.Members = append(pr.Members, page.LTIMember{Name: m.Name, Email: m.Email, Class: m.Class, Instructor: m.Instructor})
		}
		v.Rosters = append(v.Rosters, pr)
	}
	status := http.StatusOK
	if len(v.Problems) > 0 {
		status = http.StatusUnprocessableEntity
	}
	return render(c, status, page.LTIPage(v, x.pageAssets()))
}

// registrationValid is how long a registration URL made on the page lasts.
const registrationValid = 7 * 24 * time.Hour

func (x *ltiHandlers) registerURL(c echo.Context) error {
	u, err := x.tool.RegistrationURL(c.Request().Context(), registrationValid)
	if err != nil {
		return err
	}
	return x.show(c, page.LTIView{RegistrationURL: u, Notice: "A registration URL is ready below: paste it into the platform."})
}

func (x *ltiHandlers) addPlatform(c echo.Context) error {
	p := store.LTIPlatform{Name: strings.TrimSpace(c.FormValue("name")), Issuer: strings.TrimSpace(c.FormValue("issuer")),
		ClientID: strings.TrimSpace(c.FormValue("client_id")), Deployments: strings.Fields(c.FormValue("deployments")),
		AuthLoginURL: strings.TrimSpace(c.FormValue("login_url")), TokenURL: strings.TrimSpace(c.FormValue("token_url")),
		JWKSURL: strings.TrimSpace(c.FormValue("jwks_url"))}
	if problems := lti.Problems(p); len(problems) > 0 {
		return x.show(c, page.LTIView{Problems: problems})
	}
	added, err := x.tool.AddPlatform(c.Request().Context(), p)
	if err != nil {
		return err
	}
	notice := "Registered " + p.Issuer + ": its launches are taken now."
	if !added {
		notice = p.Issuer + " was registered already: its deployments " + strings.Join(p.Deployments, ", ") + " are added."
	}
	return x.show(c, page.LTIView{Notice: notice})
}

func (x *ltiHandlers) retry(c echo.Context) error {
	n, err := x.tool.RetryFailed(c.Request().Context())
	if err != nil {
		return err
	}
	return x.show(c, page.LTIView{Notice: strconv.Itoa(n) + " scores are sent again."})
}

// framable lets the registered platforms frame the class's pages (their
// launches open inside the platform): frame-ancestors names them instead
// of 'none', and X-Frame-Options, which cannot name them, goes.
func (x *ltiHandlers) framable(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		p := c.Request().URL.Path
		if strings.HasPrefix(p, "/class") || strings.HasPrefix(p, "/lti/") {
			if origins := x.tool.FrameAncestors(c.Request().Context()); len(origins) > 0 {
				hdr := c.Response().Header()
				hdr.Del(echo.HeaderXFrameOptions)
				hdr.Set(echo.HeaderContentSecurityPolicy, strings.Replace(hdr.Get(echo.HeaderContentSecurityPolicy),
					"frame-ancestors 'none'", "frame-ancestors 'self' "+strings.Join(origins, " "), 1))
			}
		}
		return next(c)
	}
}
