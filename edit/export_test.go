package edit

// PlaceWork places fd against old like Place and returns the steps the
// tolerant passes took (see placer.work), for tests that bound them.
func PlaceWork(old string, fd *FileDiff) ([]Resolved, []*PlacementError, int) {
	fp := choosePlaces(old, fd)
	fp.pl.style = fp.style.usable()
	rs, errs := fp.finish()
	return rs, errs, fp.pl.work
}
