package config

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// The repository's .pair.yml is read only as a regular file of the tree,
// of at most MaxFileSize bytes: a link (to a file outside, to /dev/zero),
// a FIFO or a large file is refused unread, with an error that names the
// file and the rule and quotes nothing of the content.
func TestReadRefuses(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "passwd")
	write(t, outside, "root:x:0:0:hunter2-SECRET:/root:/bin/sh\n")
	for _, tc := range []struct {
		name  string
		setup func(p string) error
		rule  error
		says  string
	}{
		{"link out of the tree", func(p string) error { return os.Symlink(outside, p) }, ErrLink, "never through a link"},
		{"link to /dev/zero", func(p string) error { return os.Symlink("/dev/zero", p) }, ErrLink, "never through a link"},
		{"link inside the tree", func(p string) error {
			write(t, filepath.Join(filepath.Dir(p), "other.yml"), "model: m\n")
			return os.Symlink("other.yml", p)
		}, ErrLink, "never through a link"},
		{"FIFO", func(p string) error { return syscall.Mkfifo(p, 0o644) }, ErrNotRegular, "only from a regular file"},
		{"folder", func(p string) error { return os.Mkdir(p, 0o755) }, ErrNotRegular, "only from a regular file"},
		{"too large", func(p string) error {
			return os.WriteFile(p, []byte("# "+strings.Repeat("x", MaxFileSize)+"\n"), 0o644)
		}, ErrTooLarge, "only up to 1 MiB"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, ".pair.yml")
			if err := tc.setup(p); err != nil {
				t.Fatal(err)
			}
			check := func(what string, err error) {
				t.Helper()
				if !errors.Is(err, tc.rule) || !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), tc.says) {
					t.Errorf("%s: got %v, want %v naming %s and saying %q", what, err, tc.rule, p, tc.says)
				}
				if err != nil && strings.Contains(err.Error(), "hunter2") {
					t.Errorf("%s: the error quotes the file it should not read: %v", what, err)
				}
			}
			_, err := Read(p)
			check("Read", err)
			_, err = Load(LoadOptions{Dir: dir, Trust: TrustStore{Dir: filepath.Join(dir, "state")}})
			check("Load", err)
			check("Trust", TrustStore{Dir: filepath.Join(dir, "state")}.Trust(p))
		})
	}
}

// The person's own file may be a link (dotfile managers make them), but
// only to a regular file: /dev/zero and a FIFO are refused unread.
func TestReadOwnRefuses(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, target := range []string{"/dev/zero", fifo} {
		home := t.TempDir()
		p := filepath.Join(home, ".pair.yml")
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
		if _, err := ReadOwn(p); !errors.Is(err, ErrNotRegular) {
			t.Errorf("link to %s: got %v, want ErrNotRegular", target, err)
		}
		if _, err := Load(LoadOptions{Home: home}); !errors.Is(err, ErrNotRegular) {
			t.Errorf("Load, link to %s: got %v, want ErrNotRegular", target, err)
		}
	}
	if _, err := ReadOwn(filepath.Join(dir, "none.yml")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing file: got %v, want fs.ErrNotExist", err)
	}
}

// A YAML error says where and what is wrong, without the file's values.
func TestReadErrorQuotesNoValue(t *testing.T) {
	home := t.TempDir()
	secret := filepath.Join(t.TempDir(), "secret")
	write(t, secret, "hunter2-SECRET-VALUE-LONG\n")
	p := filepath.Join(home, ".pair.yml")
	if err := os.Symlink(secret, p); err != nil {
		t.Fatal(err)
	}
	for _, content := range []string{"hunter2-SECRET-VALUE-LONG\n", "max_steps: hunter2\n", "max_steps: [hunter2]\n", "hunter2: x\nmodel: [a, b]\n"} {
		write(t, secret, content)
		_, err := ReadOwn(p)
		if err == nil || !strings.Contains(err.Error(), "line ") {
			t.Errorf("%q: got %v, want a YAML error with its line", content, err)
		}
		if err != nil && strings.Contains(strings.TrimPrefix(err.Error(), p), "hunter2:") || err != nil && strings.Contains(err.Error(), "hunter2-") {
			t.Errorf("%q: the error quotes a value: %v", content, err)
		}
	}
}
