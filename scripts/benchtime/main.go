// Benchtime runs commands in rounds and prints the median wall time of
// each, in nanoseconds, one line per command in the order given. It is
// the timer of scripts/bench-apply.sh.
//
//	benchtime [-n ROUNDS] [-C DIR] CMD ARGS... [-- CMD ARGS...]...
//
// Commands are separated by "--". After one untimed warm-up round, each
// round runs every command once, in turn, so that a change in the
// machine's load falls on all of them alike. A command's standard output
// is discarded and it reads no input; one that fails stops benchtime with
// its standard error and status 1.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"
)

func main() {
	rounds := flag.Int("n", 5, "timed rounds")
	dir := flag.String("C", "", "run the commands in `DIR`")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: benchtime [-n ROUNDS] [-C DIR] CMD ARGS... [-- CMD ARGS...]...")
		flag.PrintDefaults()
	}
	flag.Parse()
	cmds := split(flag.Args())
	if len(cmds) == 0 || *rounds < 1 {
		flag.Usage()
		os.Exit(2)
	}
	times := make([][]time.Duration, len(cmds))
	for r := -1; r < *rounds; r++ { // round -1 warms up
		for i, c := range cmds {
			d, err := timeRun(*dir, c)
			if err != nil {
				fmt.Fprintf(os.Stderr, "benchtime: %s: %v\n", strings.Join(c, " "), err)
				os.Exit(1)
			}
			if r >= 0 {
				times[i] = append(times[i], d)
			}
		}
	}
	for _, t := range times {
		fmt.Println(median(t).Nanoseconds())
	}
}

// split cuts args into commands at each "--", dropping empty ones.
func split(args []string) [][]string {
	var cmds [][]string
	start := 0
	for i := 0; i <= len(args); i++ {
		if i < len(args) && args[i] != "--" {
			continue
		}
		if i > start {
			cmds = append(cmds, args[start:i])
		}
		start = i + 1
	}
	return cmds
}

// timeRun runs one command in dir and returns its wall time.
func timeRun(dir string, args []string) (time.Duration, error) {
	var stderr bytes.Buffer
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir = dir
	cmd.Stderr = &stderr
	start := time.Now()
	err := cmd.Run()
	d := time.Since(start)
	if err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			err = errors.Join(err, errors.New(msg))
		}
		return 0, err
	}
	return d, nil
}

// median returns the median of ts (the mean of the middle two for an
// even count); ts must not be empty.
func median(ts []time.Duration) time.Duration {
	s := slices.Sorted(slices.Values(ts))
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}
