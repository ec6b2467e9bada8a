package config

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// TrustStore keeps the SHA-256 of the repository's .pair.yml that the
// person trusted, in Dir (pair's state directory under the git
// directory). A zero TrustStore trusts nothing.
type TrustStore struct{ Dir string }

// file is where the hash is kept.
func (s TrustStore) file() string { return filepath.Join(s.Dir, "trusted-config") }

// Trusted reports whether the repository's .pair.yml at p is the one the
// person trusted (it is read as Read reads it).
func (s TrustStore) Trusted(p string) bool {
	b, err := readBytes(p, false)
	return err == nil && s.TrustedDigest(digest(b))
}

// TrustedDigest reports whether sum (see ReadDigest) is the digest of
// the file the person trusted.
func (s TrustStore) TrustedDigest(sum string) bool {
	if s.Dir == "" || sum == "" {
		return false
	}
	want, err := os.ReadFile(s.file())
	return err == nil && strings.TrimSpace(string(want)) == sum
}

// Trust records the repository's .pair.yml at p, as it is now, as
// trusted (it is read as Read reads it).
func (s TrustStore) Trust(p string) error {
	b, err := readBytes(p, false)
	if err != nil {
		return err
	}
	return s.TrustDigest(digest(b))
}

// TrustDigest records the file whose digest is sum (see ReadDigest) as
// trusted.
func (s TrustStore) TrustDigest(sum string) error {
	if err := os.MkdirAll(s.Dir, 0o700); err != nil {
		return err
	}
	return os.WriteFile(s.file(), []byte(sum+"\n"), 0o600)
}

// Revoke forgets the trusted file, if there is one.
func (s TrustStore) Revoke() error {
	err := os.Remove(s.file())
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}
