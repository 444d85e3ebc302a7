package ltitest

import (
	"fmt"
	"html"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
)

// Browser returns an HTTP client that keeps cookies, as a browser does,
// for driving launches without one.
func Browser() *http.Client {
	jar, _ := cookiejar.New(nil)
	return &http.Client{Jar: jar}
}

var (
	formAction = regexp.MustCompile(`<form method="post" action="([^"]*)">`)
	formInput  = regexp.MustCompile(`<input type="hidden" name="([^"]+)" value="([^"]*)">`)
)

// LaunchForm starts a launch of link by sub in client and returns the
// form the platform's page would post to the tool: where, and what.
func (p *Platform) LaunchForm(client *http.Client, sub, link string) (action string, form url.Values, err error) {
	resp, err := client.Get(p.StartURL(sub, link))
	if err != nil {
		return "", nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return "", nil, err
	}
	m := formAction.FindSubmatch(body)
	if resp.StatusCode != http.StatusOK || m == nil {
		return "", nil, fmt.Errorf("starting a launch: %s: %s", resp.Status, body)
	}
	form = url.Values{}
	for _, in := range formInput.FindAllSubmatch(body, -1) {
		form.Set(string(in[1]), html.UnescapeString(string(in[2])))
	}
	return html.UnescapeString(string(m[1])), form, nil
}
