package main

import (
	"path/filepath"
	"strings"
	"testing"

	"ratelab/internal/store/storetest"
)

func TestLTIAddPlatform(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db string) {
		_, stderr, code := labserver(t, "", "lti", "add-platform", "--db", db, "--issuer", "https://canvas.instructure.com", "--login-url", "canvas")
		for _, want := range []string{"the client id is required", "the login URL needs the platform's https:// address", "token URL", "keyset (JWKS) URL", "at least one deployment id is required"} {
			if code != 2 || !strings.Contains(stderr, want) {
				t.Errorf("add-platform with flags missing: exit %d\n%s\nwant 2, saying %q", code, stderr, want)
			}
		}
		add := []string{"lti", "add-platform", "--db", db, "--name", "Canvas", "--issuer", "https://canvas.instructure.com", "--client-id", "10000000000042",
			"--login-url", "https://sso.canvaslms.com/api/lti/authorize_redirect", "--token-url", "https://sso.canvaslms.com/login/oauth2/token",
			"--jwks-url", "https://sso.canvaslms.com/api/lti/security/jwks", "--deployment", "7:abc"}
		out, stderr, code := labserver(t, "", append(add, "--url", "https://lab.example.edu")...)
		if code != 0 || !strings.Contains(out, "registered https://canvas.instructure.com (client id 10000000000042, deployments 7:abc)") ||
			!strings.Contains(out, `"oidc_initiation_url": "https://lab.example.edu/lti/login"`) {
			t.Fatalf("add-platform: exit %d\n%s%s\nwant it registered and the tool's configuration printed", code, out, stderr)
		}
		out, stderr, code = labserver(t, "", append(add[:len(add)-1], "8:def")...)
		if code != 0 || !strings.Contains(out, "was registered already: deployments 8:def added") {
			t.Errorf("add-platform again: exit %d\n%s%s\nwant the deployment added", code, out, stderr)
		}
		out, _, code = labserver(t, "", "lti", "list", "--db", db)
		if code != 0 || !strings.Contains(out, "1 Canvas issuer=https://canvas.instructure.com client-id=10000000000042 deployments=7:abc,8:def") {
			t.Errorf("lti list: exit %d\n%s\nwant Canvas with both deployments", code, out)
		}
	})
}

func TestLTIRotateKey(t *testing.T) {
	db := filepath.Join(t.TempDir(), "class.db")
	out, stderr, code := labserver(t, "", "lti", "rotate-key", "--db", db)
	// The first key is made when the tool first starts, the rotation makes a second.
	if code != 0 || !strings.Contains(out, "2 keys are published at /lti/jwks") {
		t.Errorf("lti rotate-key: exit %d\n%s%s\nwant two keys published", code, out, stderr)
	}
}

func TestLTIRegisterURL(t *testing.T) {
	db := filepath.Join(t.TempDir(), "class.db")
	out, stderr, code := labserver(t, "", "lti", "register-url", "--db", db, "--url", "https://lab.example.edu")
	if code != 0 || !strings.HasPrefix(out, "https://lab.example.edu/lti/register?key=") {
		t.Errorf("lti register-url: exit %d\n%s%s\nwant the registration URL", code, out, stderr)
	}
	if _, stderr, code := labserver(t, "", "lti", "register-url", "--db", db, "--url", "https://lab.example.edu/class"); code != 2 || !strings.Contains(stderr, "without a path") {
		t.Errorf("lti register-url with a path: exit %d\n%s\nwant 2, saying the URL takes no path", code, stderr)
	}
}
