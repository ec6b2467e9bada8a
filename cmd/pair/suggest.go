package main

import (
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/pair-cli/pair/internal/output"
)

// unknownCommand is the usage error for a command pair does not have,
// with the most similar ones, as git words it:
//
//	'aply' is not a pair command. See 'pair --help'.
//
//	The most similar command is
//		apply
func unknownCommand(name string, cmds []*cli.Command) error {
	msg := "'" + name + "' is not a pair command. See 'pair --help'."
	var names []string
	for _, c := range cmds {
		names = append(names, c.Name)
	}
	switch similar := mostSimilar(name, names); len(similar) {
	case 0:
	case 1:
		msg += "\n\nThe most similar command is\n\t" + similar[0]
	default:
		msg += "\n\nThe most similar commands are\n\t" + strings.Join(similar, "\n\t")
	}
	return &output.UsageError{Msg: msg}
}

// mostSimilar returns the names closest to name: those it begins (a
// prefix of at least two letters), else those at the smallest edit
// distance (a letter added, removed, changed, or two swapped), when that
// is at most 2 and less than name's length; none when nothing is close.
func mostSimilar(name string, names []string) []string {
	var prefixed []string
	for _, n := range names {
		if len(name) >= 2 && strings.HasPrefix(n, name) {
			prefixed = append(prefixed, n)
		}
	}
	if len(prefixed) > 0 {
		return prefixed
	}
	best, limit := []string(nil), min(2, len(name)-1)
	for _, n := range names {
		switch d := editDistance(name, n); {
		case d > limit:
		case d < limit:
			best, limit = []string{n}, d
		default:
			best = append(best, n)
		}
	}
	return best
}

// editDistance is the number of letters added, removed or changed, and of
// neighbours swapped, that make a into b (the optimal string alignment
// distance).
func editDistance(a, b string) int {
	x, y := []rune(a), []rune(b)
	// d[i][j] is the distance between x[:i] and y[:j].
	d := make([][]int, len(x)+1)
	for i := range d {
		d[i] = make([]int, len(y)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(x); i++ {
		for j := 1; j <= len(y); j++ {
			cost := 1
			if x[i-1] == y[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && x[i-1] == y[j-2] && x[i-2] == y[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(x)][len(y)]
}
