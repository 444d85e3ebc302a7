package lti

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"fmt"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
)

// The tool's own keys: an RSA key pair made once and kept in the store,
// whose public half the platforms read at JWKSPath. Rotate makes a new one
// that signs from then on; the old ones stay published, so that a token
// signed just before still verifies.

// keyBits is the size of the tool's RSA keys.
const keyBits = 2048

// signing is the tool's current key.
type signing struct {
	kid string
	key *rsa.PrivateKey
}

// signingKey returns the key that signs, making it if the store has none.
func (t *Tool) signingKey(ctx context.Context) (signing, error) {
	keys, err := t.st.LTIKeys(ctx)
	if err != nil {
		return signing{}, err
	}
	for _, k := range keys {
		if !k.Retired {
			return parseKey(k.Kid, k.PrivatePEM)
		}
	}
	return t.Rotate(ctx)
}

// Rotate makes a new signing key, which signs from now on; the previous
// keys stay in the JWKS.
func (t *Tool) Rotate(ctx context.Context) (signing, error) {
	key, err := rsa.GenerateKey(rand.Reader, keyBits)
	if err != nil {
		return signing{}, fmt.Errorf("lti: making a key: %w", err)
	}
	der, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return signing{}, fmt.Errorf("lti: %w", err)
	}
	pub := x509.MarshalPKCS1PublicKey(&key.PublicKey)
	sum := sha256.Sum256(pub)
	kid := base64.RawURLEncoding.EncodeToString(sum[:12])
	if err := t.st.AddLTIKey(ctx, kid, string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}))); err != nil {
		return signing{}, err
	}
	return signing{kid: kid, key: key}, nil
}

func parseKey(kid, p string) (signing, error) {
	b, _ := pem.Decode([]byte(p))
	if b == nil {
		return signing{}, fmt.Errorf("lti: key %s in the store is not PEM", kid)
	}
	k, err := x509.ParsePKCS8PrivateKey(b.Bytes)
	if err != nil {
		return signing{}, fmt.Errorf("lti: key %s: %w", kid, err)
	}
	rk, ok := k.(*rsa.PrivateKey)
	if !ok {
		return signing{}, fmt.Errorf("lti: key %s is not an RSA key", kid)
	}
	return signing{kid: kid, key: rk}, nil
}

// JWKS returns the tool's public keys, the one that signs first.
func (t *Tool) JWKS(ctx context.Context) (jose.JSONWebKeySet, error) {
	keys, err := t.st.LTIKeys(ctx)
	if err != nil {
		return jose.JSONWebKeySet{}, err
	}
	set := jose.JSONWebKeySet{Keys: []jose.JSONWebKey{}}
	for _, k := range keys {
		s, err := parseKey(k.Kid, k.PrivatePEM)
		if err != nil {
			return jose.JSONWebKeySet{}, err
		}
		jk := jose.JSONWebKey{Key: &s.key.PublicKey, KeyID: s.kid, Algorithm: string(jose.RS256), Use: "sig"}
		if k.Retired {
			set.Keys = append(set.Keys, jk)
		} else {
			set.Keys = append([]jose.JSONWebKey{jk}, set.Keys...)
		}
	}
	return set, nil
}

// sign signs claims as a JWT with the tool's current key (RS256).
func (t *Tool) sign(ctx context.Context, claims any) (string, error) {
	k, err := t.signingKey(ctx)
	if err != nil {
		return "", err
	}
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.RS256, Key: jose.JSONWebKey{Key: k.key, KeyID: k.kid}},
		(&jose.SignerOptions{}).WithType("JWT"))
	if err != nil {
		return "", fmt.Errorf("lti: %w", err)
	}
	return jwt.Signed(signer).Claims(claims).Serialize()
}

// verifyOwn verifies a JWT the tool signed itself (the picker's state)
// and decodes its claims into dest; it refuses one older than its exp.
func (t *Tool) verifyOwn(ctx context.Context, raw string, dest any) error {
	tok, err := jwt.ParseSigned(raw, []jose.SignatureAlgorithm{jose.RS256})
	if err != nil {
		return fmt.Errorf("lti: %w", err)
	}
	set, err := t.JWKS(ctx)
	if err != nil {
		return err
	}
	if len(tok.Headers) != 1 {
		return errors.New("lti: one signature expected")
	}
	keys := set.Key(tok.Headers[0].KeyID)
	if len(keys) == 0 {
		return errors.New("lti: signed by a key the tool does not have")
	}
	var std jwt.Claims
	if err := tok.Claims(keys[0].Key, &std, dest); err != nil {
		return fmt.Errorf("lti: %w", err)
	}
	return std.ValidateWithLeeway(jwt.Expected{Time: t.cfg.Clock.Now()}, time.Second)
}
