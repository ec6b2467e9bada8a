package config

import (
	"crypto/sha256"
	"encoding/hex"
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

func fileHash(p string) (string, error) {
	b, err := os.ReadFile(p)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), nil
}

// Trusted reports whether the file at p is the one the person trusted.
func (s TrustStore) Trusted(p string) bool {
	if s.Dir == "" {
		return false
	}
	want, err := os.ReadFile(s.file())
	if err != nil {
		return false
	}
	got, err := fileHash(p)
	return err == nil && strings.TrimSpace(string(want)) == got
}

// Trust records the file at p, as it is now, as trusted.
func (s TrustStore) Trust(p string) error {
	h, err := fileHash(p)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(s.Dir, 0o700); err != nil {
		return err
	}
	return os.WriteFile(s.file(), []byte(h+"\n"), 0o600)
}

// Revoke forgets the trusted file, if there is one.
func (s TrustStore) Revoke() error {
	err := os.Remove(s.file())
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}
