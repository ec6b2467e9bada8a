package demo

import (
	"bytes"
	"context"
	"embed"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"

	"github.com/pair-cli/pair/agent"
	"github.com/pair-cli/pair/app/apply"
	"github.com/pair-cli/pair/app/chat"
	"github.com/pair-cli/pair/internal/config"
	"github.com/pair-cli/pair/internal/console"
	"github.com/pair-cli/pair/internal/output"
	"github.com/pair-cli/pair/repo"
)

// example holds the demo's project (project.txtar) and the model reply
// that changes it (reply.md).
//
//go:embed example/project.txtar example/reply.md
var example embed.FS

// damage says what is wrong with the diff in example/reply.md, in the
// order of its hunks; keep the two in step.
var damage = []string{
	"a fenced ```diff block inside prose, with --- and +++ names but no a/ and b/",
	`an "@@ ... @@" header without line numbers, indented with spaces, not tabs`,
	`a stale context line: "for w, n := range seen" (the file says w, c)`,
	"line numbers three lines off",
	"trailing spaces after context lines",
	"a new file, from /dev/null",
}

// ErrNotEmpty is wrapped by the refusal of a --dir that holds files: the
// demo writes its scratch project only into a new or empty directory.
var ErrNotEmpty = errors.New("is not empty")

type Options struct {
	Dir  string // "" for a new temporary directory
	Keep bool
	// Live runs a real session with the configured model instead of the
	// bundled reply.
	Live bool
	IO   console.IO

	// What the command supplies: a live session (pair edit with the
	// command's configuration), and opening a working tree.
	Session  func(ctx context.Context, o chat.Options) error
	OpenTree func(dir string) (*repo.Tree, error)
}

// Request is what the live demo asks the model.
const Request = `Count words without regard to case ("The" and "the" are one word), ` +
	`break ties alphabetically so that the output is the same on every run, ` +
	`and add a -n flag to main.go that says how many words to print (default 10).`

// Run makes the scratch repository and runs the demo in it, as o says.
func Run(ctx context.Context, o Options) (err error) {
	git, err := exec.LookPath("git")
	if err != nil {
		return errors.New("demo: git is needed to make the scratch repository, and it is not on PATH")
	}
	base, err := demoDir(o.Dir)
	if err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	if !o.Keep {
		defer func() {
			if rerr := os.RemoveAll(base); rerr != nil && err == nil {
				err = fmt.Errorf("demo: remove the scratch directory: %w", rerr)
			}
		}()
	}
	repoDir := filepath.Join(base, "repo")
	replyPath := filepath.Join(base, "reply.md")
	files, err := writeExample(repoDir, replyPath)
	if err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	g := demoGit{ctx: ctx, bin: git, dir: repoDir, out: o.IO.Out, err: o.IO.Err}
	if err := g.run(nil, "-c", "init.defaultBranch=main", "init", "-q"); err != nil {
		return err
	}
	// The scratch repository's own identity, so that pair's commit works
	// whether or not the user configured git.
	for _, kv := range [][2]string{{"user.name", "pair demo"}, {"user.email", "demo@pair.invalid"}, {"commit.gpgsign", "false"}} {
		if err := g.run(nil, "config", kv[0], kv[1]); err != nil {
			return err
		}
	}
	if o.Live {
		// The project's tests run after each change; failures go back to
		// the model.
		cfg := "# pair's settings for this repository\ntest_cmd: go test ./...\n"
		if err := os.WriteFile(filepath.Join(repoDir, ".pair.yml"), []byte(cfg), 0o644); err != nil {
			return fmt.Errorf("demo: %w", err)
		}
	}
	if err := g.run(nil, "add", "-A"); err != nil {
		return err
	}
	if err := g.run(nil, "-c", "commit.gpgsign=false", "commit", "-q", "--no-verify", "-m", "wordfreq: print the most frequent words"); err != nil {
		return err
	}
	if o.Live {
		// The demo wrote this .pair.yml itself: trusted.
		if err := (config.TrustStore{Dir: filepath.Join(repoDir, ".git", "pair")}).Trust(filepath.Join(repoDir, ".pair.yml")); err != nil {
			return fmt.Errorf("demo: %w", err)
		}
	}

	out := o.IO.Out
	var head bytes.Buffer
	if err := g.run(&head, "rev-parse", "HEAD"); err != nil {
		return err
	}
	if o.Live {
		fmt.Fprintf(out, "pair demo: a real session with the configured model, in a scratch git repository.\n\n")
		fmt.Fprintf(out, "repository:  %s\n", repoDir)
		fmt.Fprintf(out, "             wordfreq, a small Go command (%d files), committed; .pair.yml runs go test after each change\n", len(files))
		kb := o.IO.Keyboard
		how := "--yes    # no terminal: every hunk is approved (commands still need approval)"
		if kb != nil {
			how = "        # review each hunk: y approve, n reject, s split, e edit, ? for every key"
		}
		fmt.Fprintf(out, "\n$ pair edit main.go freq/freq.go -m '...' %s\n", how)
		fmt.Fprintf(out, "request: %s\n\n", Request)
		err := o.Session(ctx, chat.Options{
			Mode: agent.ModeEdit, Files: []string{"main.go", "freq/freq.go"}, Request: Request, OneShot: true,
			Yes: kb == nil, Dir: repoDir, IO: console.IO{In: o.IO.In, Out: out, Err: o.IO.Err, Keyboard: kb, Color: o.IO.Color, ErrColor: o.IO.ErrColor, ErrTTY: o.IO.ErrTTY},
		})
		if err != nil {
			return err
		}
		return demoEnd(g, o, base, repoDir, head.String())
	}
	fmt.Fprintf(out, "pair demo: apply a model's damaged diff to a scratch git repository.\n\n")
	fmt.Fprintf(out, "repository:  %s\n", repoDir)
	fmt.Fprintf(out, "             wordfreq, a small Go command (%d files), committed\n", len(files))
	fmt.Fprintf(out, "model reply: %s\n", replyPath)
	fmt.Fprintf(out, "             its diff has:\n")
	for _, d := range damage {
		fmt.Fprintf(out, "             - %s\n", d)
	}

	// On a terminal the person reviews the hunks; otherwise --yes.
	kb := o.IO.Keyboard
	review := struct {
		flag        string
		check, yes  bool
		explanation string
	}{"--yes", false, true, "approve every hunk, write the files (all or nothing) and commit them"}
	if kb != nil {
		review.flag, review.yes = "", false
		review.explanation = "review each hunk: y approve, n reject, s split, e edit, ? for every key"
	}
	for _, step := range []struct {
		flag        string
		check, yes  bool
		explanation string
	}{
		{"--check", true, false, "where each hunk goes, and how it was placed; nothing is written"},
		review,
	} {
		flag := step.flag
		if flag != "" {
			flag += " "
		}
		fmt.Fprintf(out, "\n$ pair apply %s../reply.md    # %s\n", flag, step.explanation)
		sio := console.IO{In: strings.NewReader(""), Out: out, Err: o.IO.Err, Color: o.IO.Color, ErrColor: o.IO.ErrColor, ErrTTY: o.IO.ErrTTY}
		if !step.check && !step.yes && kb != nil {
			sio.In, sio.Keyboard = kb, kb
		}
		err := apply.Run(ctx, apply.Options{
			Patch: replyPath, Dir: repoDir, Check: step.check, Yes: step.yes,
			IO: sio, OpenTree: o.OpenTree,
		})
		var ee *output.ExitError
		if errors.As(err, &ee) && ee.Code == output.Interrupted {
			return err
		}
		if err != nil {
			return fmt.Errorf("demo: the bundled diff should apply, but: %w", err)
		}
	}
	return demoEnd(g, o, base, repoDir, head.String())
}

// demoEnd shows the pair commit, if one was made since head, and where
// the scratch repository is.
func demoEnd(g demoGit, o Options, base, repoDir, head string) error {
	out := o.IO.Out
	var after bytes.Buffer
	if err := g.run(&after, "rev-parse", "HEAD"); err != nil {
		return err
	}
	if after.String() == head {
		fmt.Fprintf(out, "\nNothing was approved, so nothing was committed.\n\n")
	} else {
		fmt.Fprintf(out, "\n$ git show HEAD    # the pair commit: exactly the approved hunks, and the audit trailer\n")
		if err := g.run(out, "--no-pager", "show", "--format=commit %H%nAuthor: %an <%ae>%n%n%B", "HEAD"); err != nil {
			return err
		}
		fmt.Fprintln(out)
	}
	if o.Keep {
		fmt.Fprintf(out, "Look around:  cd %s\n", repoDir)
		fmt.Fprintf(out, "Clean up:     rm -rf %s\n", base)
	} else {
		fmt.Fprintf(out, "Removed %s (--keep=false).\n", base)
	}
	return nil
}

// demoDir returns the directory to make the demo in: dir, created if
// needed and required to be empty, or a new temporary directory.
func demoDir(dir string) (string, error) {
	if dir == "" {
		d, err := os.MkdirTemp("", "pair-demo-")
		if err != nil {
			return "", err
		}
		return filepath.Abs(d)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", err
	}
	if len(entries) > 0 {
		return "", fmt.Errorf("%s %w; give a new or empty directory to --dir", dir, ErrNotEmpty)
	}
	return filepath.Abs(dir)
}

// writeExample writes the bundled project into repoDir and the model's
// reply to replyPath, and returns the project's file names.
func writeExample(repoDir, replyPath string) ([]string, error) {
	project, err := example.ReadFile("example/project.txtar")
	if err != nil {
		return nil, err
	}
	reply, err := example.ReadFile("example/reply.md")
	if err != nil {
		return nil, err
	}
	if err := os.Mkdir(repoDir, 0o755); err != nil {
		return nil, err
	}
	root, err := os.OpenRoot(repoDir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	var names []string
	for _, f := range splitTxtar(project) {
		if err := root.MkdirAll(path.Dir(f.name), 0o755); err != nil {
			return nil, err
		}
		if err := root.WriteFile(f.name, f.data, 0o644); err != nil {
			return nil, err
		}
		names = append(names, f.name)
	}
	return names, os.WriteFile(replyPath, reply, 0o644)
}

type txtarFile struct {
	name string
	data []byte
}

// splitTxtar reads the files of a txtar archive ("-- name --" lines
// followed by the file's content), ignoring the leading comment.
func splitTxtar(data []byte) []txtarFile {
	var files []txtarFile
	for len(data) > 0 {
		line, rest, _ := bytes.Cut(data, []byte("\n"))
		data = rest
		s := string(line)
		if name, ok := strings.CutPrefix(s, "-- "); ok && strings.HasSuffix(name, " --") {
			files = append(files, txtarFile{name: strings.TrimSpace(strings.TrimSuffix(name, " --"))})
			continue
		}
		if n := len(files); n > 0 {
			files[n-1].data = append(append(files[n-1].data, line...), '\n')
		}
	}
	return files
}

// demoGit runs git in the scratch repository as a fixed demo identity, so
// that the demo works whatever (or whether) the user configured git.
type demoGit struct {
	ctx      context.Context
	bin, dir string
	out, err io.Writer
}

func (g demoGit) run(stdout io.Writer, args ...string) error {
	cmd := exec.CommandContext(g.ctx, g.bin, args...)
	cmd.Dir = g.dir
	cmd.Env = append(gitEnvWithout(os.Environ()),
		"GIT_AUTHOR_NAME=pair demo", "GIT_AUTHOR_EMAIL=demo@pair.invalid",
		"GIT_COMMITTER_NAME=pair demo", "GIT_COMMITTER_EMAIL=demo@pair.invalid",
		"GIT_AUTHOR_DATE=2025-01-01T12:00:00Z", "GIT_COMMITTER_DATE=2025-01-01T12:00:00Z",
	)
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = stdout, &stderr
	if stdout == nil {
		cmd.Stdout = &stderr
	}
	if err := cmd.Run(); err != nil {
		if ctxErr := g.ctx.Err(); ctxErr != nil {
			return ctxErr
		}
		return fmt.Errorf("demo: git %s: %w\n%s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return nil
}

// gitEnvWithout drops the variables that would point git at another
// repository than the scratch one (as when pair runs inside a git hook).
func gitEnvWithout(env []string) []string {
	var out []string
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		switch name {
		case "GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY", "GIT_COMMON_DIR", "GIT_PREFIX":
			continue
		}
		out = append(out, kv)
	}
	return out
}
