package main

import (
	"fmt"
	"testing"
	"time"
)

func TestSplit(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{nil, "[]"},
		{[]string{"git", "--version"}, "[[git --version]]"},
		{[]string{"a", "x", "--", "b", "--", "--", "c", "y", "--"}, "[[a x] [b] [c y]]"},
	} {
		if got := fmt.Sprint(split(tt.args)); got != tt.want {
			t.Errorf("split(%q) = %s, want %s", tt.args, got, tt.want)
		}
	}
}

func TestMedian(t *testing.T) {
	for _, tt := range []struct {
		ts   []time.Duration
		want time.Duration
	}{
		{[]time.Duration{7}, 7},
		{[]time.Duration{9, 1, 5}, 5},
		{[]time.Duration{4, 1, 10, 2}, 3},
	} {
		if got := median(tt.ts); got != tt.want {
			t.Errorf("median(%v) = %v, want %v", tt.ts, got, tt.want)
		}
	}
}
