package page

import (
	"testing"
)

func TestErrorPage(t *testing.T) {
	doc := render(t, ErrorPage(404, "Page not found", `There is no lesson called "week-9".`, Assets{}))
	if got := text(one(t, doc, "error-code")); got != "404" {
		t.Errorf("error-code = %q", got)
	}
	if got := text(one(t, doc, "error-message")); got != `There is no lesson called "week-9".` {
		t.Errorf("error-message = %q", got)
	}
	if href, _ := one(t, doc, "home-link").Attr("href"); href != "/" {
		t.Errorf("home link href = %q", href)
	}
}
