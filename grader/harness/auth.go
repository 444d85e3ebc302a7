package harness

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"io"
)

// KeySize is the length in bytes of the per-run secret that authenticates
// the protocol when the grader hands one over (flag -auth-fd).
const KeySize = 32

// mac returns the hex HMAC-SHA256 of line seq of the protocol: the sequence
// number is part of the message, so a line cannot be replayed, dropped or
// moved without the parent noticing.
func mac(key []byte, seq uint64, payload []byte) []byte {
	h := hmac.New(sha256.New, key)
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], seq)
	h.Write(n[:])
	h.Write(payload)
	sum := h.Sum(nil)
	out := make([]byte, hex.EncodedLen(len(sum)))
	hex.Encode(out, sum)
	return out
}

// Verify checks line seq (counting from 0, without its newline) of an
// authenticated protocol and returns its JSON payload. A line that does not
// carry the right MAC is an error: it was not written by the harness that
// received key.
func Verify(key []byte, seq uint64, line []byte) ([]byte, error) {
	sig, payload, ok := bytes.Cut(line, []byte{' '})
	if !ok {
		return nil, errors.New("protocol line without a MAC")
	}
	if !hmac.Equal(sig, mac(key, seq, payload)) {
		return nil, errors.New("protocol line with a wrong MAC")
	}
	return payload, nil
}

// signer prefixes every line written through it with its MAC. The JSON
// encoder writes each event as one call ending in a newline; signer still
// buffers to the newline so that a line is signed whole.
type signer struct {
	w   io.Writer
	key []byte
	seq uint64
	buf []byte
}

func (s *signer) Write(p []byte) (int, error) {
	s.buf = append(s.buf, p...)
	for {
		i := bytes.IndexByte(s.buf, '\n')
		if i < 0 {
			return len(p), nil
		}
		line := s.buf[:i]
		out := append(mac(s.key, s.seq, line), ' ')
		out = append(out, line...)
		out = append(out, '\n')
		if _, err := s.w.Write(out); err != nil {
			return 0, err
		}
		s.seq++
		s.buf = s.buf[i+1:]
	}
}
