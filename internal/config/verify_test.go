package config

import (
	"slices"
	"testing"
)

// verify: true runs the tests before every write: a repository's file
// sets it only once trusted, as it sets test_cmd.
func TestMergeVerify(t *testing.T) {
	yes := true
	file := File{TestCmd: "go test ./...", Verify: &yes}
	for _, tc := range []struct {
		name    string
		src     Source
		want    bool
		ignored []string
	}{
		{"untrusted", Source{Path: "r", File: file, Repo: true}, false, []string{"test_cmd", "verify"}},
		{"trusted", Source{Path: "r", File: file, Repo: true, Trusted: true}, true, nil},
		{"home", Source{Path: "h", File: file}, true, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Merge(Inputs{Flags: Flags{MaxRetries: -1}, Files: []Source{tc.src}})
			if err != nil {
				t.Fatal(err)
			}
			if got.Verify != tc.want || !slices.Equal(got.Untrusted, tc.ignored) {
				t.Errorf("got verify %v, untrusted %v; want %v, %v", got.Verify, got.Untrusted, tc.want, tc.ignored)
			}
		})
	}
}
