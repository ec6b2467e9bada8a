package main

import (
	"fmt"
	"io"

	"github.com/pair-cli/pair/internal/safetext"
	"github.com/pair-cli/pair/repo"
)

// openTree opens the working tree that holds dir ("" for the current
// directory) and tells the person, on w, about a write that an earlier
// pair process left interrupted and that opening it finished or undid.
func openTree(dir string, w io.Writer) (*repo.Tree, error) {
	if dir == "" {
		dir = "."
	}
	t, err := repo.Open(dir)
	if err != nil {
		return nil, err
	}
	for _, msg := range t.Recovery.Notice() {
		fmt.Fprintf(w, "pair: %s\n", safetext.Text(msg))
	}
	return t, nil
}
