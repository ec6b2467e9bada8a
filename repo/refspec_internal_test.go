package repo

import "testing"

func TestMapRefspec(t *testing.T) {
	for _, tt := range []struct {
		spec, name, want string
		ok               bool
	}{
		{"+refs/heads/*:refs/remotes/origin/*", "refs/heads/main", "refs/remotes/origin/main", true},
		{"refs/heads/*:refs/remotes/origin/*", "refs/heads/a/b", "refs/remotes/origin/a/b", true},
		{"+refs/heads/*:refs/remotes/origin/*", "refs/tags/v1", "", false},
		{"refs/heads/main:refs/remotes/o/trunk", "refs/heads/main", "refs/remotes/o/trunk", true},
		{"refs/heads/main:refs/remotes/o/trunk", "refs/heads/mainx", "", false},
		{"refs/heads/pre-*-post:refs/remotes/o/*", "refs/heads/pre-x-post", "refs/remotes/o/x", true},
		{"refs/heads/pre-*-post:refs/remotes/o/*", "refs/heads/pre-post", "", false},
		{"^refs/heads/secret", "refs/heads/secret", "", false},
		{"refs/heads/*", "refs/heads/main", "", false}, // no destination
	} {
		got, ok := mapRefspec(tt.spec, tt.name)
		if got != tt.want || ok != tt.ok {
			t.Errorf("mapRefspec(%q, %q) = %q, %v; want %q, %v", tt.spec, tt.name, got, ok, tt.want, tt.ok)
		}
	}
}
