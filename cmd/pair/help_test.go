package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"
)

// TestFlagDefaultsOnce checks that no flag's help names its default
// twice, as "(default 20) (default: 0)" did.
func TestFlagDefaultsOnce(t *testing.T) {
	app := newApp(&factory{})
	var walk func(prefix string, cmds []*cli.Command)
	check := func(where string, flags []cli.Flag) {
		for _, f := range flags {
			if s := f.String(); strings.Count(s, "(default") > 1 {
				t.Errorf("%s: %s", where, s)
			}
		}
	}
	walk = func(prefix string, cmds []*cli.Command) {
		for _, c := range cmds {
			check(prefix+c.Name, c.Flags)
			walk(prefix+c.Name+" ", c.Subcommands)
		}
	}
	check("pair", app.Flags)
	walk("pair ", app.Commands)
}

// TestReadme checks what a reader meets first in README.md: the title,
// then the demo and test commands, the Go version of go.mod and how to
// install; and that the scripts name no machine's paths.
func TestReadme(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	gomod, err := os.ReadFile(filepath.Join("..", "..", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(readme)
	if !strings.HasPrefix(text, "# pair\n") {
		t.Errorf("README.md does not open with its title: %q", text[:min(len(text), 40)])
	}
	first := strings.Index(text, "\n    ")
	if first < 0 || !strings.HasPrefix(text[first:], "\n    go run ./cmd/pair demo\n    go test -race ./...\n") {
		t.Errorf("the first commands of README.md are not the demo and the tests")
	}
	goVersion := regexp.MustCompile(`(?m)^go (\S+)$`).FindStringSubmatch(string(gomod))
	if goVersion == nil || !strings.Contains(text, "Go "+goVersion[1]) {
		t.Errorf("README.md does not name the Go version of go.mod (%v)", goVersion)
	}
	for _, want := range []string{"go install ./cmd/pair", "several minutes"} {
		if !strings.Contains(text, want) {
			t.Errorf("README.md does not say %q", want)
		}
	}
	machinePath := regexp.MustCompile(`/work/|\.\./shared`)
	err = filepath.WalkDir(filepath.Join("..", "..", "scripts"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if m := machinePath.Find(b); m != nil {
			t.Errorf("%s names a machine's path (%s)", p, m)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if m := machinePath.FindString(text); m != "" {
		t.Errorf("README.md names a machine's path (%s)", m)
	}
}

// TestHelpExamplesAndEnvironment checks that pair --help ends with
// EXAMPLES and ENVIRONMENT, and that ENVIRONMENT names every variable
// the code reads for the person (os.Getenv, getenv, env and LookupEnv
// with a literal name), but those of the tests and the race detector.
func TestHelpExamplesAndEnvironment(t *testing.T) {
	var out strings.Builder
	app := newApp(&factory{})
	app.Writer = &out
	if err := app.Run([]string{"pair", "--help"}); err != nil {
		t.Fatal(err)
	}
	help := out.String()
	ex, env := strings.Index(help, "\nEXAMPLES:\n"), strings.Index(help, "\nENVIRONMENT:\n")
	if ex < 0 || env < ex {
		t.Fatalf("the help lacks EXAMPLES then ENVIRONMENT:\n%s", help)
	}
	if !strings.Contains(help[ex:env], "pair edit") || !strings.Contains(help[ex:env], "| pair apply") {
		t.Errorf("EXAMPLES lacks pair edit or a piped pair apply:\n%s", help[ex:env])
	}
	internal := map[string]bool{"GOCOVERDIR": true, "GORACE": true, "UPDATE_SCRIPTS": true, "PATH": true,
		"PAIR_MCP_TEST_CHILD": true, "PAIR_MCP_TEST_NOTES": true, "PAIR_WEB_SCREENSHOT": true, "PAIR_REQUIRE_TOOLS": true}
	read := regexp.MustCompile(`(?:[Gg]etenv|\benv|LookupEnv)\("([A-Z][A-Z0-9_]*)"\)`)
	seen := map[string]bool{}
	err := filepath.WalkDir(filepath.Join("..", ".."), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, m := range read.FindAllStringSubmatch(string(b), -1) {
			seen[m[1]] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) < 5 {
		t.Fatalf("found only %v read from the environment: the scan is broken", seen)
	}
	for name := range seen {
		if !internal[name] && !regexp.MustCompile(`\b`+name+`\b`).MatchString(help[env:]) {
			t.Errorf("the code reads $%s, which ENVIRONMENT does not name", name)
		}
	}
}
