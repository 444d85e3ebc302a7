package lti_test

import (
	"encoding/json"
	"testing"

	"ratelab/internal/lti"
)

func TestCanvasKey(t *testing.T) {
	raw, err := lti.CanvasKey("https://lab.example.edu/")
	if err != nil {
		t.Fatal(err)
	}
	var key struct {
		Login  string   `json:"oidc_initiation_url"`
		Launch string   `json:"target_link_uri"`
		JWKS   string   `json:"public_jwk_url"`
		Scopes []string `json:"scopes"`
		Ext    []struct {
			Settings struct {
				Placements []struct {
					Message string `json:"message_type"`
				} `json:"placements"`
			} `json:"settings"`
		} `json:"extensions"`
	}
	if err := json.Unmarshal(raw, &key); err != nil {
		t.Fatal(err)
	}
	if key.Login != "https://lab.example.edu/lti/login" || key.Launch != "https://lab.example.edu/lti/launch" || key.JWKS != "https://lab.example.edu/lti/jwks" {
		t.Errorf("Canvas key URLs = %q %q %q", key.Login, key.Launch, key.JWKS)
	}
	if len(key.Scopes) != 4 || len(key.Ext) != 1 || len(key.Ext[0].Settings.Placements) != 2 || key.Ext[0].Settings.Placements[0].Message != "LtiDeepLinkingRequest" {
		t.Errorf("Canvas key: scopes %v, extensions %+v; want the 4 scopes and two deep-linking placements", key.Scopes, key.Ext)
	}
}
