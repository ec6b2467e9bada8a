package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/pair-cli/pair/app/apply"
	"github.com/pair-cli/pair/edit"
	"github.com/pair-cli/pair/internal/config"
	"github.com/pair-cli/pair/internal/output"
	"github.com/pair-cli/pair/repo"
)

// filterFlag is --include or --exclude: each use adds its glob to the
// filters they share, in the order given on the command line.
type filterFlag struct {
	filters *[]apply.Filter
	include bool
}

func (f filterFlag) Set(glob string) error {
	*f.filters = append(*f.filters, apply.Filter{Glob: glob, Include: f.include})
	return nil
}

func (f filterFlag) String() string {
	if f.filters == nil {
		return ""
	}
	var globs []string
	for _, x := range *f.filters {
		if x.Include == f.include {
			globs = append(globs, x.Glob)
		}
	}
	return strings.Join(globs, ",")
}

// attachedStrip is -p0 to -p9 and -C0 to -C9, -p and -C with their
// number attached as git users write them, which the flag parser would
// read as flags of their own.
func attachedStrip() []cli.Flag {
	var flags []cli.Flag
	for _, name := range []string{"p", "C"} {
		for n := range 10 {
			flags = append(flags, &cli.BoolFlag{Name: fmt.Sprintf("%s%d", name, n), Hidden: true})
		}
	}
	return flags
}

// attachedNumber returns the number of -p or -C (name), given as -p N or
// with it attached (-p1), or nil when neither was given; what names the
// number in an error.
func attachedNumber(c *cli.Context, name, what string) (*int, error) {
	var got *int
	if c.IsSet(name) {
		n := c.Int(name)
		if n < 0 {
			return nil, output.Usagef("apply: -%s %d: %s cannot be negative", name, n, what)
		}
		got = &n
	}
	for n := range 10 {
		if c.Bool(fmt.Sprintf("%s%d", name, n)) {
			if got != nil && *got != n {
				return nil, output.Usagef("apply: -%s given twice", name)
			}
			got = &n
		}
	}
	return got, nil
}

func applyCommand(f *factory) *cli.Command {
	var filters []apply.Filter
	return &cli.Command{
		Name:      "apply",
		Usage:     "review a unified diff hunk by hunk and apply (and commit) the approved hunks",
		ArgsUsage: "[PATCH...|-]",
		Description: `Reads a unified diff from PATCH, or from standard input when PATCH is "-"
or missing, and applies it to the working tree (the top of the git repository
that holds the current directory, or the current directory itself). Several
PATCH files are read as one patch, in order, and reviewed together.

The sections of a patch apply one after another, as git apply applies them:
one that changes a file an earlier section wrote (create then modify, a
series of one file) is placed on that section's result; renames and copies
read the tree before anything is written, so a swap or a chain of renames
works; a rename or copy keeps the file's executable bit; a path may be
deleted and created again (git diff -B, a typechange), and a file may become
a directory and the reverse.

Other edit forms are read too, and the output says which it was (form): Aider's
SEARCH/REPLACE blocks under a path line, the V4A apply_patch form (*** Begin
Patch), and a whole file in a fenced block under its path, diffed against the
current file. Fenced blocks that are not edits are listed as ignored.

Mail (a git format-patch file, or an mbox of several) is applied as pair
am applies it: one review and one commit per mail, with the mail's author,
date and message (see pair am --help). With --no-commit, --index, --cached
or --3way, its diffs are applied one after the other and nothing is
committed, as git apply does. Several format-patch files (pair apply
0001-a.patch 0002-b.patch) are one series, a commit per mail, as git am
0001-a.patch 0002-b.patch makes it. A plain diff given with mail goes
with it under --no-commit, as git apply applies both; committing, it is
refused, as it has no author or message of its own.

Each hunk is placed by its content, with its line numbers used only to choose
between equally good places. Placement tolerates what models get wrong: line
numbers and counts, trailing whitespace, indentation, curly quotes, a missing
or slightly changed context line, two hunks run together. A hunk that matches
two places equally well is refused, never guessed.

A hunk with no clean reading may have one interpreted reading: a context
line that is a small edit of the file's line taken as the model's new
version, a -x/+x pair whose x is not the file's line read as a change of
it, a context line missing from the file taken as an added line. It is
labelled "interpreted" and shows the extra line as -/+. The terminal
review offers it; --yes and --decisions refuse it unless --interpret is
given. A refused hunk's report names the lines it got wrong.

A hunk placed where its reading is doubtful is "uncertain", with the
reason in its notes: placed loosely, it makes the file fail a syntax check
that the file passed (Go: go/parser; Python: indentation; C-like, JSON,
YAML: brackets and quotes), or it ends with added lines that leave a
block the file continues, with no trailing context (which was probably
lost). Like an interpreted hunk, the terminal review offers it; --yes
and --decisions refuse it unless --interpret is given; the trailer marks
an approved one "uncertain".

Then each placed hunk is reviewed, as with git add -p. On a terminal,
single keys decide:

  y  approve this hunk              n  reject this hunk
  r  reject with a note             q  reject the rest, go to the summary
  a  approve the rest of the file   d  reject the rest of the file
  A  approve this file's hunks for the rest of the session
  s  split the hunk at the context lines between its changes
  e  edit the hunk in your editor (as git chooses it: GIT_EDITOR, core.editor, VISUAL, EDITOR)
  j  next undecided hunk            k  previous undecided hunk
  J  next hunk (down arrow)         K  previous hunk (up arrow)
  g  go to a hunk by number         /  search hunks by regular expression
  p  show the hunk again            ?  help

A summary per file comes before anything is written; Ctrl-C writes
nothing. Hunks that cannot be placed are listed and not offered.

At the summary, v runs the tests (--test-cmd, or test_cmd of a trusted
.pair.yml; without one, it asks for a command) on HEAD with your
uncommitted changes, untracked files that git does not ignore, and the
approved hunks, in a scratch tree in the git directory
(.git/pair/verify/tree): your working tree is not touched. The result
shows beside the summary (? shows all of the output). When the tests
fail there and pass without the approved hunks, pair finds the hunks
that break them ("hunk 3 (parse.go:40-52) breaks it: FAIL
TestParseEmpty"), and x rejects them and runs the tests again. Ctrl-C
stops the tests. --verify (or verify: true in a trusted .pair.yml) runs
them before every write: pair apply --yes --verify writes nothing when
they fail.

--check --explain lists with each hunk the rules that placed or refused
it, each with what it says; --json gives their ids ("rules").

Without a terminal, decisions come from --decisions (one letter per hunk:
y, n, a, d, A or q), or from standard input when the patch is a file (one
per line; "n REASON" rejects with a note); --yes approves every hunk.
Decisions given ahead, and --yes, refuse a patch with a hunk that cannot
be placed: nothing is written and each failure is explained with the
nearest lines of the real file. With no way to decide, apply fails at
once naming these flags.

In a git repository the approved and edited hunks are committed with a
Pair-Hunk trailer recording every hunk's decision.

File names are read as git apply reads them. A git diff (diff --git) names
files from the top of the repository. A traditional diff (diff -u, diff -ruN)
names them from the current directory; its names lose one leading directory
(a/ and b/, or diff -r's two directories), a timestamp of 1970-01-01 00:00:00
UTC creates or deletes the file, and "--- x.go.orig" with "+++ x.go" is x.go.
Where a name as written does not exist, it is also tried without its first
directory, by its other side's name, and from the top of the repository.
git apply's options keep git's meaning: -p N removes N leading directories
instead, --directory=ROOT puts every path under ROOT, --include=GLOB and
--exclude=GLOB apply or leave out the files they match (the first that
matches decides; with an --include, a file none matches is left out), and
-R applies the patch backwards; -C<n> lets a hunk that does not fit as
written fit with its outer context lines left out, down to n on each side,
and --ignore-whitespace (or --ignore-space-change) compares lines with runs
of whitespace collapsed and writes the added lines as the patch has them
(git's apply.ignoreWhitespace set to change does the same without it).
To run as if started in another directory, use pair -C DIR apply (the
apply's own -C<n> is git's: pair -C DIR apply -C1 is git -C DIR apply -C1).

A hunk with no context lines (diff -U0, git diff -U0) goes only where its
line numbers put it, as git apply --unidiff-zero places it, with the flag
or without (git refuses such a hunk away from the file's edges unless it
is given; pair accepts --unidiff-zero and needs it not): its deleted
lines must be the file's at its old start, and added lines alone go after
the line it names. Where they are not, it is refused; when its deleted
lines are elsewhere, that place is offered for review as uncertain. A
hunk with no context after its last change belongs at the end of the file,
and one from line 1 with none before its first change at the start, as
git reads them: one whose result is the file's at that edge already is
refused as applied.

git apply's reports and checks keep git's meaning and output: --stat,
--numstat (-z: names end with NUL, unquoted) and --summary print what the
patch changes exactly as git apply prints it, on standard output, and
apply nothing unless --apply is given too (pair's own report then goes to
standard error). With --json they are not printed as text: the one JSON
report carries them as "stat", a list of each file's path (and old_path
for a rename or copy), lines added and deleted, binary, and its --summary
lines as git prints them. --reject applies the hunks that place and writes each
file's others to FILE.rej as git writes them, then exits 1. --whitespace
says what to do with added lines that have whitespace errors, by
core.whitespace and the whitespace attribute (trailing-space,
space-before-tab, indent-with-non-tab, tab-in-indent, blank-at-eol,
blank-at-eof, cr-at-eol, tabwidth=N): nowarn, warn (one line on standard
error naming them), error and error-all (refuse the patch, nothing
written), fix or strip (fix them as git does, and let context and deleted
lines match the file once their whitespace is fixed; where a hunk matched
only so, its context lines are written fixed too, as git writes them). Without it,
apply.whitespace from git's configuration decides, and without that pair
says nothing (git's default is warn). --recount takes each hunk's counts
from its lines, --allow-empty succeeds on a patch with no change in it,
-v names each file on standard error as it is checked, -q prints nothing
on success.

git apply's staging options keep git's meaning too, and commit nothing:
--index writes the files and stages them, and refuses a file that does not
match the index (compared as git add would store it: through its content
filter and core.autocrlf or the text and eol attributes); --cached places
the patch on the index's content and stages the result, leaving the files
alone; it looks for the patch's files in the index only, as git does (an
intent-to-add entry is none yet). Both take links (their target is the
blob), binary files and submodule pointers (the index's gitlink entry),
and a submodule turned into a file or a folder, or a file into a
submodule: two items in the review. A submodule whose folder holds files
(a checkout) is never replaced: pair refuses before writing anything.
--3way (-3) merges each file whose hunks do not place with the preimage
blob its "index" line names, as git apply --3way does: the file's own changes are kept, and
lines both the file and the patch changed, or changed next to each other,
are offered as one "conflict" hunk holding both versions between <<<<<<<
ours, ======= and >>>>>>> theirs (merge.conflictStyle diff3 and zdiff3 add
the preimage's lines after ||||||| base). A patch that creates a file the
index has is merged against an empty preimage, as git merges an add/add:
the same content is already applied, other content a conflict. As in git,
--3way implies --index when nothing is committed (--no-commit). --yes
never approves a conflict. An approved one is written but never
committed, and the index holds the preimage, yours and the patch's
version, as git leaves an unmerged file (no preimage for an add/add).
When the repository lacks the preimage blob, the hunks stay refused.
-N (--intent-to-add) with --no-commit marks each file the patch creates
as intended to be added, as git add -N does, so that git diff shows it
and git commit -a takes it; other files' index entries are left alone.
pair refuses -N where it would commit the new files (add --no-commit),
and says that it does nothing with --index, --cached or --3way --no-commit,
which stage them (git ignores it there).

Exit status: 0 applied, or nothing approved (with --check: every hunk
placed); 1 a hunk could not be placed (with --yes, --decisions or
answers on standard input; with --reject, the others were applied), a
file could not be written, a --whitespace=error refused the patch, a
--3way conflict was written, or --yes left a file that pair or git reads
as configuration unwritten (the rest was applied);
2 usage error, or decisions that do not fit the hunks; 130 interrupted.`,
		Flags: append([]cli.Flag{
			&cli.BoolFlag{Name: "check", Usage: "change nothing; show where each hunk goes and how it was placed"},
			&cli.BoolFlag{Name: "yes", Aliases: []string{"y"}, Usage: "approve every hunk without asking"},
			&cli.BoolFlag{Name: "interpret", Usage: "with --yes, --decisions or --check: accept interpreted hunks (that change lines the patch did not mark) and uncertain ones (placed where their reading is doubtful)"},
			&cli.StringFlag{Name: "decisions", Aliases: []string{"d"}, Usage: "decide without a terminal: one `LETTERS` per hunk, in order (y approve, n reject, a/d approve/reject the rest of the file, q reject the rest), e.g. yny"},
			&cli.BoolFlag{Name: "json", Usage: "print the placements and the outcome as one JSON object"},
			&cli.BoolFlag{Name: "explain", Usage: "with each hunk, list the rules that placed or refused it, and what each says"},
			&cli.IntFlag{Name: "p", Usage: "remove `N` leading directories from the patch's file names (git apply -p)", DefaultText: "a/ and b/, as git reads them"},
			&cli.StringFlag{Name: "directory", Usage: "put every path of the patch under `ROOT` (git apply --directory)"},
			&cli.GenericFlag{Name: "include", Value: filterFlag{&filters, true}, Usage: "apply only the files that match `GLOB` (repeatable; with --exclude, the first that matches decides)"},
			&cli.GenericFlag{Name: "exclude", Value: filterFlag{&filters, false}, Usage: "leave out the files that match `GLOB` (repeatable)"},
			&cli.BoolFlag{Name: "reverse", Aliases: []string{"R"}, Usage: "apply the patch backwards: remove what it adds, add back what it removes"},
			&cli.IntFlag{Name: "C", Usage: "a hunk that does not fit as written may fit with its outer context lines left out, down to `N` on each side (git apply -C<n>)", DefaultText: "every context line must fit"},
			&cli.BoolFlag{Name: "ignore-whitespace", Aliases: []string{"ignore-space-change"}, Usage: "compare context and deleted lines with runs of whitespace collapsed, and write added lines as the patch has them (git apply --ignore-whitespace)"},
			&cli.BoolFlag{Name: "stat", Usage: "print a diffstat of the patch as git apply --stat prints it, instead of applying it (unless --apply; with --json, as the JSON report's stat)"},
			&cli.BoolFlag{Name: "numstat", Usage: "print the added and deleted lines of each file, tab-separated, as git apply --numstat does, instead of applying (unless --apply; with --json, as the JSON report's stat)"},
			&cli.BoolFlag{Name: "summary", Usage: "print the files the patch creates, deletes, renames, copies or changes the mode of, as git apply --summary does, instead of applying (unless --apply; with --json, as the JSON report's stat)"},
			&cli.BoolFlag{Name: "z", Hidden: true, Usage: "with --numstat, end each name with NUL and do not quote it"},
			&cli.BoolFlag{Name: "apply", Usage: "apply the patch as well as printing --stat, --numstat or --summary"},
			&cli.BoolFlag{Name: "reject", Usage: "apply the hunks that place and write the others to FILE.rej, as git apply --reject does; exit 1 when any was rejected"},
			&cli.StringFlag{Name: "whitespace", Usage: "what to do with added lines that have whitespace errors (core.whitespace, the whitespace attribute): `ACTION` is nowarn, warn, fix, error or error-all (git apply --whitespace)", DefaultText: "apply.whitespace, else nowarn"},
			// git apply still takes these, and they do nothing: binary
			// patches are always applied.
			&cli.BoolFlag{Name: "binary", Hidden: true, Usage: "accepted for git apply's sake: binary patches are always applied"},
			&cli.BoolFlag{Name: "allow-binary-replacement", Hidden: true, Usage: "accepted for git apply's sake: binary patches are always applied"},
			&cli.BoolFlag{Name: "unidiff-zero", Usage: "accepted for git apply's sake: pair always places hunks without context (diff -U0) by their line numbers"},
			&cli.BoolFlag{Name: "recount", Usage: "take each hunk's line counts from its lines, not from its header (git apply --recount)"},
			&cli.BoolFlag{Name: "allow-empty", Usage: "succeed, doing nothing, on a patch with no change in it (git apply --allow-empty)"},
			&cli.BoolFlag{Name: "verbose", Aliases: []string{"v"}, Usage: "name each file on standard error as it is checked"},
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "print nothing on success (errors and warnings still go to standard error)"},
			&cli.BoolFlag{Name: "no-commit", Usage: "write the files but do not commit them (in a git repository, pair commits by default)"},
			&cli.BoolFlag{Name: "index", Usage: "write the files and stage them, commit nothing (git apply --index: the files must match the index)"},
			&cli.BoolFlag{Name: "cached", Usage: "apply the patch to the index only, leave the files alone, commit nothing (git apply --cached)"},
			&cli.BoolFlag{Name: "intent-to-add", Aliases: []string{"N"}, Usage: "with --no-commit: mark the files the patch creates as intended to be added, as git add -N does (git apply -N); does nothing with --index, --cached or --3way"},
			&cli.BoolFlag{Name: "3way", Aliases: []string{"3"}, Usage: "merge the files whose hunks do not place with the preimage blobs of the patch's index lines; conflicts are offered with markers and never committed (git apply --3way)"},
			&cli.StringFlag{Name: "message", Aliases: []string{"m"}, Usage: "the commit's subject `TEXT` (default: what the patch changes)"},
			&cli.BoolFlag{Name: "no-verify", Usage: "do not run the pre-commit and commit-msg hooks"},
			&cli.BoolFlag{Name: "verify", Usage: "run the test command on the approved hunks in a scratch tree before writing, and write only when it passes (verify: true in .pair.yml does too)"},
			&cli.StringFlag{Name: "test-cmd", Usage: "the test `COMMAND` of --verify and the summary's v key (default: test_cmd in .pair.yml)"},
			&cli.BoolFlag{Name: "allow-ignored", Usage: "let the patch read and write files git ignores"},
			&cli.BoolFlag{Name: "allow-secrets", Usage: "let the patch read and write files that look like secrets (.env, keys, credentials)"},
		}, attachedStrip()...),
		Action: func(c *cli.Context) error {
			if c.NArg() > 1 && slices.Contains(c.Args().Slice(), "-") {
				return output.Usagef("apply: standard input (-) is the only patch when it is one")
			}
			paths := apply.Paths{Root: c.String("directory"), Filters: filters, Reverse: c.Bool("reverse")}
			var err error
			if paths.Strip, err = attachedNumber(c, "p", "the number of directories to remove"); err != nil {
				return err
			}
			placing := edit.PlaceOptions{IgnoreWhitespace: c.Bool("ignore-whitespace")}
			context, err := attachedNumber(c, "C", "the number of context lines")
			if err != nil {
				return err
			}
			if context != nil {
				placing.ContextGiven, placing.Context = true, *context
			}
			opts := apply.Options{
				Patch:   c.Args().First(),
				More:    c.Args().Tail(),
				Paths:   paths,
				Placing: placing,
				Check:   c.Bool("check"),
				Yes:     c.Bool("yes"),
				// Interpret accepts interpreted hunks deciding ahead.
				Interpret: c.Bool("interpret"),
				Decisions: c.String("decisions"),
				JSON:      c.Bool("json"),
				Explain:   c.Bool("explain"),
				IO:        f.IO,
				OpenTree:  func(dir string) (*repo.Tree, error) { return openTree(dir, f.IO.Err) },

				Reports: apply.Reports{Stat: c.Bool("stat"), Numstat: c.Bool("numstat"), Z: c.Bool("z"),
					Summary: c.Bool("summary"), Apply: c.Bool("apply")},
				Reject:     c.Bool("reject"),
				Whitespace: c.String("whitespace"),
				AllowEmpty: c.Bool("allow-empty"),
				Recount:    c.Bool("recount"),
				Quiet:      c.Bool("quiet"),
				Verbose:    c.Bool("verbose"),

				NoCommit:   c.Bool("no-commit"),
				ThreeWay:   c.Bool("3way"),
				NoThreeWay: c.Bool("no-3way"),
				Index:      c.Bool("index"),
				Cached:     c.Bool("cached"),
				// IntentToAdd is -N: new files marked with git add -N.
				IntentToAdd: c.Bool("intent-to-add"),
				Message:     c.String("message"),
				NoVerify:    c.Bool("no-verify"),
				Access:      repo.Access{Ignored: c.Bool("allow-ignored"), Secrets: c.Bool("allow-secrets")},
				Verify:      c.Bool("verify"),
				LoadConfig: func(dir, stateDir string) (config.Config, error) {
					return loadConfig(c, dir, stateDir)
				},

				// pair am (am.go): mail, and a stopped series resumed.
				Mail:     c.Command.Name == "am",
				Continue: c.Bool("continue"),
				Skip:     c.Bool("skip"),
				Abort:    c.Bool("abort"),
			}
			return apply.Run(c.Context, opts)
		},
	}
}
