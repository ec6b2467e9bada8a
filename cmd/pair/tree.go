package main

import (
	"fmt"
	"io"

	"github.com/pair-cli/pair/internal/display"
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
		fmt.Fprintf(w, "pair: an earlier pair was interrupted while writing %d %s; its write was %s:\n",
			len(rec.Paths), plural(len(rec.Paths), "file"), rec.Action)
		printNames(w, rec.Paths)
		if len(rec.Conflicts) > 0 {
			fmt.Fprintf(w, "pair: %d %s changed since, and left as %s:\n",
				len(rec.Conflicts), plural(len(rec.Conflicts), "file"), map[bool]string{true: "it is", false: "they are"}[len(rec.Conflicts) == 1])
			printNames(w, rec.Conflicts)
		}
	}
	return t, nil
}

// maxNames is how many names printNames shows before it counts the rest.
const maxNames = 10

// printNames lists names one per line, indented, at most maxNames of them
// and then how many more there are.
func printNames(w io.Writer, names []string) {
	for i, n := range names {
		if i == maxNames {
			fmt.Fprintf(w, "  and %d more\n", len(names)-maxNames)
			break
		}
		fmt.Fprintf(w, "  %s\n", display.Name(n))
	}
}
