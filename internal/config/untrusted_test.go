package config

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

// A repository's file that is not trusted counts for tools only: it
// neither chooses the model over the home file or the environment, nor
// raises the limits, nor lifts the timeout.
func TestMergeUntrustedCostly(t *testing.T) {
	retries := 50
	no := false
	hostile := File{Model: "most-expensive", MaxSteps: 100000, MaxRetries: &retries, ContextChars: 1 << 30, Timeout: "0", Tools: &no}
	home := File{Model: "home-model", Timeout: "2m"}
	for _, tc := range []struct {
		name      string
		env       map[string]string
		files     []Source
		wantModel string
	}{
		{"over the home file", nil, []Source{{Path: "r", File: hostile, Repo: true}, {Path: "h", File: home}}, "home-model"},
		{"over the environment", map[string]string{"PAIR_MODEL": "env-model"}, []Source{{Path: "r", File: hostile, Repo: true}}, "env-model"},
		{"alone", nil, []Source{{Path: "r", File: hostile, Repo: true}}, "gpt-4o-mini"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Merge(Inputs{Env: func(k string) string { return tc.env[k] }, Flags: Flags{MaxRetries: -1}, Files: tc.files})
			if err != nil {
				t.Fatal(err)
			}
			if got.Model != tc.wantModel {
				t.Errorf("model: got %q, want %q", got.Model, tc.wantModel)
			}
			if got.MaxSteps != 20 || got.MaxRetries != 3 || got.ContextChars != 0 {
				t.Errorf("limits: got steps %d retries %d context %d, want the defaults 20 3 0", got.MaxSteps, got.MaxRetries, got.ContextChars)
			}
			if got.Timeout < 0 {
				t.Errorf("timeout: got %v (no bound), want the home file's or the default", got.Timeout)
			}
			if !got.NoTools {
				t.Error("tools: false of the repository's file was ignored; it is harmless and counts")
			}
			want := []string{"model", "max_steps", "max_retries", "context_chars", "timeout"}
			if !slices.Equal(got.Untrusted, want) {
				t.Errorf("untrusted: got %v, want %v", got.Untrusted, want)
			}
		})
	}
	got, err := Merge(Inputs{Flags: Flags{MaxRetries: -1}, Files: []Source{{Path: "r", File: hostile, Repo: true, Trusted: true}}})
	if err != nil {
		t.Fatal(err)
	}
	if got.Model != "most-expensive" || got.MaxSteps != 100000 || got.Timeout != -1 || len(got.Untrusted) > 0 {
		t.Errorf("trusted: got model %q steps %d timeout %v untrusted %v, want the file's", got.Model, got.MaxSteps, got.Timeout, got.Untrusted)
	}
}

// Every setting of File but the harmless ones needs trust, so that a
// setting added later needs it too unless it is named harmless.
func TestGuardedCoversEveryField(t *testing.T) {
	typ := reflect.TypeFor[File]()
	for i := range typ.NumField() {
		f := typ.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		var fc File
		v := reflect.ValueOf(&fc).Elem().Field(i)
		switch v.Kind() {
		case reflect.String:
			v.SetString("x")
		case reflect.Int:
			v.SetInt(1)
		case reflect.Pointer:
			v.Set(reflect.New(f.Type.Elem()))
		case reflect.Slice:
			v.Set(reflect.MakeSlice(f.Type, 1, 1))
		default:
			t.Fatalf("%s: a %s: teach this test to set it", name, v.Kind())
		}
		got := fc.Guarded()
		if name == "tools" {
			if len(got) != 0 {
				t.Errorf("tools: got guarded %v, want it harmless", got)
			}
			continue
		}
		if !slices.Equal(got, []string{name}) {
			t.Errorf("%s: got guarded %v, want [%s]", name, got, name)
		}
		if kept, _ := fc.withoutGuarded(); !reflect.ValueOf(kept).IsZero() {
			t.Errorf("%s: still set after withoutGuarded", name)
		}
	}
}

// A model name with a control character, an escape, a newline or a space
// is refused wherever it comes from, and the error names where.
func TestModelNameChecked(t *testing.T) {
	bad := "gpt\x1b[2J\nPair-Model: forged"
	for _, tc := range []struct {
		name string
		in   Inputs
		from string
	}{
		{"flag", Inputs{Flags: Flags{Model: bad}}, "--model"},
		{"environment", Inputs{Env: func(k string) string { return map[string]string{"PAIR_MODEL": bad}[k] }}, "PAIR_MODEL"},
		{"file", Inputs{Files: []Source{{Path: "/home/me/.pair.yml", File: File{Model: bad}}}}, "/home/me/.pair.yml: model"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Merge(tc.in)
			if !errors.Is(err, ErrModelName) || !strings.HasPrefix(err.Error(), tc.from+": ") {
				t.Fatalf("got %v, want an ErrModelName naming %s", err, tc.from)
			}
			if strings.ContainsAny(err.Error(), "\x1b\n") {
				t.Errorf("the error holds the raw name: %q", err)
			}
		})
	}
	for _, ok := range []string{"gpt-4o-mini", "llama3.1:8b", "hf.co/org/Model-GGUF:Q4_K_M", " padded "} {
		if err := CheckModel(ok); err != nil {
			t.Errorf("CheckModel(%q): %v", ok, err)
		}
	}
	for _, no := range []string{"a b", "a\tb", "a\u202eb", "a\u0085b", "a\xffb", strings.Repeat("m", MaxModelName+1)} {
		if err := CheckModel(no); err == nil {
			t.Errorf("CheckModel(%q): no error", no)
		}
	}
	dir := t.TempDir()
	p := filepath.Join(dir, ".pair.yml")
	write(t, p, "model: \"gpt\\e[31m\\nred\"\n")
	if _, err := Read(p); !errors.Is(err, ErrModelName) || !strings.Contains(err.Error(), p+": model: ") {
		t.Errorf("Read: got %v, want an ErrModelName naming the file", err)
	}
}

func write(t *testing.T, p, s string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A repository rooted at the home directory (dotfiles) has one .pair.yml:
// it is the repository's, read once, and untrusted until pair trust.
func TestLoadHomeIsRepository(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, ".pair.yml"), "model: their-model\ntest_cmd: ./x.sh\nallow_commands: [\"sh x.sh\"]\nmax_steps: 500\n")
	store := TrustStore{Dir: filepath.Join(dir, ".git", "pair")}
	opts := LoadOptions{Dir: dir, Home: dir, Trust: store, Flags: Flags{MaxRetries: -1}}
	got, err := Load(opts)
	if err != nil {
		t.Fatal(err)
	}
	if got.TestCmd != "" || len(got.AllowCommands) > 0 || got.Model != "gpt-4o-mini" || got.MaxSteps != 20 {
		t.Errorf("untrusted: got test %q allow %v model %q steps %d, want none of the file's", got.TestCmd, got.AllowCommands, got.Model, got.MaxSteps)
	}
	if want := []string{"model", "test_cmd", "allow_commands", "max_steps"}; !slices.Equal(got.Untrusted, want) {
		t.Errorf("untrusted: got %v, want %v", got.Untrusted, want)
	}
	if len(got.Sources) != 1 || len(got.NotOwn) > 0 {
		t.Errorf("got sources %v, not own %v, want the file once", got.Sources, got.NotOwn)
	}
	if err := store.Trust(filepath.Join(dir, ".pair.yml")); err != nil {
		t.Fatal(err)
	}
	got, err = Load(opts)
	if err != nil {
		t.Fatal(err)
	}
	if got.TestCmd != "./x.sh" || len(got.AllowCommands) != 1 || got.Model != "their-model" || len(got.Untrusted) > 0 {
		t.Errorf("trusted: got test %q allow %v model %q untrusted %v, want the file's once", got.TestCmd, got.AllowCommands, got.Model, got.Untrusted)
	}
}

// A home .pair.yml that is a link into the repository is a file of the
// repository: the repository's own file is read once as the
// repository's, and another is not read.
func TestLoadHomeLinksIntoRepository(t *testing.T) {
	dir, home := t.TempDir(), t.TempDir()
	write(t, filepath.Join(dir, ".pair.yml"), "allow_commands: [\"sh x.sh\"]\n")
	write(t, filepath.Join(dir, "dot.yml"), "test_cmd: ./x.sh\n")
	link := filepath.Join(home, ".pair.yml")
	for _, target := range []string{".pair.yml", "dot.yml"} {
		os.Remove(link)
		if err := os.Symlink(filepath.Join(dir, target), link); err != nil {
			t.Fatal(err)
		}
		got, err := Load(LoadOptions{Dir: dir, Home: home, Flags: Flags{MaxRetries: -1}})
		if err != nil {
			t.Fatal(err)
		}
		if got.TestCmd != "" || len(got.AllowCommands) > 0 {
			t.Errorf("%s: got test %q allow %v, want nothing from a file of the repository", target, got.TestCmd, got.AllowCommands)
		}
		wantNotOwn := target == "dot.yml"
		if (len(got.NotOwn) > 0) != wantNotOwn || len(got.Sources) != 1 {
			t.Errorf("%s: got sources %v, not own %v", target, got.Sources, got.NotOwn)
		}
	}
	// A link to the person's own file elsewhere is followed.
	own := filepath.Join(t.TempDir(), "pair.yml")
	write(t, own, "model: my-model\ntimeout: 3m\n")
	os.Remove(link)
	if err := os.Symlink(own, link); err != nil {
		t.Fatal(err)
	}
	got, err := Load(LoadOptions{Dir: dir, Home: home, Flags: Flags{MaxRetries: -1}})
	if err != nil {
		t.Fatal(err)
	}
	if got.Model != "my-model" || got.Timeout != 3*time.Minute {
		t.Errorf("own linked file: got model %q timeout %v", got.Model, got.Timeout)
	}
}
