package config

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestMergeAPIBaseAlias(t *testing.T) {
	home := File{APIBase: "http://home"}
	for _, tc := range []struct {
		name string
		env  map[string]string
		want string
	}{
		{"OPENAI_API_BASE alone", map[string]string{"OPENAI_API_BASE": "http://alias/v1"}, "http://alias/v1"},
		{"OPENAI_BASE_URL wins", map[string]string{"OPENAI_API_BASE": "http://alias/v1", "OPENAI_BASE_URL": "http://base/v1"}, "http://base/v1"},
		{"blank alias ignored", map[string]string{"OPENAI_API_BASE": " "}, "http://home"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Merge(Inputs{Env: func(k string) string { return tc.env[k] }, Files: []Source{{Path: "h", File: home}}})
			if err != nil {
				t.Fatal(err)
			}
			if got.APIBase != tc.want {
				t.Errorf("got base %q, want %q", got.APIBase, tc.want)
			}
		})
	}
	got, err := Merge(Inputs{Env: func(k string) string { return map[string]string{"OPENAI_API_BASE": "http://alias/v1"}[k] }, Flags: Flags{APIBase: "http://flag/v1"}})
	if err != nil {
		t.Fatal(err)
	}
	if got.APIBase != "http://flag/v1" {
		t.Errorf("with --api-base: got base %q, want http://flag/v1", got.APIBase)
	}
}

func TestMergePrecedence(t *testing.T) {
	repoFile := File{Model: "repo-model", APIBase: "http://repo", TestCmd: "make test", MaxSteps: 7}
	home := File{Model: "home-model", APIBase: "http://home", MaxSteps: 9, Timeout: "90s"}
	env := map[string]string{"OPENAI_API_KEY": "env-key"}
	lookup := func(k string) string { return env[k] }
	for _, tc := range []struct {
		name        string
		in          Inputs
		wantModel   string
		wantBase    string
		wantTest    string
		wantSteps   int
		wantTimeout time.Duration
		untrusted   []string
	}{
		{
			name:      "trusted repository file wins over home",
			in:        Inputs{Env: lookup, Files: []Source{{Path: "r", File: repoFile, Repo: true, Trusted: true}, {Path: "h", File: home}}},
			wantModel: "repo-model", wantBase: "http://repo", wantTest: "make test", wantSteps: 7, wantTimeout: 90 * time.Second,
		},
		{
			name:      "untrusted repository file loses its risky settings",
			in:        Inputs{Env: lookup, Files: []Source{{Path: "r", File: repoFile, Repo: true}, {Path: "h", File: home}}},
			wantModel: "home-model", wantBase: "http://home", wantSteps: 9, wantTimeout: 90 * time.Second,
			untrusted: []string{"model", "api_base", "test_cmd", "max_steps"},
		},
		{
			name:      "flags win over everything",
			in:        Inputs{Env: lookup, Flags: Flags{Model: "flag-model", MaxSteps: 3, Timeout: 0, TimeoutSet: true, MaxRetries: -1}, Files: []Source{{Path: "h", File: home}}},
			wantModel: "flag-model", wantBase: "http://home", wantSteps: 3, wantTimeout: -1,
		},
		{
			name:      "environment wins over files",
			in:        Inputs{Env: func(k string) string { return map[string]string{"PAIR_MODEL": "env-model"}[k] }, Files: []Source{{Path: "h", File: home}}},
			wantModel: "env-model", wantBase: "http://home", wantSteps: 9, wantTimeout: 90 * time.Second,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Merge(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			if got.Model != tc.wantModel || got.APIBase != tc.wantBase || got.TestCmd != tc.wantTest || got.MaxSteps != tc.wantSteps || got.Timeout != tc.wantTimeout {
				t.Errorf("got model %q base %q test %q steps %d timeout %v, want %q %q %q %d %v",
					got.Model, got.APIBase, got.TestCmd, got.MaxSteps, got.Timeout, tc.wantModel, tc.wantBase, tc.wantTest, tc.wantSteps, tc.wantTimeout)
			}
			if !slices.Equal(got.Untrusted, tc.untrusted) {
				t.Errorf("got untrusted %v, want %v", got.Untrusted, tc.untrusted)
			}
		})
	}
}

func TestTrustStore(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, ".pair.yml")
	if err := os.WriteFile(p, []byte("test_cmd: go test ./...\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := TrustStore{Dir: filepath.Join(dir, "state")}
	if s.Trusted(p) {
		t.Fatal("trusted before pair trust")
	}
	if err := s.Trust(p); err != nil {
		t.Fatal(err)
	}
	if !s.Trusted(p) {
		t.Fatal("not trusted after Trust")
	}
	if err := os.WriteFile(p, []byte("test_cmd: rm -rf /\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if s.Trusted(p) {
		t.Fatal("still trusted after the file changed")
	}
	if err := s.Trust(p); err != nil {
		t.Fatal(err)
	}
	if err := s.Revoke(); err != nil {
		t.Fatal(err)
	}
	if s.Trusted(p) || s.Revoke() != nil {
		t.Fatal("trusted after Revoke, or a second Revoke failed")
	}
}

// TestMergeInstructionsAttribution: instructions: false and attribution
// from the person's file, or from a trusted repository file (the
// repository's wins); an untrusted repository file counts for neither;
// --no-instructions turns them off whatever the files say; a value of
// attribution that is none of the three is an error naming the file.
func TestMergeInstructionsAttribution(t *testing.T) {
	no, yes := false, true
	repoFile := File{Instructions: &no, Attribution: "none"}
	for _, c := range []struct {
		name     string
		flags    Flags
		files    []Source
		wantOff  bool
		wantAttr string
	}{
		{"defaults", Flags{}, nil, false, "assisted-by"},
		{"home", Flags{}, []Source{{Path: "h", File: File{Instructions: &no, Attribution: "co-authored-by"}}}, true, "co-authored-by"},
		{"trusted repository over home", Flags{}, []Source{{Path: "r", File: repoFile, Repo: true, Trusted: true}, {Path: "h", File: File{Instructions: &yes, Attribution: "co-authored-by"}}}, true, "none"},
		{"untrusted repository", Flags{}, []Source{{Path: "r", File: repoFile, Repo: true}}, false, "assisted-by"},
		{"flag", Flags{NoInstructions: true}, []Source{{Path: "h", File: File{Instructions: &yes}}}, true, "assisted-by"},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.flags.MaxRetries = -1
			got, err := Merge(Inputs{Flags: c.flags, Files: c.files})
			if err != nil {
				t.Fatal(err)
			}
			if got.NoInstructions != c.wantOff || got.Attribution != c.wantAttr {
				t.Errorf("got instructions off %v, attribution %q; want %v, %q", got.NoInstructions, got.Attribution, c.wantOff, c.wantAttr)
			}
		})
	}
	got, _ := Merge(Inputs{Flags: Flags{MaxRetries: -1}, Files: []Source{{Path: "r", File: repoFile, Repo: true}}})
	if want := []string{"instructions", "attribution"}; !slices.Equal(got.Untrusted, want) {
		t.Errorf("untrusted: got %v, want %v", got.Untrusted, want)
	}
	_, err := Merge(Inputs{Flags: Flags{MaxRetries: -1}, Files: []Source{{Path: "/home/p/.pair.yml", File: File{Attribution: "signed-off-by"}}}})
	if err == nil || !strings.Contains(err.Error(), "/home/p/.pair.yml: attribution: \"signed-off-by\" is not one of assisted-by, co-authored-by, none") {
		t.Errorf("a wrong attribution: got %v", err)
	}
}
