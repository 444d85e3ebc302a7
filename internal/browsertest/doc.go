// Package browsertest drives the real lab server with a real browser:
// Debian's headless Chromium through github.com/chromedp/chromedp, against
// the same echo handler `labserver serve` runs, on a loopback listener with
// a temporary SQLite database seeded with reports.
//
// Its exported helpers are for the tests in this package (the page tests
// and the visualization's viz_test.go): find the browser or skip, start a
// server, open a browser tab, wait for an element by data-testid, collect
// console errors, save screenshots, build lab.wasm for the server to serve.
//
// The package's TestMain shares one Chromium among its tests
// (ShareBrowser): each test gets a tab of its own, with a browser context
// (cookies, storage, cache) and a viewport of its own, and the tests run
// side by side, as many as go test's -parallel (by default one per core):
// more would not finish sooner. A test's pages animate at most FrameRate
// frames a second (a third of the browser's own), which runs their virtual
// time as fast and costs the browser a third of the drawing; the test of
// the frame loop itself asks for every frame. No verdict depends on
// how fast a tab runs: tests move the pages' virtual time and wait for
// events, and log wall times.
//
// The accessibility tests (Axe, CheckA11y) inject axe-core, which npm ci
// installs from package.json into node_modules (make lint-js runs it before
// make test's browser tests), and run its WCAG 2.1 AA rules in the light
// and the dark color scheme. Without node_modules/axe-core they skip,
// saying to run npm ci, unless CI=true or RATELAB_REQUIRE_BROWSER=1, when
// they fail.
//
// Without Chromium the tests skip, saying how to install it, unless
// RATELAB_REQUIRE_BROWSER=1, when they fail. $CHROMIUM overrides the
// browser's path; screenshots go to $RATELAB_SCREENSHOTS (make test-browser
// sets it), and without it none is taken.
//
// It is not a general browser-automation library, and nothing outside tests
// imports it.
package browsertest
