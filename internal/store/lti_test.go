package store_test

import (
	"errors"
	"testing"
	"time"

	"ratelab/internal/store"
	"ratelab/internal/store/storetest"
)

// TestLTIScoreVersions: a score queued twice unchanged is queued once; a
// post of an older version never marks a newer one posted; a claim holds
// the row until its lease.
func TestLTIScoreVersions(t *testing.T) {
	storetest.Each(t, func(t *testing.T, target string) {
		s := open(t, target)
		ctx := t.Context()
		p, err := s.AddLTIPlatform(ctx, store.LTIPlatform{Issuer: "https://lms.example", ClientID: "c", AuthLoginURL: "https://lms.example/auth",
			TokenURL: "https://lms.example/token", JWKSURL: "https://lms.example/jwks", Deployments: []string{"d"}})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.AddLTIPlatform(ctx, store.LTIPlatform{Issuer: "https://lms.example", ClientID: "c"}); !errors.Is(err, store.ErrExists) {
			t.Errorf("the same issuer and client id again: %v, want ErrExists", err)
		}
		ada, err := s.ProvisionLTIUser(ctx, p.ID, "sub-ada", "Ada", store.Learner)
		if err != nil {
			t.Fatal(err)
		}
		sc := store.LTIScore{PlatformID: p.ID, LineItemURL: "https://lms.example/li/1", UserID: ada.ID, Sub: "sub-ada", Exercise: "gcra", SubmissionID: 1, Score: 10, MaxScore: 25}
		for i, want := range []bool{true, false} {
			if queued, err := s.QueueLTIScore(ctx, sc, nil); err != nil || queued != want {
				t.Errorf("QueueLTIScore #%d = %v, %v; want %v", i+1, queued, err, want)
			}
		}
		v1, ok, err := s.ClaimLTIScore(ctx, time.Now().Add(time.Hour))
		if err != nil || !ok || v1.Version != 1 || v1.Attempts != 1 {
			t.Fatalf("ClaimLTIScore = %+v, %v, %v; want version 1, attempt 1", v1, ok, err)
		}
		if _, ok, _ := s.ClaimLTIScore(ctx, time.Now().Add(time.Hour)); ok {
			t.Errorf("a claimed score was claimed again before its lease ran out")
		}
		// A new score while version 1 is on its way.
		sc.Score = 20
		if queued, err := s.QueueLTIScore(ctx, sc, nil); err != nil || !queued {
			t.Fatalf("QueueLTIScore of a new score = %v, %v", queued, err)
		}
		if posted, err := s.PostedLTIScore(ctx, v1.ID, v1.Version); err != nil || posted {
			t.Errorf("PostedLTIScore of version 1 after version 2 was queued = %v, %v; want false", posted, err)
		}
		v2, ok, err := s.ClaimLTIScore(ctx, time.Now().Add(time.Hour))
		if err != nil || !ok || v2.Version != 2 || v2.Score != 20 {
			t.Fatalf("ClaimLTIScore = %+v, %v, %v; want version 2 of 20", v2, ok, err)
		}
		if posted, err := s.PostedLTIScore(ctx, v2.ID, v2.Version); err != nil || !posted {
			t.Errorf("PostedLTIScore of version 2 = %v, %v; want true", posted, err)
		}
		all, err := s.LTIScores(ctx, 10)
		if err != nil || len(all) != 1 || all[0].State != store.LTIPosted || all[0].Score != 20 || all[0].Learner != "Ada" {
			t.Errorf("LTIScores = %+v, %v; want Ada's 20, posted", all, err)
		}
	})
}

func TestLTIOneTimeSecrets(t *testing.T) {
	storetest.Each(t, func(t *testing.T, target string) {
		s := open(t, target)
		ctx := t.Context()
		p, err := s.AddLTIPlatform(ctx, store.LTIPlatform{Issuer: "https://lms.example", ClientID: "c"})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.StartLTILogin(ctx, "nonce-1", []byte("state-hash"), p.ID, time.Now().Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		if l, err := s.UseLTILogin(ctx, "nonce-1"); err != nil || string(l.StateHash) != "state-hash" || l.PlatformID != p.ID {
			t.Errorf("UseLTILogin = %+v, %v", l, err)
		}
		if _, err := s.UseLTILogin(ctx, "nonce-1"); !errors.Is(err, store.ErrUsed) {
			t.Errorf("UseLTILogin twice: %v, want ErrUsed", err)
		}
		if _, err := s.UseLTILogin(ctx, "nonce-never"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("UseLTILogin of a nonce never issued: %v, want ErrNotFound", err)
		}
		if err := s.AddLTIRegistrationKey(ctx, []byte("key"), time.Unix(0, 0)); err != nil {
			t.Fatal(err)
		}
		if err := s.UseLTIRegistrationKey(ctx, []byte("key")); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("a lapsed registration key: %v, want ErrNotFound", err)
		}
	})
}
