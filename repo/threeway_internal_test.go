package repo

import (
	"strings"
	"testing"

	"github.com/pair-cli/pair/repo/repotest"
)

func TestFindBlob(t *testing.T) {
	dir := repotest.Init(t, map[string]string{"a": "a\n", "b": "b\n"})
	id := strings.Fields(repotest.Git(t, dir, "rev-parse", "HEAD:a"))[0]
	tr, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	st, err := tr.repo.gitStorage()
	if err != nil {
		t.Fatal(err)
	}
	// A loose object and a packed one: git gc packs them.
	for _, packed := range []bool{false, true} {
		if packed {
			repotest.Git(t, dir, "gc", "-q")
			if st, err = tr.repo.gitStorage(); err != nil {
				t.Fatal(err)
			}
		}
		for _, tt := range []struct {
			id   string
			want bool
		}{
			{id, true},
			{id[:7], true},
			{strings.ToUpper(id[:9]), true}, // odd length, upper case
			{id[:3], false},                 // too short to name a blob
			{"0000000", false},              // git's id of no file
			{"1234567", false},              // no such blob
			{"zzzzzzz", false},
		} {
			h, ok := findBlob(st, tt.id)
			if ok != tt.want || ok && h.String() != id {
				t.Errorf("packed %v: findBlob(%s) = %s, %v; want %v", packed, tt.id, h, ok, tt.want)
			}
		}
	}
}
