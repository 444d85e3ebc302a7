// Package lti puts the class inside a learning platform (Canvas, Moodle,
// Blackboard, Brightspace) with IMS LTI 1.3 and LTI Advantage: a learner
// clicks an assignment there and lands signed in on its exercise, an
// instructor adds exercises from a picker (Deep Linking 2.0), the score
// that counts goes back to the platform's gradebook (Assignment and Grade
// Services 2.0) and the dashboard lists the platform's roster (Names and
// Role Provisioning Services 2.0).
//
// A Tool holds the class's registrations of platforms and its own RSA
// keys (in the store), validates launches as the IMS Security Framework
// says (Launch: the platform's signature, issuer, audience, times,
// nonce used once, state bound to the browser, known deployment; no
// unsigned or HMAC tokens), provisions the platform's users as the class's
// (by the platform's stable sub), and talks to the platform's services
// with OAuth 2 client-credentials tokens it signs itself. The JOSE work is
// github.com/go-jose/go-jose/v4's; nothing here parses a signature by
// hand.
//
// It is not the web server: internal/server routes the paths (Paths),
// sets the session cookie and renders the pages; package lti answers what
// a request means.
package lti
