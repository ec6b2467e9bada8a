package repo_test

import (
	"testing"

	"github.com/pair-cli/pair/repo"
)

// BenchmarkMapSelf is a cold map of this repository: each round opens the
// tree anew, so every file is read and lexed again.
func BenchmarkMapSelf(b *testing.B) {
	for b.Loop() {
		tr, err := repo.Open("..")
		if err != nil {
			b.Fatal(err)
		}
		if _, _, err := tr.Map(repo.Access{}, repo.MapOptions{}); err != nil {
			b.Fatal(err)
		}
		tr.Close()
	}
}
