//go:build !unix

package mcp

// openNoFollow is 0 where open has no such flag: openNotes checks the
// file it opened against the name it looked at instead.
const openNoFollow = 0

// isLinkLoop reports the error of opening a link with openNoFollow.
func isLinkLoop(error) bool { return false }
