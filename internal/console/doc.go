// Package console is pair's side of the person's terminal: the standard
// streams with their terminal and colour state (decided once, when the
// process starts, as gh's iostreams does), the routing of Ctrl-C, single
// key presses in raw mode, the person's editor, and the review front end
// run on the terminal.
package console
