package lti

import "fmt"

// Reason names why a login or a launch was refused: tests and the server
// read it; the sentence is RefusedError's.
type Reason string

// Reasons a launch is refused (the IMS certification suite's negative
// cases among them).
const (
	ReasonMalformed     Reason = "malformed"      // not a JWT, a claim of the wrong shape, a claim missing
	ReasonAlgorithm     Reason = "algorithm"      // alg none, HMAC, or another algorithm the tool does not take
	ReasonUnknownKey    Reason = "unknown-key"    // kid not in the platform's key set
	ReasonSignature     Reason = "signature"      // the signature does not verify: tampered, or another signer
	ReasonPlatform      Reason = "platform"       // issuer and client id registered nowhere
	ReasonAudience      Reason = "audience"       // aud or azp is not the tool's client id
	ReasonExpired       Reason = "expired"        // exp passed
	ReasonIssuedAt      Reason = "issued-at"      // iat in the future
	ReasonNonce         Reason = "nonce"          // a nonce the tool never issued, or of another login
	ReasonNonceReused   Reason = "nonce-reused"   // a nonce used already
	ReasonState         Reason = "state"          // state missing, or not this browser's
	ReasonDeployment    Reason = "deployment"     // deployment id not registered
	ReasonMessage       Reason = "message"        // a message type or version the tool does not handle
	ReasonPlatformError Reason = "platform-error" // the platform answered the login with an error
)

// RefusedError is a refused login or launch: the Reason, and a sentence
// for the person who sees it (or the administrator they show it to).
type RefusedError struct {
	Reason  Reason
	Message string
}

func (e *RefusedError) Error() string {
	return "LTI launch refused (" + string(e.Reason) + "): " + e.Message
}

func refuse(r Reason, format string, args ...any) error {
	return &RefusedError{Reason: r, Message: fmt.Sprintf(format, args...)}
}
