// hash.go: Resolved.Hash, the content hash of a hunk that the audit trailer records.

package edit

import (
	"crypto/sha256"
	"encoding/hex"
)

// Hash is the content hash of a resolved hunk that the audit trailer
// records: the first 12 hex digits of the SHA-256 of its lines, each
// written as in a unified diff (kind, text, newline).
func (r Resolved) Hash() string {
	h := sha256.New()
	for _, l := range r.Lines {
		h.Write([]byte{byte(l.Kind)})
		h.Write([]byte(l.Text))
		h.Write([]byte{'\n'})
	}
	return hex.EncodeToString(h.Sum(nil))[:12]
}
