package config

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/pair-cli/pair/internal/safetext"
)

// MaxFileSize bounds a .pair.yml (1 MiB): a longer file is refused.
const MaxFileSize = 1 << 20

// ErrNotRegular is a .pair.yml that is not a regular file (a folder, a
// FIFO, a device): it is refused unread.
var ErrNotRegular = errors.New("not a regular file")

// ErrLink is a repository's .pair.yml that is a symbolic link: pair reads
// the repository's file only as a regular file of the tree, so that it
// never reads, or trusts, a file elsewhere.
var ErrLink = errors.New("is a symbolic link")

// ErrTooLarge is a .pair.yml longer than MaxFileSize.
var ErrTooLarge = errors.New("too large")

// readBytes reads the file at p: a regular file of at most MaxFileSize
// bytes, opened without blocking (a FIFO with no writer is refused, not
// waited for). With follow false a symbolic link is refused; with follow
// true it is followed (the person's own file may be a link, as dotfile
// managers make them). Errors name the file and the rule; a missing file
// wraps fs.ErrNotExist.
func readBytes(p string, follow bool) ([]byte, error) {
	stat := os.Lstat
	if follow {
		stat = os.Stat
	}
	before, err := stat(p)
	if err != nil {
		return nil, err
	}
	if before.Mode()&os.ModeSymlink != 0 {
		return nil, fmt.Errorf("%s %w: pair reads the repository's .pair.yml only as a regular file, never through a link", p, ErrLink)
	}
	if !before.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: %w: pair reads .pair.yml only from a regular file", p, ErrNotRegular)
	}
	if before.Size() > MaxFileSize {
		return nil, fmt.Errorf("%s: %w: pair reads .pair.yml only up to 1 MiB", p, ErrTooLarge)
	}
	f, err := os.OpenFile(p, os.O_RDONLY|openFlags, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// The file opened is the file checked: a swap in between is refused.
	after, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !after.Mode().IsRegular() || !os.SameFile(before, after) {
		return nil, fmt.Errorf("%s: %w: it changed while pair opened it", p, ErrNotRegular)
	}
	b, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	if len(b) > MaxFileSize {
		return nil, fmt.Errorf("%s: %w: pair reads .pair.yml only up to 1 MiB", p, ErrTooLarge)
	}
	return b, nil
}

// digest is the SHA-256 of a file's content, as the trust store keeps it.
func digest(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// Read reads and checks the repository's .pair.yml at p: never through
// a symbolic link, only a regular file, at most MaxFileSize bytes.
func Read(p string) (File, error) {
	fc, _, err := read(p, false)
	return fc, err
}

// ReadOwn reads and checks the person's own .pair.yml at p (the home
// directory's): as Read, but a symbolic link is followed.
func ReadOwn(p string) (File, error) {
	fc, _, err := read(p, true)
	return fc, err
}

// ReadDigest reads the repository's .pair.yml at p as Read does, and
// returns the digest of exactly the bytes it parsed, for the trust store.
func ReadDigest(p string) (File, string, error) { return read(p, false) }

func read(p string, follow bool) (File, string, error) {
	var fc File
	b, err := readBytes(p, follow)
	if err != nil {
		return fc, "", err
	}
	fc, err = parse(p, b)
	return fc, digest(b), err
}

// parse decodes and checks the content b of the .pair.yml at p.
func parse(p string, b []byte) (File, error) {
	var fc File
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	// An empty file is an empty configuration.
	if err := dec.Decode(&fc); err != nil && !errors.Is(err, io.EOF) {
		return fc, fmt.Errorf("%s: %s", p, yamlError(err))
	}
	if err := CheckModel(fc.Model); err != nil {
		return fc, fmt.Errorf("%s: model: %w", p, err)
	}
	if fc.MaxSteps < 0 {
		return fc, fmt.Errorf("%s: max_steps must be positive", p)
	}
	if fc.Timeout != "" {
		if d := parseTimeout(fc.Timeout); d < 0 {
			return fc, fmt.Errorf("%s: timeout: %s is not a duration such as 90s or 10m (0 waits forever)", p, quote(fc.Timeout))
		}
	}
	if err := checkStream(p, fc); err != nil {
		return fc, err
	}
	if err := checkMCPServers(p, fc.MCPServers); err != nil {
		return fc, err
	}
	return fc, nil
}

// quotedValue is how yaml quotes a value of the file in a type error.
var quotedValue = regexp.MustCompile(" `[^`]*`")

// unknownKey is how yaml names a key File does not have.
var unknownKey = regexp.MustCompile(`field .* not found`)

// yamlError says what is wrong with the file without quoting its values:
// the line, and what was expected there. A misspelt key is named, cut
// short.
func yamlError(err error) string {
	var te *yaml.TypeError
	if !errors.As(err, &te) {
		return strings.TrimPrefix(err.Error(), "yaml: ")
	}
	msgs := make([]string, len(te.Errors))
	for i, m := range te.Errors {
		m = quotedValue.ReplaceAllString(m, "")
		m = unknownKey.ReplaceAllStringFunc(m, func(k string) string {
			k = strings.TrimSuffix(strings.TrimPrefix(k, "field "), " not found")
			return "unknown key " + quote(k)
		})
		msgs[i] = safetext.Line(m)
	}
	return strings.Join(msgs, "; ")
}

// quote quotes a short value of the file for an error, escaped.
func quote(s string) string {
	const most = 40
	if r := []rune(s); len(r) > most {
		s = string(r[:most]) + "…"
	}
	return fmt.Sprintf("%q", s)
}
