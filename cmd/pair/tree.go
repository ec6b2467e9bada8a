package main

import (
	"fmt"
	"io"
	"strings"

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
	if rec := t.Recovery; rec.Action != "" {
		fmt.Fprintf(w, "pair: an earlier pair was interrupted while writing %s; its write was %s\n",
			strings.Join(rec.Paths, ", "), rec.Action)
		if len(rec.Conflicts) > 0 {
			fmt.Fprintf(w, "pair: changed since, and left as they are: %s\n", strings.Join(rec.Conflicts, ", "))
		}
	}
	return t, nil
}
