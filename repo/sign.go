// sign.go: commits signed as git signs them: gpg, gpgsm (x509) or ssh-keygen, from the configuration.

package repo

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// ErrSigning is returned when commit.gpgsign asks for signed commits and
// pair cannot sign: the program or the key is missing, or signing failed.
var ErrSigning = errors.New("cannot sign the commit")

// signer signs commits as git does for commit.gpgsign: with gpg
// (gpg.format openpgp), gpgsm (x509) or ssh-keygen (ssh).
type signer struct {
	format  string // "openpgp", "x509" or "ssh"
	program string
	key     string // user.signingkey, or the committer for gpg
	literal bool   // ssh: key is a public key, not a file (signed through the agent)
}

// configBool reads a git boolean as git does; unset is false.
func configBool(v string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "", "false", "no", "off", "0":
		return false, nil
	case "true", "yes", "on", "1":
		return true, nil
	}
	return false, fmt.Errorf("bad boolean %q", v)
}

// signer returns how to sign commits, or nil when commit.gpgsign is not
// set.
func (c gitConfig) signer(name, email string) (*signer, error) {
	on, err := configBool(c.get("commit", "gpgsign"))
	if err != nil {
		return nil, fmt.Errorf("git config commit.gpgsign: %w", err)
	}
	if !on {
		return nil, nil
	}
	s := &signer{format: strings.ToLower(c.get("gpg", "format")), key: c.get("user", "signingkey")}
	switch s.format {
	case "", "openpgp":
		s.format = "openpgp"
		s.program = firstNonEmpty(c.getSub("gpg", "openpgp", "program"), c.get("gpg", "program"), "gpg")
		if s.key == "" {
			s.key = fmt.Sprintf("%s <%s>", name, email)
		}
	case "x509":
		s.program = firstNonEmpty(c.getSub("gpg", "x509", "program"), "gpgsm")
		if s.key == "" {
			s.key = fmt.Sprintf("%s <%s>", name, email)
		}
	case "ssh":
		s.program = firstNonEmpty(c.getSub("gpg", "ssh", "program"), "ssh-keygen")
		if s.key == "" {
			return nil, fmt.Errorf("%w: commit.gpgsign is set with gpg.format ssh, but user.signingkey is not (pair does not run gpg.ssh.defaultKeyCommand): set it to your key file, or unset commit.gpgsign; nothing was written", ErrSigning)
		}
		if k, ok := strings.CutPrefix(s.key, "key::"); ok {
			s.key, s.literal = k, true
		} else if strings.HasPrefix(s.key, "ssh-") || strings.HasPrefix(s.key, "ecdsa-") || strings.HasPrefix(s.key, "sk-") {
			s.literal = true
		} else {
			s.key = expandPath(s.key, "")
			if !filepath.IsAbs(s.key) {
				if abs, err := filepath.Abs(s.key); err == nil {
					s.key = abs
				}
			}
		}
	default:
		return nil, fmt.Errorf("%w: commit.gpgsign is set, but gpg.format %q is not one git knows (openpgp, x509, ssh); nothing was written", ErrSigning, s.format)
	}
	return s, nil
}

// check finds what signing needs without signing: the program, and for
// ssh the key file.
func (s *signer) check() error {
	if _, err := exec.LookPath(s.program); err != nil {
		return fmt.Errorf("%w: commit.gpgsign is set (gpg.format %s), but the signing program %q is not found: install it, set the gpg program in git's configuration, or unset commit.gpgsign; nothing was written", ErrSigning, s.format, s.program)
	}
	if s.format == "ssh" && !s.literal {
		if _, err := os.Stat(s.key); err != nil {
			return fmt.Errorf("%w: commit.gpgsign is set (gpg.format ssh), but the signing key user.signingkey=%s cannot be read: %v; nothing was written", ErrSigning, s.key, err)
		}
	}
	return nil
}

// sign returns the signature of payload (an encoded commit without its
// signature), as git stores it in the commit's gpgsig header.
func (s *signer) sign(ctx context.Context, payload []byte) (string, error) {
	if s.format == "ssh" {
		return s.signSSH(ctx, payload)
	}
	// gpg and gpgsm: as git runs them, the signature on standard output,
	// the status on standard error.
	// The signing program stays in pair's process group, the terminal's
	// foreground one, so that it may ask for a passphrase there (a hook
	// runs in a group of its own).
	cmd := exec.CommandContext(ctx, s.program, "--status-fd=2", "-bsau", s.key)
	var out, status bytes.Buffer
	cmd.Stdin = bytes.NewReader(payload)
	cmd.Stdout, cmd.Stderr = &out, &status
	err := cmd.Run()
	if cerr := ctx.Err(); cerr != nil {
		return "", fmt.Errorf("signing interrupted: %w", cerr)
	}
	if err != nil || !strings.Contains("\n"+status.String(), "\n[GNUPG:] SIG_CREATED ") {
		return "", fmt.Errorf("%w with %s (key %s): %v: %s", ErrSigning, s.program, s.key, err, lastLines(status.String(), 5))
	}
	return out.String(), nil
}

// signSSH signs with ssh-keygen -Y sign, as git does.
func (s *signer) signSSH(ctx context.Context, payload []byte) (string, error) {
	dir, err := os.MkdirTemp("", "pair-sign-*")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(dir)
	msg := filepath.Join(dir, "commit")
	if err := os.WriteFile(msg, payload, 0o600); err != nil {
		return "", err
	}
	args := []string{"-Y", "sign", "-n", "git", "-f", s.key}
	if s.literal {
		pub := filepath.Join(dir, "key.pub")
		if err := os.WriteFile(pub, []byte(s.key+"\n"), 0o600); err != nil {
			return "", err
		}
		args = []string{"-Y", "sign", "-n", "git", "-f", pub, "-U"}
	}
	cmd := exec.CommandContext(ctx, s.program, append(args, msg)...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err = cmd.Run()
	if cerr := ctx.Err(); cerr != nil {
		return "", fmt.Errorf("signing interrupted: %w", cerr)
	}
	if err != nil {
		return "", fmt.Errorf("%w with %s (key %s): %v: %s", ErrSigning, s.program, s.key, err, lastLines(out.String(), 5))
	}
	sig, err := os.ReadFile(msg + ".sig")
	if err != nil {
		return "", fmt.Errorf("%w with %s: no signature written: %v", ErrSigning, s.program, err)
	}
	return string(sig), nil
}

// lastLines returns the last n non-empty lines of s, joined by "; ".
func lastLines(s string, n int) string {
	var ls []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			ls = append(ls, l)
		}
	}
	if len(ls) > n {
		ls = ls[len(ls)-n:]
	}
	return strings.Join(ls, "; ")
}
