package apply

// applyCasesCRLF are patches made with LF endings that give a CRLF
// file's last line, which has no newline, its newline: what ending the
// new newline takes, by git apply and by pair, with and without the
// settings that tell git the file's endings (core.autocrlf, the text and
// eol attributes), and patches that carry the file's CRs.
func applyCasesCRLF() []applyCase {
	crlf := "printf 'a\\r\\nb\\r\\nc' > f; "
	// lfPatch writes f's change as a patch made where f has LF endings.
	lfPatch := func(diff string) string {
		return "printf 'a\\nb\\nc' > f; git add f; printf 'a\\nb\\nc\\n' > f; git diff " + diff
	}
	// keeps is why pair differs where git compares bytes: an LF patch
	// says nothing of the file's endings to pair, which keeps the file's.
	keeps := "git writes the patch's LF after the last line, as its bytes say, leaving the file's endings mixed; pair keeps the file's own ending (CRLF), as git does when core.autocrlf or the eol attribute tells it the file's endings"
	return []applyCase{
		{name: "CRLF file, LF patch adds the final newline, -U0", setup: crlf, makePatch: lfPatch("-U0"), differs: keeps},
		{name: "CRLF file, LF patch adds the final newline, with context", setup: crlf, makePatch: lfPatch(""),
			differs: "git compares bytes and refuses an LF patch's context on a CRLF file's lines; pair reads them as the same lines and keeps the file's CRLF"},
		{name: "CRLF file, LF patch adds the final newline, core.autocrlf", setup: "git config core.autocrlf true; " + crlf, makePatch: lfPatch("")},
		{name: "CRLF file, LF patch adds the final newline, -U0, core.autocrlf", setup: "git config core.autocrlf true; " + crlf, makePatch: lfPatch("-U0")},
		{name: "CRLF file, LF patch adds the final newline, eol=crlf", setup: "echo 'f text eol=crlf' > .gitattributes; " + crlf, makePatch: lfPatch("")},
		{name: "CRLF file, LF patch adds the final newline and a line, core.autocrlf", setup: "git config core.autocrlf true; " + crlf,
			makePatch: "printf 'a\\nb\\nc' > f; git add f; printf 'a\\nb\\nc\\nd\\n' > f; git diff"},
		{name: "CRLF file, its own diff adds the final newline", setup: crlf, makePatch: "printf 'a\\r\\nb\\r\\nc\\r\\n' > f; git diff"},
		{name: "CRLF file, its own diff adds the final newline, -U0", setup: crlf, makePatch: "printf 'a\\r\\nb\\r\\nc\\r\\n' > f; git diff -U0"},
		{name: "CRLF file, a patch of CRLF lines adds the final newline", setup: crlf, makePatch: lfPatch("") + " | sed 's/$/\\r/'",
			differs: "git reads the CR of every line of the patch as content, and refuses its deleted last line, c CR, on the file's c; pair reads a patch whose every line ends with CRLF as plain text, as mail and models write one"},
	}
}
