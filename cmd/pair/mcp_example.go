package main

import (
	"os"
	"path/filepath"
	"strings"
)

// selfPath is how pair names itself in .pair.yml (${PAIR}): the path it
// was started by when that is a path, else its executable.
func selfPath() string {
	if a := os.Args[0]; filepath.IsAbs(a) {
		return a
	}
	if p, err := filepath.Abs(os.Args[0]); err == nil && strings.ContainsRune(os.Args[0], filepath.Separator) {
		return p
	}
	if p, err := os.Executable(); err == nil {
		return p
	}
	return "pair"
}

// expandConfig replaces ${VAR} with pair's environment, and ${PAIR} with
// pair's own path (when the environment does not set it).
func expandConfig(s string) string {
	return os.Expand(s, func(k string) string {
		if v, ok := os.LookupEnv(k); ok {
			return v
		}
		if k == "PAIR" {
			return selfPath()
		}
		return ""
	})
}
