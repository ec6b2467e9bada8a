package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/pair-cli/pair/app/blame"
)

func TestBlameOptions(t *testing.T) {
	var got blame.Options
	if err := runCmd(t, newBlameCmd(testFactory, capture(&got)), "blame", "-C", "--json", "--directory=sub", "a.go"); err != nil {
		t.Fatal(err)
	}
	if got.Dir != "sub" || !got.Copies || !got.JSON || got.Stats || !slices.Equal(got.Paths, []string{"a.go"}) || got.OpenTree == nil {
		t.Errorf("got %+v", got)
	}
	got = blame.Options{}
	if err := runCmd(t, newBlameCmd(testFactory, capture(&got)), "blame", "--stats"); err != nil {
		t.Fatal(err)
	}
	if !got.Stats || len(got.Paths) != 0 {
		t.Errorf("--stats: got %+v", got)
	}
	for _, args := range [][]string{{"blame"}, {"blame", "a.go", "b.go"}} {
		err := runCmd(t, newBlameCmd(testFactory, capture(&got)), args...)
		if err == nil || !strings.Contains(err.Error(), "name one file") {
			t.Errorf("%q: %v, want a usage error", args, err)
		}
	}
}
