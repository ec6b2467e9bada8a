package main

import (
	"slices"

	"github.com/urfave/cli/v2"
)

// amCommand is pair apply for mail, named as git users know it: the same
// flags and review, one commit per mail, and a stopped series resumed.
func amCommand(f *factory) *cli.Command {
	cmd := applyCommand(f)
	cmd.Name = "am"
	cmd.Usage = "apply a series of mailed patches (git format-patch files, an mbox), one review and one commit per mail, as git am does"
	cmd.ArgsUsage = "[MAILBOX|-] | --continue | --skip | --abort"
	cmd.Description = `Reads mail from MAILBOX, or from standard input when MAILBOX is "-" or
missing: a git format-patch file, several concatenated, or an mbox. pair
apply reads such a file the same way when it sees that it is mail.

Each mail is one patch, reviewed as pair apply reviews it (see pair apply
--help), and committed on its own, as git am commits it:

  author     the mail's From: and Date: (or those at the start of its body)
  committer  you, as for any pair commit
  message    the subject without "Re:" and [PATCH n/m]-style tags, then the
             body up to the "---" line; the diffstat after it is not kept.
             Its trailers (Signed-off-by: ...) stay, and pair's audit
             trailers follow them.

With -3 (--3way), as git am -3, a mail whose hunks do not place is merged
with the preimage blobs its "index" lines name (see pair apply --help): a
clean merge is committed as the mail's; a conflict stops the series, and
--yes never approves it. Approved in the terminal, it is written with
conflict markers and left unmerged in the index, as git am -3 leaves it.
Resolve it and stage the result (git add); pair am --continue then
commits the index as the mail's commit, as git am --continue does: the
mail's author, date and message, pair's trailers with a Pair-Resolved:
line for each file you resolved. It refuses while a path is unmerged,
and when nothing is staged (pair am --skip goes on without the mail, if
its change is in already). am.threeWay in git's
configuration turns -3 on, --no-3way off. git am has no --index or
--cached, and pair am neither: each mail is committed.

Quoted-printable and base64 bodies are decoded. A series of several mails
is decided with --yes or in the terminal: decisions given ahead would fall
on the wrong mail's hunks.

At the first mail that does not apply, pair am stops: the mails before it
are committed, nothing of it is written, and the series is kept in the git
directory (pair-am). Then:

  pair am --continue  apply the stopped mail again, after you fixed the
                      files it applies to or the mail itself (the message
                      names its file), and go on with the rest; after a
                      -3 conflict, commit your staged resolution instead
  pair am --skip      go on without the stopped mail
  pair am --abort     take back the series' commits (with pair undo's
                      rules) and end the series

After a -3 conflict, --skip and --abort first put the files it left
conflicted back as HEAD has them, index and working tree, as git am
does (through the file's filter and line-ending conversion, with its
mode); other files keep their changes. Unlike git, which discards it,
pair refuses when you changed such a file since the conflict (began
resolving it, or staged it): it names the file; keep that work (git
stash, or a copy) or drop it (git checkout HEAD -- FILE), then run the
command again.

Exit status: as pair apply's; 1 also when a mail stopped the series.`
	// git am has no --index, --cached or -N: each mail is committed,
	// the index with it. Its --3way falls back to a three-way merge.
	cmd.Flags = slices.DeleteFunc(slices.Clone(cmd.Flags), func(fl cli.Flag) bool {
		return slices.Contains([]string{"index", "cached", "intent-to-add"}, fl.Names()[0])
	})
	cmd.Flags = append(cmd.Flags,
		&cli.BoolFlag{Name: "no-3way", Usage: "do not fall back to a three-way merge, whatever am.threeWay says"},
		&cli.BoolFlag{Name: "continue", Usage: "apply the mail the series stopped at again (after a -3 conflict: commit your staged resolution as its commit), then the rest"},
		&cli.BoolFlag{Name: "skip", Usage: "go on with the series without the mail it stopped at"},
		&cli.BoolFlag{Name: "abort", Usage: "take back the commits of the stopped series and end it"},
	)
	return cmd
}
