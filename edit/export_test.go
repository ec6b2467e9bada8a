package edit

// PlaceWork places fd against old like Place and returns the steps the
// tolerant passes took (see placer.work), for tests that bound them.
func PlaceWork(old string, fd *FileDiff) ([]Resolved, []*PlacementError, int) {
	fp := choosePlaces(old, fd, gitContext([]*FileDiff{fd}))
	fp.pl.style = fp.style.usable()
	rs, errs := fp.finish()
	return rs, errs, fp.pl.work
}

// CheckSyntax runs the syntax check for a file named name on text: the
// check's name, what is wrong ("" when it passes), and whether there is a
// check for that language at all.
func CheckSyntax(name, text string) (check, problem string, ok bool) {
	sc, ok := syntaxFor(name)
	if !ok {
		return "", "", false
	}
	return sc.name, sc.check(text), true
}
