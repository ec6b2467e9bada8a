package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestNotebookWithTheSDK runs pair's example server against the official
// SDK's client: it is listed, its tools called, and bad arguments
// refused.
func TestNotebookWithTheSDK(t *testing.T) {
	t.Chdir(t.TempDir())
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	served := make(chan error, 1)
	go func() {
		served <- serve(context.Background(), inR, outW, implementation{Name: "pair-notebook", Version: "1"}, notebookTools())
		outW.Close()
	}()
	client := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &sdk.IOTransport{Reader: outR, Writer: inW}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := cs.InitializeResult().ServerInfo.Name; got != "pair-notebook" {
		t.Errorf("server name: got %q", got)
	}
	var names []string
	for tl, err := range cs.Tools(context.Background(), nil) {
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, tl.Name)
		if tl.Name == "lookup" && (tl.Annotations == nil || !tl.Annotations.ReadOnlyHint) {
			t.Errorf("lookup is not read-only: %+v", tl.Annotations)
		}
	}
	if strings.Join(names, " ") != "lookup add_note" {
		t.Errorf("tools: got %v", names)
	}
	text := func(name string, args any) (string, bool) {
		t.Helper()
		res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			return err.Error(), true
		}
		return res.Content[0].(*sdk.TextContent).Text, res.IsError
	}
	if got, isErr := text("add_note", map[string]any{"text": "buy\nmilk"}); isErr || !strings.Contains(got, "added the note to") {
		t.Errorf("add_note: got %q", got)
	}
	if b, _ := os.ReadFile("notes.txt"); string(b) != "buy milk\n" {
		t.Errorf("notes.txt: got %q", b)
	}
	if got, isErr := text("lookup", map[string]any{"key": "MILK"}); isErr || got != "buy milk" {
		t.Errorf("lookup: got %q", got)
	}
	if got, isErr := text("lookup", map[string]any{"key": 3}); !isErr || !strings.Contains(got, "key is 3 (an integer), want a string") {
		t.Errorf("lookup with a number: got %q, %v", got, isErr)
	}
	if got, isErr := text("nosuch", json.RawMessage(`{}`)); !isErr || !strings.Contains(got, "unknown tool nosuch") {
		t.Errorf("an unknown tool: got %q", got)
	}
	if err := cs.Close(); err != nil {
		t.Logf("close: %v", err)
	}
	if err := <-served; err != nil {
		t.Errorf("serve: %v", err)
	}
}

// TestNotebookFileRule: the notebook reads and writes notes.txt only as a
// regular file of its own, never through a symbolic link (to a secret of
// the tree, or out of it), and reads at most maxNotes bytes. Each refusal
// says the rule, and quotes nothing of the file.
func TestNotebookFileRule(t *testing.T) {
	tools := notebookTools()
	run := func(name string, args map[string]any) (string, error) {
		t.Helper()
		for _, tl := range tools {
			if tl.Name == name {
				return tl.run(args)
			}
		}
		t.Fatalf("no tool %s", name)
		return "", nil
	}
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T, dir string)
		want  string
	}{
		{"a link in the tree", func(t *testing.T, dir string) {
			writeFile(t, filepath.Join(dir, ".env"), "SECRET=sk-live-123\n")
			link(t, ".env", filepath.Join(dir, "notes.txt"))
		}, "notes.txt is a symbolic link: the notebook reads and writes no file through a link"},
		{"a link out of the tree", func(t *testing.T, dir string) {
			out := filepath.Join(t.TempDir(), "secret")
			writeFile(t, out, "SECRET=sk-live-123\n")
			link(t, out, filepath.Join(dir, "notes.txt"))
		}, "notes.txt is a symbolic link: the notebook reads and writes no file through a link"},
		{"a directory", func(t *testing.T, dir string) {
			if err := os.Mkdir(filepath.Join(dir, "notes.txt"), 0o755); err != nil {
				t.Fatal(err)
			}
		}, "notes.txt is not a regular file: the notebook reads and writes only a regular file"},
		{"too large", func(t *testing.T, dir string) {
			writeFile(t, filepath.Join(dir, "notes.txt"), "SECRET=sk-live-123\n"+strings.Repeat("x", maxNotes))
		}, "notes.txt is larger than 1048576 bytes, the most the notebook reads"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			t.Chdir(dir)
			tc.setup(t, dir)
			got, err := run("lookup", map[string]any{"key": "secret"})
			if err == nil || err.Error() != tc.want {
				t.Errorf("lookup: got %q, %v, want the error %q", got, err, tc.want)
			}
			if strings.Contains(got, "sk-live") {
				t.Errorf("lookup returned the file's secret: %q", got)
			}
			if tc.name == "too large" {
				return
			}
			before := snapshotDir(t, filepath.Dir(dir))
			if got, err := run("add_note", map[string]any{"text": "pwned"}); err == nil || err.Error() != tc.want {
				t.Errorf("add_note: got %q, %v, want the error %q", got, err, tc.want)
			}
			if after := snapshotDir(t, filepath.Dir(dir)); after != before {
				t.Errorf("add_note changed files:\n%s\nwant\n%s", after, before)
			}
		})
	}
}

func writeFile(t *testing.T, p, content string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func link(t *testing.T, target, name string) {
	t.Helper()
	if err := os.Symlink(target, name); err != nil {
		t.Fatal(err)
	}
}

// snapshotDir lists the regular files under dir with their content.
func snapshotDir(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			c, rerr := os.ReadFile(p)
			fmt.Fprintf(&b, "%s %q %v\n", p, c, rerr)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}
