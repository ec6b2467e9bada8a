package apply

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A file whose attributes name a content filter matches the index when
// the filter makes of it what the index holds: git apply --index takes
// it, and so does pair, staging the blob the filter makes. The patch is
// of the clean form (its index line names the clean blob): both place it
// there and write the file back as the filter's smudge leaves it.
func TestIndexThroughFilterAsGit(t *testing.T) {
	setup := "git config filter.strip.clean \"sed 's/ *$//'\"; git config filter.strip.smudge cat\n" +
		"echo 'f filter=strip' > .gitattributes; printf 'a  \\nb\\nc\\n' > f\n"
	root, made, byGit, byPair := caseRepos(t, func(dir string) { sh(t, dir, setup) })
	patch := sh(t, made, "printf 'a\\nb\\nC\\n' > f; git diff\n")
	for _, dir := range []string{byGit, byPair} {
		sh(t, dir, refresh)
	}
	file := filepath.Join(root, "case.patch")
	if err := os.WriteFile(file, []byte(patch), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("git", "apply", "--index", file)
	cmd.Dir = byGit
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git apply --index: %v\n%s", err, out)
	}
	o, out, errw := options(byPair, "")
	o.Patch, o.Yes, o.Index = file, true, true
	if err := Run(context.Background(), o); err != nil {
		t.Fatalf("pair apply --index: %v\n%s%s", err, out, errw)
	}
	if g, p := sh(t, byGit, "git ls-files -s"), sh(t, byPair, "git ls-files -s"); g != p {
		t.Errorf("pair staged\n%s\ngit apply --index staged\n%s", p, g)
	}
	if st := sh(t, byPair, "git diff --name-only"); st != "" {
		t.Errorf("git diff after pair apply --index names %s: the staged blob is not the file's", st)
	}
	if g, p := sh(t, byGit, "cat f"), sh(t, byPair, "cat f"); g != p {
		t.Errorf("pair wrote %q, git apply --index wrote %q", p, g)
	}
}

// rot13Filter configures the filter of these tests: its clean and its
// smudge are the same command, each the other's inverse, so git stores
// *.rot in rot13 and git diff shows it so.
const rot13Filter = "git config filter.rot13.clean 'tr A-Za-z N-ZA-Mn-za-m'; git config filter.rot13.smudge 'tr A-Za-z N-ZA-Mn-za-m'\n" +
	"echo '*.rot filter=rot13' > .gitattributes\n"

// A patch of a file under a content filter is of the file as git stores
// it (git diff shows the clean form): git apply cleans the working file,
// applies the patch, and writes the result through the smudge. pair does
// the same in each of its modes, and writes and stages what git's
// counterpart writes and stages; a commit stores the clean form, and
// leaves the working file as git checkout writes it.
func TestFilteredFileAsGit(t *testing.T) {
	modes := []struct {
		name string
		git  string // the git apply options that do the same
		set  func(o *Options)
	}{
		{"commit", "--index", func(o *Options) {}},
		{"--no-commit", "", func(o *Options) { o.NoCommit = true }},
		{"--index", "--index", func(o *Options) { o.Index = true }},
		{"-3", "--3way", func(o *Options) { o.ThreeWay = true }},
		{"-3 --no-commit", "--3way", func(o *Options) { o.ThreeWay, o.NoCommit = true, true }},
		{"--cached", "--cached", func(o *Options) { o.Cached = true }},
	}
	changes := []struct{ name, change string }{
		{"a changed line", "printf 'line one\\nline TWO\\nline three\\n' > f.rot; git diff\n"},
		{"a created file", "printf 'Hello new\\n' > n.rot; git add n.rot; git diff --cached\n"},
		{"two files, one plain", "printf 'line one\\nline two\\nline 3\\n' > f.rot; echo Plain > p.txt; git diff\n"},
	}
	for _, c := range changes {
		for _, m := range modes {
			t.Run(c.name+", "+m.name, func(t *testing.T) {
				root, made, byGit, byPair := caseRepos(t, func(dir string) {
					sh(t, dir, rot13Filter+"printf 'line one\\nline two\\nline three\\n' > f.rot; echo plain > p.txt\n")
				})
				patch := sh(t, made, c.change)
				for _, dir := range []string{byGit, byPair} {
					sh(t, dir, refresh)
				}
				file := filepath.Join(root, "case.patch")
				if err := os.WriteFile(file, []byte(patch), 0o644); err != nil {
					t.Fatal(err)
				}
				sh(t, byGit, "git apply "+m.git+" "+file+"\n")
				o, out, errw := options(byPair, "")
				o.Patch, o.Yes = file, true
				m.set(&o)
				if err := Run(context.Background(), o); err != nil {
					t.Fatalf("pair apply: %v\n%s%s\npatch:\n%s", err, out, errw, patch)
				}
				for _, name := range []string{"f.rot", "n.rot", "p.txt"} {
					g, gerr := os.ReadFile(filepath.Join(byGit, name))
					p, perr := os.ReadFile(filepath.Join(byPair, name))
					if string(g) != string(p) || (gerr == nil) != (perr == nil) {
						t.Errorf("%s: pair wrote %q (%v), git apply %s wrote %q (%v)", name, p, perr, m.git, g, gerr)
					}
				}
				if g, p := sh(t, byGit, "git ls-files -s"), sh(t, byPair, "git ls-files -s"); g != p {
					t.Errorf("pair staged\n%s\ngit apply %s staged\n%s", p, m.git, g)
				}
				if o.NoCommit || o.Index || o.Cached {
					return
				}
				// The commit holds what git apply --index staged, and
				// the working tree is what git checkout makes of it.
				if st := sh(t, byPair, "git status --porcelain; git diff HEAD"); st != "" {
					t.Errorf("after pair's commit, git status and git diff HEAD say\n%s", st)
				}
				before := sh(t, byPair, "cat f.rot p.txt; cat n.rot 2>/dev/null || true\n")
				after := sh(t, byPair, "rm -f f.rot n.rot p.txt; git checkout -- .; cat f.rot p.txt; cat n.rot 2>/dev/null || true\n")
				if before != after {
					t.Errorf("pair's working tree\n%s\nis not what git checkout writes\n%s", before, after)
				}
			})
		}
	}
}

// git apply --3way merges a file under a content filter in the form git
// stores, and writes the result through the smudge; pair merges the same
// three versions in the working file's form, and stages what git stages.
// The working files are the same but for a conflict's marker labels,
// which git's smudge rewrites too (rot13 makes "ours" "bhef"); pair's
// stay as they are.
func TestFilteredThreeWayAsGit(t *testing.T) {
	lines := "printf 'line %s\\n' one two three four five six seven eight nine > f.rot\n"
	for _, c := range []struct{ name, mine string }{
		{"merged cleanly", "sed -i 's/line one/line uno/' f.rot\n"},
		{"a conflict", "sed -i 's/line five/line cinq/' f.rot\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			root, made, byGit, byPair := caseRepos(t, func(dir string) { sh(t, dir, rot13Filter+lines) })
			patch := sh(t, made, "sed -i 's/line five/line FIVE/' f.rot; git diff\n")
			for _, dir := range []string{byGit, byPair} {
				sh(t, dir, c.mine+"git add f.rot\n"+refresh)
			}
			file := filepath.Join(root, "case.patch")
			if err := os.WriteFile(file, []byte(patch), 0o644); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command("git", "apply", "--3way", file)
			cmd.Dir = byGit
			out, err := cmd.CombinedOutput()
			if conflict := c.name == "a conflict"; (err != nil) != conflict {
				t.Fatalf("git apply --3way: %v\n%s", err, out)
			}
			o, pout, perr := options(byPair, "")
			o.Patch, o.Decisions, o.ThreeWay, o.NoCommit = file, "y", true, true
			if err := Run(context.Background(), o); err != nil && c.name != "a conflict" {
				t.Fatalf("pair apply -3: %v\n%s%s", err, pout, perr)
			}
			g := strings.NewReplacer("<<<<<<< bhef", "<<<<<<< ours", ">>>>>>> gurvef", ">>>>>>> theirs").Replace(sh(t, byGit, "cat f.rot"))
			if p := sh(t, byPair, "cat f.rot"); p != g {
				t.Errorf("pair wrote\n%s\ngit apply --3way wrote (its labels unsmudged)\n%s", p, g)
			}
			if g, p := sh(t, byGit, "git ls-files -s"), sh(t, byPair, "git ls-files -s"); g != p {
				t.Errorf("pair staged\n%s\ngit apply --3way staged\n%s", p, g)
			}
		})
	}
}
