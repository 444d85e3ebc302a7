package server

import (
	"fmt"
	"net"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"
)

// Hosts is which Host headers the single-learner lab answers. A page of
// another site can make the learner's browser send it requests (DNS
// rebinding: a name of the attacker's that resolves to 127.0.0.1), and
// the browser then lets that page read the answers, grades included, as
// same-origin. Such a request carries the attacker's name as its Host, so
// the lab answers only to names it knows: localhost, the host of --addr
// and those given by --allow-host. An IP address as the Host is always
// answered: rebinding needs a name, and a learner reaching the lab from
// their phone by the machine's address is not attacked.
type Hosts struct {
	// Names are the names answered besides localhost, lower case.
	Names []string
}

// hostName is a Host header without its port.
func hostName(host string) string {
	if n, _, err := net.SplitHostPort(host); err == nil {
		return n
	}
	return host
}

// allows reports whether the request's Host (a name or an address, with
// or without a port) is one the lab answers.
func (h Hosts) allows(host string) bool {
	name := strings.ToLower(strings.TrimSuffix(strings.Trim(hostName(host), "[]"), "."))
	if name == "localhost" || net.ParseIP(name) != nil {
		return true
	}
	for _, n := range h.Names {
		if name == n {
			return true
		}
	}
	return false
}

// checkHosts answers a request for a Host h does not allow with 421
// Misdirected Request and how to allow it; the websocket /live likewise,
// before any upgrade.
func checkHosts(h Hosts) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			host := c.Request().Host
			if h.allows(host) {
				return next(c)
			}
			return c.String(http.StatusMisdirectedRequest, fmt.Sprintf(
				"ratelab: this lab answers to localhost and its own addresses, not to %q, so that another site cannot read your lab through your browser.\n"+
					"If you reach it by that name on purpose, start it with: labserver serve --allow-host %s\n", host, hostName(host)))
		}
	}
}
