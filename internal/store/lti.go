package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
)

// LTI 1.3's tables (migration 8 on SQLite, 7 on Postgres): what package
// lti keeps. The store holds the rows; what they mean, and every check of
// a launch, is package lti's.

// ErrUsed is returned by UseLTILogin for a nonce that was used already.
var ErrUsed = errors.New("store: already used")

// LTIPlatform is a learning platform (Canvas, Moodle, …) registered with
// the class: who it is (Issuer, ClientID: the tool's id there) and where
// it signs users in, issues tokens and publishes its keys.
type LTIPlatform struct {
	ID           int64
	Issuer       string
	ClientID     string
	Name         string // what the dashboard calls it; may be ""
	AuthLoginURL string // OIDC authorization endpoint
	TokenURL     string // OAuth 2 token endpoint (grades, rosters)
	JWKSURL      string // the platform's public keys
	Deployments  []string
	CreatedAt    time.Time
}

const ltiPlatformCols = `id, issuer, client_id, name, auth_login_url, token_url, jwks_url, created_at_ns`

// AddLTIPlatform registers a platform with its deployments and returns it
// with its ID; ErrExists if its issuer and client id are registered
// already (add deployments with AddLTIDeployment).
func (s *Store) AddLTIPlatform(ctx context.Context, p LTIPlatform) (LTIPlatform, error) {
	p.CreatedAt = s.clock.Now().UTC()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return LTIPlatform{}, fmt.Errorf("store: %w", err)
	}
	defer tx.Rollback()
	err = tx.QueryRowContext(ctx, `INSERT INTO lti_platforms (issuer, client_id, name, auth_login_url, token_url, jwks_url, created_at_ns)
VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (issuer, client_id) DO NOTHING RETURNING id`,
		p.Issuer, p.ClientID, p.Name, p.AuthLoginURL, p.TokenURL, p.JWKSURL, ns(p.CreatedAt)).Scan(&p.ID)
	if errors.Is(err, sql.ErrNoRows) {
		return LTIPlatform{}, fmt.Errorf("%w: a platform with issuer %s and client id %s", ErrExists, p.Issuer, p.ClientID)
	}
	if err != nil {
		return LTIPlatform{}, fmt.Errorf("store: %w", err)
	}
	for _, d := range p.Deployments {
		if err := addDeployment(ctx, tx, p.ID, d); err != nil {
			return LTIPlatform{}, err
		}
	}
	if err := tx.Commit(); err != nil {
		return LTIPlatform{}, fmt.Errorf("store: %w", err)
	}
	return p, nil
}

// AddLTIDeployment adds a deployment id to a platform (nothing if it has
// it already).
func (s *Store) AddLTIDeployment(ctx context.Context, platformID int64, deployment string) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	defer tx.Rollback()
	if err := addDeployment(ctx, tx, platformID, deployment); err != nil {
		return err
	}
	return tx.Commit()
}

func addDeployment(ctx context.Context, tx *tx, platformID int64, deployment string) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO lti_deployments (platform_id, deployment_id) VALUES (?, ?)
ON CONFLICT (platform_id, deployment_id) DO NOTHING`, platformID, deployment)
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	return nil
}

// LTIPlatforms returns every registered platform with its deployments, in
// the order they were registered.
func (s *Store) LTIPlatforms(ctx context.Context) ([]LTIPlatform, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+ltiPlatformCols+` FROM lti_platforms ORDER BY id`)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	defer rows.Close()
	var out []LTIPlatform
	byID := map[int64]int{}
	for rows.Next() {
		var (
			p  LTIPlatform
			at int64
		)
		if err := rows.Scan(&p.ID, &p.Issuer, &p.ClientID, &p.Name, &p.AuthLoginURL, &p.TokenURL, &p.JWKSURL, &at); err != nil {
			return nil, fmt.Errorf("store: %w", err)
		}
		p.CreatedAt = time.Unix(0, at).UTC()
		byID[p.ID] = len(out)
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	rows.Close()
	drows, err := s.db.QueryContext(ctx, `SELECT platform_id, deployment_id FROM lti_deployments ORDER BY platform_id, deployment_id`)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	defer drows.Close()
	for drows.Next() {
		var (
			id int64
			d  string
		)
		if err := drows.Scan(&id, &d); err != nil {
			return nil, fmt.Errorf("store: %w", err)
		}
		if i, ok := byID[id]; ok {
			out[i].Deployments = append(out[i].Deployments, d)
		}
	}
	return out, drows.Err()
}

// AddLTIOrigin records an origin a platform's pages are served from, and
// reports whether it is new.
func (s *Store) AddLTIOrigin(ctx context.Context, platformID int64, origin string) (bool, error) {
	res, err := s.db.ExecContext(ctx, `INSERT INTO lti_origins (platform_id, origin) VALUES (?, ?) ON CONFLICT (platform_id, origin) DO NOTHING`, platformID, origin)
	if err != nil {
		return false, fmt.Errorf("store: %w", err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

// LTIOrigins returns every origin recorded, of every platform.
func (s *Store) LTIOrigins(ctx context.Context) ([]string, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT DISTINCT origin FROM lti_origins ORDER BY origin`)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var o string
		if err := rows.Scan(&o); err != nil {
			return nil, fmt.Errorf("store: %w", err)
		}
		out = append(out, o)
	}
	return out, rows.Err()
}

// LTIKey is one of the tool's own signing keys.
type LTIKey struct {
	Kid        string
	PrivatePEM string    // PKCS #8
	CreatedAt  time.Time // the newest key not retired signs
	Retired    bool      // signs no more; still published, for tokens signed before
}

// AddLTIKey stores a new signing key and retires every other one.
func (s *Store) AddLTIKey(ctx context.Context, kid, privatePEM string) error {
	now := ns(s.clock.Now())
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `UPDATE lti_keys SET retired_at_ns = ? WHERE retired_at_ns IS NULL`, now); err != nil {
		return fmt.Errorf("store: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO lti_keys (kid, private_key, created_at_ns) VALUES (?, ?, ?)`, kid, privatePEM, now); err != nil {
		return fmt.Errorf("store: %w", err)
	}
	return tx.Commit()
}

// LTIKeys returns the tool's signing keys, newest first.
func (s *Store) LTIKeys(ctx context.Context) ([]LTIKey, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT kid, private_key, created_at_ns, retired_at_ns FROM lti_keys ORDER BY created_at_ns DESC, kid`)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	defer rows.Close()
	var out []LTIKey
	for rows.Next() {
		var (
			k       LTIKey
			at      int64
			retired sql.NullInt64
		)
		if err := rows.Scan(&k.Kid, &k.PrivatePEM, &at, &retired); err != nil {
			return nil, fmt.Errorf("store: %w", err)
		}
		k.CreatedAt, k.Retired = time.Unix(0, at).UTC(), retired.Valid
		out = append(out, k)
	}
	return out, rows.Err()
}

// StartLTILogin records an OIDC login the tool started: its nonce, the
// hash of the state bound to the browser, the platform and when it lapses.
// Logins lapsed for a day are deleted.
func (s *Store) StartLTILogin(ctx context.Context, nonce string, stateHash []byte, platformID int64, expires time.Time) error {
	if _, err := s.db.ExecContext(ctx, `DELETE FROM lti_logins WHERE expires_at_ns < ?`, ns(s.clock.Now().Add(-24*time.Hour))); err != nil {
		return fmt.Errorf("store: %w", err)
	}
	_, err := s.db.ExecContext(ctx, `INSERT INTO lti_logins (nonce, state_hash, platform_id, expires_at_ns) VALUES (?, ?, ?, ?)`,
		nonce, stateHash, platformID, ns(expires))
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	return nil
}

// LTILogin is a login StartLTILogin recorded.
type LTILogin struct {
	StateHash  []byte
	PlatformID int64
	Expires    time.Time
}

// UseLTILogin marks a login's nonce used and returns the login: ErrUsed if
// it was used already, ErrNotFound if the tool never issued it.
func (s *Store) UseLTILogin(ctx context.Context, nonce string) (LTILogin, error) {
	var (
		l   LTILogin
		exp int64
	)
	err := s.db.QueryRowContext(ctx, `UPDATE lti_logins SET used_at_ns = ? WHERE nonce = ? AND used_at_ns IS NULL
RETURNING state_hash, platform_id, expires_at_ns`, ns(s.clock.Now()), nonce).Scan(&l.StateHash, &l.PlatformID, &exp)
	if errors.Is(err, sql.ErrNoRows) {
		var n int
		if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM lti_logins WHERE nonce = ?`, nonce).Scan(&n); err != nil {
			return LTILogin{}, fmt.Errorf("store: %w", err)
		}
		if n > 0 {
			return LTILogin{}, ErrUsed
		}
		return LTILogin{}, ErrNotFound
	}
	if err != nil {
		return LTILogin{}, fmt.Errorf("store: %w", err)
	}
	l.Expires = time.Unix(0, exp).UTC()
	return l, nil
}

// ProvisionLTIUser returns the class's user for a platform's user (sub),
// creating it on first sight with the name the platform sent (made unique
// with " (2)", " (3)", … if a user has it) and role. A user seen before
// takes role now if it changed: the platform decides who teaches.
func (s *Store) ProvisionLTIUser(ctx context.Context, platformID int64, sub, name string, role Role) (User, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return User{}, fmt.Errorf("store: %w", err)
	}
	defer tx.Rollback()
	u, err := scanUser(tx.QueryRowContext(ctx, `SELECT u.id, u.name, u.role, u.created_at_ns FROM lti_users l JOIN users u ON u.id = l.user_id
WHERE l.platform_id = ? AND l.sub = ?`, platformID, sub))
	switch {
	case err == nil:
		if u.Role != role {
			if _, err := tx.ExecContext(ctx, `UPDATE users SET role = ? WHERE id = ?`, string(role), u.ID); err != nil {
				return User{}, fmt.Errorf("store: %w", err)
			}
			u.Role = role
		}
	case errors.Is(err, ErrNotFound):
		now := s.clock.Now().UTC()
		u = User{Name: name, Role: role, CreatedAt: now}
		for i := 2; ; i++ {
			err = tx.QueryRowContext(ctx, `INSERT INTO users (name, role, created_at_ns) VALUES (?, ?, ?)
ON CONFLICT (name) DO NOTHING RETURNING id`, u.Name, string(role), ns(now)).Scan(&u.ID)
			if !errors.Is(err, sql.ErrNoRows) {
				break
			}
			u.Name = fmt.Sprintf("%s (%d)", name, i)
		}
		if err != nil {
			return User{}, fmt.Errorf("store: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO lti_users (platform_id, sub, user_id) VALUES (?, ?, ?)`, platformID, sub, u.ID); err != nil {
			return User{}, fmt.Errorf("store: %w", err)
		}
	default:
		return User{}, err
	}
	if err := tx.Commit(); err != nil {
		return User{}, fmt.Errorf("store: %w", err)
	}
	return u, nil
}

// LTIUsers returns, for one platform, its users' subs mapped to the class's
// users.
func (s *Store) LTIUsers(ctx context.Context, platformID int64) (map[string]User, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT l.sub, u.id, u.name, u.role, u.created_at_ns FROM lti_users l JOIN users u ON u.id = l.user_id
WHERE l.platform_id = ?`, platformID)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	defer rows.Close()
	out := map[string]User{}
	for rows.Next() {
		var (
			sub string
			u   User
			at  int64
		)
		if err := rows.Scan(&sub, &u.ID, &u.Name, &u.Role, &at); err != nil {
			return nil, fmt.Errorf("store: %w", err)
		}
		u.CreatedAt = time.Unix(0, at).UTC()
		out[sub] = u
	}
	return out, rows.Err()
}

// LTIContext is a platform's course as launches describe it: where its
// roster (NRPS) and its line items (AGS) are.
type LTIContext struct {
	PlatformID     int64
	ContextID      string
	Title          string
	MembershipsURL string
	LineItemsURL   string
	UpdatedAt      time.Time
}

// SaveLTIContext records a course seen in a launch; an empty field keeps
// what was recorded before.
func (s *Store) SaveLTIContext(ctx context.Context, c LTIContext) error {
	_, err := s.db.ExecContext(ctx, `INSERT INTO lti_contexts (platform_id, context_id, title, memberships_url, lineitems_url, updated_at_ns)
VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (platform_id, context_id) DO UPDATE SET
	title = CASE WHEN excluded.title = '' THEN lti_contexts.title ELSE excluded.title END,
	memberships_url = CASE WHEN excluded.memberships_url = '' THEN lti_contexts.memberships_url ELSE excluded.memberships_url END,
	lineitems_url = CASE WHEN excluded.lineitems_url = '' THEN lti_contexts.lineitems_url ELSE excluded.lineitems_url END,
	updated_at_ns = excluded.updated_at_ns`,
		c.PlatformID, c.ContextID, c.Title, c.MembershipsURL, c.LineItemsURL, ns(s.clock.Now()))
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	return nil
}

// LTIContexts returns every course seen, the latest launched first.
func (s *Store) LTIContexts(ctx context.Context) ([]LTIContext, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT platform_id, context_id, title, memberships_url, lineitems_url, updated_at_ns
FROM lti_contexts ORDER BY updated_at_ns DESC, platform_id, context_id`)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	defer rows.Close()
	var out []LTIContext
	for rows.Next() {
		var (
			c  LTIContext
			at int64
		)
		if err := rows.Scan(&c.PlatformID, &c.ContextID, &c.Title, &c.MembershipsURL, &c.LineItemsURL, &at); err != nil {
			return nil, fmt.Errorf("store: %w", err)
		}
		c.UpdatedAt = time.Unix(0, at).UTC()
		out = append(out, c)
	}
	return out, rows.Err()
}

// LTILink is a platform's resource link mapped to an exercise, with the
// line item its scores go to ("" while the platform gave none).
type LTILink struct {
	PlatformID     int64
	ResourceLinkID string
	ContextID      string
	Exercise       string
	LineItemURL    string
}

// SaveLTILink records a resource link launched by a user (sub on the
// platform, userID in the class): the link's exercise and line item as
// the launch says (an empty line item keeps the one recorded), and that
// the user reached it.
func (s *Store) SaveLTILink(ctx context.Context, l LTILink, userID int64, sub string) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `INSERT INTO lti_links (platform_id, resource_link_id, context_id, exercise, lineitem_url, updated_at_ns)
VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (platform_id, resource_link_id) DO UPDATE SET
	context_id = excluded.context_id, exercise = excluded.exercise,
	lineitem_url = CASE WHEN excluded.lineitem_url = '' THEN lti_links.lineitem_url ELSE excluded.lineitem_url END,
	updated_at_ns = excluded.updated_at_ns`,
		l.PlatformID, l.ResourceLinkID, l.ContextID, l.Exercise, l.LineItemURL, ns(s.clock.Now())); err != nil {
		return fmt.Errorf("store: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO lti_link_users (platform_id, resource_link_id, user_id, sub) VALUES (?, ?, ?, ?)
ON CONFLICT (platform_id, resource_link_id, user_id) DO NOTHING`, l.PlatformID, l.ResourceLinkID, userID, sub); err != nil {
		return fmt.Errorf("store: %w", err)
	}
	return tx.Commit()
}

// LTILinkOf returns a recorded resource link, or ErrNotFound.
func (s *Store) LTILinkOf(ctx context.Context, platformID int64, linkID string) (LTILink, error) {
	l := LTILink{PlatformID: platformID, ResourceLinkID: linkID}
	err := s.db.QueryRowContext(ctx, `SELECT context_id, exercise, lineitem_url FROM lti_links WHERE platform_id = ? AND resource_link_id = ?`,
		platformID, linkID).Scan(&l.ContextID, &l.Exercise, &l.LineItemURL)
	if errors.Is(err, sql.ErrNoRows) {
		return LTILink{}, ErrNotFound
	}
	if err != nil {
		return LTILink{}, fmt.Errorf("store: %w", err)
	}
	return l, nil
}

// LTIGraded is a learner's exercise whose score goes to a platform's line
// item: they launched a link of it that has one.
type LTIGraded struct {
	PlatformID  int64
	LineItemURL string
	UserID      int64
	Learner     string // the class's name for them
	Sub         string // the platform's
	Exercise    string
}

// LTIGradedCells returns every learner's exercise whose score goes to a
// line item; learner, if not "", keeps that learner's only.
func (s *Store) LTIGradedCells(ctx context.Context, learner string) ([]LTIGraded, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT DISTINCT l.platform_id, l.lineitem_url, u.id, u.name, lu.sub, l.exercise
FROM lti_links l JOIN lti_link_users lu ON lu.platform_id = l.platform_id AND lu.resource_link_id = l.resource_link_id
JOIN users u ON u.id = lu.user_id
WHERE l.lineitem_url != '' AND (?1 = '' OR u.name = ?1)
ORDER BY u.name, l.exercise, l.lineitem_url`, learner)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	defer rows.Close()
	var out []LTIGraded
	for rows.Next() {
		var g LTIGraded
		if err := rows.Scan(&g.PlatformID, &g.LineItemURL, &g.UserID, &g.Learner, &g.Sub, &g.Exercise); err != nil {
			return nil, fmt.Errorf("store: %w", err)
		}
		out = append(out, g)
	}
	return out, rows.Err()
}

// LTIScoreState is where a score to post is.
type LTIScoreState string

// Score states: Pending (to post, at NotBefore at the earliest), Posted,
// or Failed (given up after its retries: Error says why).
const (
	LTIPending LTIScoreState = "pending"
	LTIPosted  LTIScoreState = "posted"
	LTIFailed  LTIScoreState = "failed"
)

// LTIScore is a learner's score to post to a line item, and how posting it
// went. Version grows each time the score to post changes, so a post of an
// older version never marks a newer one posted.
type LTIScore struct {
	ID           int64
	PlatformID   int64
	LineItemURL  string
	UserID       int64
	Learner      string // only from LTIScores
	Sub          string
	Exercise     string
	SubmissionID int64
	Score        float64
	MaxScore     float64
	Version      int64
	State        LTIScoreState
	Attempts     int
	NotBefore    time.Time
	Error        string
	ChangedAt    time.Time
	PostedAt     time.Time
}

// QueueLTIScore records a score to post, unless that line item and learner
// already have this very score of this submission (posted or on its way):
// a grading told twice posts once. It reports whether it queued. hand, if
// not nil, is given the queued row's id and version inside the
// transaction that queues it: what it writes commits with the row, or
// neither does (the Postgres poster inserts its River job there).
func (s *Store) QueueLTIScore(ctx context.Context, sc LTIScore, hand func(ctx context.Context, tx *sql.Tx, id, version int64) error) (bool, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return false, fmt.Errorf("store: %w", err)
	}
	defer tx.Rollback()
	var id, version int64
	err = tx.QueryRowContext(ctx, `INSERT INTO lti_scores (platform_id, lineitem_url, user_id, sub, exercise, submission_id, score, max_score, state, changed_at_ns)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?) ON CONFLICT (lineitem_url, user_id) DO UPDATE SET
	platform_id = excluded.platform_id, sub = excluded.sub, exercise = excluded.exercise,
	submission_id = excluded.submission_id, score = excluded.score, max_score = excluded.max_score,
	version = lti_scores.version + 1, state = 'pending', attempts = 0, not_before_ns = 0, error = NULL,
	changed_at_ns = excluded.changed_at_ns
WHERE lti_scores.submission_id != excluded.submission_id OR lti_scores.score != excluded.score OR lti_scores.max_score != excluded.max_score
RETURNING id, version`,
		sc.PlatformID, sc.LineItemURL, sc.UserID, sc.Sub, sc.Exercise, sc.SubmissionID, sc.Score, sc.MaxScore, ns(s.clock.Now())).Scan(&id, &version)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("store: %w", err)
	}
	if hand != nil {
		if err := hand(ctx, tx.Tx, id, version); err != nil {
			return false, err
		}
	}
	if err := tx.Commit(); err != nil {
		return false, fmt.Errorf("store: %w", err)
	}
	return true, nil
}

const ltiScoreCols = `id, platform_id, lineitem_url, user_id, sub, exercise, submission_id, score, max_score, version, state, attempts, not_before_ns, error, changed_at_ns, posted_at_ns`

func scanLTIScore(sc scanner, extra ...any) (LTIScore, error) {
	var (
		v           LTIScore
		nb, changed int64
		errv        sql.NullString
		posted      sql.NullInt64
		state       string
		scoreDst    = []any{&v.ID, &v.PlatformID, &v.LineItemURL, &v.UserID, &v.Sub, &v.Exercise, &v.SubmissionID, &v.Score, &v.MaxScore, &v.Version, &state, &v.Attempts, &nb, &errv, &changed, &posted}
	)
	if err := sc.Scan(append(scoreDst, extra...)...); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return LTIScore{}, ErrNotFound
		}
		return LTIScore{}, fmt.Errorf("store: %w", err)
	}
	v.State, v.Error = LTIScoreState(state), errv.String
	v.NotBefore, v.ChangedAt, v.PostedAt = time.Unix(0, nb).UTC(), time.Unix(0, changed).UTC(), fromNs(posted)
	return v, nil
}

// ClaimLTIScore takes the next pending score due at now, counts the
// attempt and holds it until lease: another poster takes it after that
// only (this one died). ok is false when none is due.
func (s *Store) ClaimLTIScore(ctx context.Context, lease time.Time) (sc LTIScore, ok bool, err error) {
	lock := ""
	if s.Backend() == Postgres {
		lock = " FOR UPDATE SKIP LOCKED"
	}
	sc, err = scanLTIScore(s.db.QueryRowContext(ctx, `UPDATE lti_scores SET attempts = attempts + 1, not_before_ns = ?1
WHERE id = (SELECT id FROM lti_scores WHERE state = 'pending' AND not_before_ns <= ?2 ORDER BY not_before_ns, id LIMIT 1`+lock+`)
RETURNING `+ltiScoreCols, ns(lease), ns(s.clock.Now())))
	if errors.Is(err, ErrNotFound) {
		return LTIScore{}, false, nil
	}
	return sc, err == nil, err
}

// ClaimLTIScoreOf is ClaimLTIScore of one row, if it is still pending at
// version (a River job carries both): ok is false when a newer version
// replaced it or it was posted.
func (s *Store) ClaimLTIScoreOf(ctx context.Context, id, version int64, lease time.Time) (sc LTIScore, ok bool, err error) {
	sc, err = scanLTIScore(s.db.QueryRowContext(ctx, `UPDATE lti_scores SET attempts = attempts + 1, not_before_ns = ?
WHERE id = ? AND version = ? AND state = 'pending'
RETURNING `+ltiScoreCols, ns(lease), id, version))
	if errors.Is(err, ErrNotFound) {
		return LTIScore{}, false, nil
	}
	return sc, err == nil, err
}

// PostedLTIScore marks a score posted, if it is still the version posted
// (a newer one waits its turn), and reports whether it was.
func (s *Store) PostedLTIScore(ctx context.Context, id, version int64) (bool, error) {
	res, err := s.db.ExecContext(ctx, `UPDATE lti_scores SET state = 'posted', posted_at_ns = ?, error = NULL WHERE id = ? AND version = ? AND state = 'pending'`,
		ns(s.clock.Now()), id, version)
	if err != nil {
		return false, fmt.Errorf("store: %w", err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

// FailedLTIScore records why posting a score's version failed: it is tried
// again at retry, or (giveUp) marked failed for good.
func (s *Store) FailedLTIScore(ctx context.Context, id, version int64, why string, retry time.Time, giveUp bool) error {
	state := LTIPending
	if giveUp {
		state = LTIFailed
	}
	_, err := s.db.ExecContext(ctx, `UPDATE lti_scores SET state = ?, error = ?, not_before_ns = ? WHERE id = ? AND version = ? AND state = 'pending'`,
		string(state), cut(why, MaxText), ns(retry), id, version)
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	return nil
}

// RequeueFailedLTIScores queues again every score given up on (a new
// version each, with its attempts from 0), handing each to hand inside the
// transaction as QueueLTIScore does, and returns how many.
func (s *Store) RequeueFailedLTIScores(ctx context.Context, hand func(ctx context.Context, tx *sql.Tx, id, version int64) error) (int, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, fmt.Errorf("store: %w", err)
	}
	defer tx.Rollback()
	rows, err := tx.QueryContext(ctx, `UPDATE lti_scores SET state = 'pending', attempts = 0, not_before_ns = 0, error = NULL,
	version = version + 1, changed_at_ns = ? WHERE state = 'failed' RETURNING id, version`, ns(s.clock.Now()))
	if err != nil {
		return 0, fmt.Errorf("store: %w", err)
	}
	var queued [][2]int64
	for rows.Next() {
		var v [2]int64
		if err := rows.Scan(&v[0], &v[1]); err != nil {
			rows.Close()
			return 0, fmt.Errorf("store: %w", err)
		}
		queued = append(queued, v)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, fmt.Errorf("store: %w", err)
	}
	for _, v := range queued {
		if hand != nil {
			if err := hand(ctx, tx.Tx, v[0], v[1]); err != nil {
				return 0, err
			}
		}
	}
	if err := tx.Commit(); err != nil {
		return 0, fmt.Errorf("store: %w", err)
	}
	return len(queued), nil
}

// PendingLTIScores returns the scores waiting to be posted: their id and
// version.
func (s *Store) PendingLTIScores(ctx context.Context) ([][2]int64, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, version FROM lti_scores WHERE state = 'pending' ORDER BY id`)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	defer rows.Close()
	var out [][2]int64
	for rows.Next() {
		var v [2]int64
		if err := rows.Scan(&v[0], &v[1]); err != nil {
			return nil, fmt.Errorf("store: %w", err)
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// LTIScores returns the scores to post and posted, the latest changed
// first, at most limit, with each learner's name.
func (s *Store) LTIScores(ctx context.Context, limit int) ([]LTIScore, error) {
	cols := "s." + strings.ReplaceAll(ltiScoreCols, ", ", ", s.")
	rows, err := s.db.QueryContext(ctx, `SELECT `+cols+`, u.name FROM lti_scores s JOIN users u ON u.id = s.user_id
ORDER BY s.changed_at_ns DESC, s.id DESC LIMIT ?`, limit)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	defer rows.Close()
	var out []LTIScore
	for rows.Next() {
		var name string
		sc, err := scanLTIScore(rows, &name)
		if err != nil {
			return nil, err
		}
		sc.Learner = name
		out = append(out, sc)
	}
	return out, rows.Err()
}

// AddLTIRegistrationKey records a dynamic registration URL's key (its
// hash), valid until expires.
func (s *Store) AddLTIRegistrationKey(ctx context.Context, keyHash []byte, expires time.Time) error {
	if _, err := s.db.ExecContext(ctx, `INSERT INTO lti_registration_keys (key_hash, expires_at_ns) VALUES (?, ?)`, keyHash, ns(expires)); err != nil {
		return fmt.Errorf("store: %w", err)
	}
	return nil
}

// UseLTIRegistrationKey spends a registration key: ErrUsed if it was
// spent, ErrNotFound if it never was one or it lapsed.
func (s *Store) UseLTIRegistrationKey(ctx context.Context, keyHash []byte) error {
	now := ns(s.clock.Now())
	res, err := s.db.ExecContext(ctx, `UPDATE lti_registration_keys SET used_at_ns = ? WHERE key_hash = ? AND used_at_ns IS NULL AND expires_at_ns > ?`, now, keyHash, now)
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 1 {
		return nil
	}
	var used sql.NullInt64
	err = s.db.QueryRowContext(ctx, `SELECT used_at_ns FROM lti_registration_keys WHERE key_hash = ?`, keyHash).Scan(&used)
	if err == nil && used.Valid {
		return ErrUsed
	}
	return ErrNotFound
}
