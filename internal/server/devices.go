package server

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"ratelab/internal/quota"
)

// deviceCookie marks a browser that signed in as an instructor's name: its
// sign-ins as that name spend a budget of their own (quota.SignIn), which
// failures from anywhere else never touch. OWASP's "Slow Down Online
// Guessing Attacks with Device Cookies".
const deviceCookie = "ratelab_device"

// deviceTTL is how long a browser stays trusted for a name after it last
// signed in as it.
const deviceTTL = 365 * 24 * 60 * 60 // seconds

// devices makes and checks device cookies: "id.mac", where id is 16
// random bytes and mac the HMAC-SHA256 of the name and the id under a key
// made when the server starts (a restart forgets every device: the next
// sign-in of each is an unknown device's, and trusts it again).
type devices struct {
	key []byte
}

func newDevices() *devices {
	key := make([]byte, 32)
	rand.Read(key)
	return &devices{key: key}
}

func (d *devices) mac(name, id string) string {
	m := hmac.New(sha256.New, d.key)
	m.Write([]byte(quota.AccountKey(name) + "\x00" + id))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// cookie returns a new device cookie for name.
func (d *devices) cookie(name string, secure bool) *http.Cookie {
	raw := make([]byte, 16)
	rand.Read(raw)
	id := base64.RawURLEncoding.EncodeToString(raw)
	return &http.Cookie{Name: deviceCookie, Value: id + "." + d.mac(name, id), Path: "/class/login",
		HttpOnly: true, Secure: secure, SameSite: http.SameSiteStrictMode, MaxAge: deviceTTL}
}

// trusted returns the id of the request's device cookie if it was made
// for name, else "".
func (d *devices) trusted(c echo.Context, name string) string {
	ck, err := c.Cookie(deviceCookie)
	if err != nil {
		return ""
	}
	id, mac, ok := strings.Cut(ck.Value, ".")
	if !ok || id == "" || !hmac.Equal([]byte(mac), []byte(d.mac(name, id))) {
		return ""
	}
	return id
}
