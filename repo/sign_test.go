package repo_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pair-cli/pair/repo"
)

// TestCommitSignsSSH: with commit.gpgsign and gpg.format ssh the commit
// is signed as git signs it, and git verifies the signature.
func TestCommitSignsSSH(t *testing.T) {
	needTool(t, "ssh-keygen")
	dir, tr := cmRepo(t, map[string]string{"a.txt": cmNumbered("l", 10)})
	keys := t.TempDir()
	key := filepath.Join(keys, "id")
	if out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "pair test", "-f", key).CombinedOutput(); err != nil {
		t.Fatalf("ssh-keygen: %v\n%s", err, out)
	}
	pub, err := os.ReadFile(key + ".pub")
	if err != nil {
		t.Fatal(err)
	}
	allowed := filepath.Join(keys, "allowed")
	if err := os.WriteFile(allowed, []byte("tester@example.com "+string(pub)), 0o644); err != nil {
		t.Fatal(err)
	}
	cmGit(t, dir, "config", "commit.gpgsign", "true")
	cmGit(t, dir, "config", "gpg.format", "ssh")
	cmGit(t, dir, "config", "user.signingkey", key)
	cmGit(t, dir, "config", "gpg.ssh.allowedSignersFile", allowed)

	fcs, recs := cmApply(t, tr, cmDiffLine5)
	res := cmCommit(t, tr, fcs, cmOptions(recs))
	if out, err := cmGitErr(dir, "verify-commit", res.Hash); err != nil {
		t.Fatalf("git verify-commit: %v\n%s", err, out)
	}
	if got := cmGit(t, dir, "log", "-1", "--format=%G?"); got != "G\n" {
		t.Errorf("git log %%G? = %q, want G (good signature)", got)
	}
	if got := cmGit(t, dir, "log", "-1", "--format=%(trailers:key=Pair-Session,valueonly)"); got != "s-1\n\n" {
		t.Errorf("Pair-Session trailer = %q", got)
	}
	cmFsck(t, dir)
}

// TestCommitSignsOpenPGP: with commit.gpgsign (gpg.format openpgp, the
// default) the commit is signed with gpg and git verifies it.
func TestCommitSignsOpenPGP(t *testing.T) {
	needTool(t, "gpg")
	dir, tr := cmRepo(t, map[string]string{"a.txt": cmNumbered("l", 10)})
	home, err := os.MkdirTemp("", "pg")
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("GNUPGHOME", home)
	t.Cleanup(func() {
		exec.Command("gpgconf", "--kill", "all").Run() // the agent gpg started
		os.RemoveAll(home)
	})
	if out, err := exec.Command("gpg", "--batch", "--passphrase", "", "--quick-gen-key", "Pair Tester <tester@example.com>", "ed25519", "sign", "never").CombinedOutput(); err != nil {
		t.Fatalf("gpg --quick-gen-key: %v\n%s", err, out)
	}
	cmGit(t, dir, "config", "commit.gpgsign", "true")

	fcs, recs := cmApply(t, tr, cmDiffLine5)
	res := cmCommit(t, tr, fcs, cmOptions(recs))
	if out, err := cmGitErr(dir, "verify-commit", res.Hash); err != nil {
		t.Fatalf("git verify-commit: %v\n%s", err, out)
	}
	if got := cmGit(t, dir, "log", "-1", "--format=%G?"); got != "G\n" && got != "U\n" {
		t.Errorf("git log %%G? = %q, want a good signature", got)
	}
	cmFsck(t, dir)
}

// TestCommitSigningFails: a signing program that fails stops the commit
// with ErrSigning, and the index lock is gone.
func TestCommitSigningFails(t *testing.T) {
	dir, tr := cmRepo(t, map[string]string{"a.txt": cmNumbered("l", 10)})
	fake := filepath.Join(t.TempDir(), "fake-gpg")
	if err := os.WriteFile(fake, []byte("#!/bin/sh\necho 'gpg: signing failed: No secret key' >&2\nexit 2\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	cmGit(t, dir, "config", "commit.gpgsign", "true")
	cmGit(t, dir, "config", "gpg.program", fake)
	head := cmHead(t, dir)
	fcs, recs := cmApply(t, tr, cmDiffLine5)
	_, err := tr.Commit(fcs, cmOptions(recs))
	if !errors.Is(err, repo.ErrSigning) || !strings.Contains(err.Error(), "No secret key") {
		t.Fatalf("Commit error = %v, want ErrSigning with gpg's message", err)
	}
	if cmHead(t, dir) != head {
		t.Errorf("HEAD moved without a signature")
	}
	if _, err := os.Stat(filepath.Join(dir, ".git", "index.lock")); err == nil {
		t.Errorf("index.lock left behind")
	}
}

// TestCommitSignsX509: gpg.format x509 runs gpg.x509.program as git runs
// gpgsm, with user.signingkey, and stores what it prints in the gpgsig
// header.
func TestCommitSignsX509(t *testing.T) {
	dir, tr := cmRepo(t, map[string]string{"a.txt": cmNumbered("l", 10)})
	tmp := t.TempDir()
	fake := filepath.Join(tmp, "fake-gpgsm")
	args := filepath.Join(tmp, "args")
	script := "#!/bin/sh\necho \"$@\" > " + args + "\ncat > /dev/null\necho '[GNUPG:] SIG_CREATED D 1 8 00 1 X' >&2\n" +
		"printf -- '-----BEGIN SIGNED MESSAGE-----\\nZmFrZQ==\\n-----END SIGNED MESSAGE-----\\n'\n"
	if err := os.WriteFile(fake, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	cmGit(t, dir, "config", "commit.gpgsign", "true")
	cmGit(t, dir, "config", "gpg.format", "x509")
	cmGit(t, dir, "config", "gpg.x509.program", fake)
	cmGit(t, dir, "config", "user.signingkey", "0xCAFE")
	fcs, recs := cmApply(t, tr, cmDiffLine5)
	res := cmCommit(t, tr, fcs, cmOptions(recs))
	if got := cmRead(t, tmp, "args"); got != "--status-fd=2 -bsau 0xCAFE\n" {
		t.Errorf("the program ran with %q", got)
	}
	raw := cmGit(t, dir, "cat-file", "commit", res.Hash)
	if !strings.Contains(raw, "\ngpgsig -----BEGIN SIGNED MESSAGE-----\n ZmFrZQ==\n -----END SIGNED MESSAGE-----\n") {
		t.Errorf("no gpgsig header in the commit:\n%s", raw)
	}
	cmFsck(t, dir)
}

// requireTools names the environment variable that makes a missing tool a
// failure instead of a skip, as CI sets it.
const requireTools = "PAIR_REQUIRE_TOOLS"

// needTool skips the test when the program is not on PATH, or fails it
// when PAIR_REQUIRE_TOOLS is set.
func needTool(t *testing.T, name string) {
	t.Helper()
	if _, err := exec.LookPath(name); err != nil {
		if os.Getenv(requireTools) != "" {
			t.Fatalf("%s is not on PATH, and %s is set", name, requireTools)
		}
		t.Skipf("%s is not on PATH; set %s=1 to make this a failure", name, requireTools)
	}
}
