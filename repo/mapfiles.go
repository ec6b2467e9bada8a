// mapfiles.go: what the repository map leaves out: test data, fixtures, vendored, generated, lock and data files.

package repo

import (
	"bytes"
	"path"
	"strings"
	"sync"
)

// leftOutDirs are the folders whose files the map leaves out: test data,
// fixtures, and code vendored from other projects.
var leftOutDirs = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"testdata": true, "fixtures": true, "fixture": true, "__fixtures__": true,
		"__snapshots__": true, "vendor": true, "node_modules": true, "third_party": true,
	}
})

// lockFiles are the lock files of package managers: generated, and long.
var lockFiles = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"package-lock.json": true, "yarn.lock": true, "pnpm-lock.yaml": true, "go.sum": true,
		"cargo.lock": true, "poetry.lock": true, "pipfile.lock": true, "gemfile.lock": true,
		"composer.lock": true, "npm-shrinkwrap.json": true, "bun.lockb": true, "uv.lock": true,
	}
})

// dataExts are the extensions of data files, left out of the map when
// larger than maxMapData.
var dataExts = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		".json": true, ".jsonl": true, ".ndjson": true, ".csv": true, ".tsv": true, ".xml": true,
		".yaml": true, ".yml": true, ".txt": true, ".sql": true, ".svg": true, ".dat": true,
		".log": true, ".golden": true, ".snap": true,
	}
})

// maxMapData is the size of the largest data file the map lists.
const maxMapData = 32 << 10

// leftOutPath reports a file the map leaves out by its path alone: under
// a leftOutDirs folder, a lock file, minified code or a source map.
func leftOutPath(p string) bool {
	for _, seg := range strings.Split(path.Dir(p), "/") {
		if leftOutDirs()[strings.ToLower(seg)] {
			return true
		}
	}
	base := strings.ToLower(path.Base(p))
	return lockFiles()[base] || strings.HasSuffix(base, ".lock") ||
		strings.HasSuffix(base, ".min.js") || strings.HasSuffix(base, ".min.css") ||
		strings.HasSuffix(base, ".js.map") || strings.HasSuffix(base, ".css.map")
}

// leftOutContent reports a file the map leaves out by its content: a
// generated file (a "Code generated … DO NOT EDIT." or "@generated" line
// near its top), or a large data file.
func leftOutContent(p string, b []byte) bool {
	if len(b) > maxMapData && dataExts()[strings.ToLower(path.Ext(p))] {
		return true
	}
	head := b[:min(len(b), 2048)]
	for _, line := range bytes.Split(head, []byte("\n")) {
		if bytes.Contains(line, []byte("Code generated ")) && bytes.Contains(line, []byte("DO NOT EDIT")) ||
			bytes.Contains(line, []byte("@generated")) {
			return true
		}
	}
	return false
}

// isTestPath reports a test file, which the map ranks low.
func isTestPath(p string) bool {
	for _, seg := range strings.Split(path.Dir(p), "/") {
		switch strings.ToLower(seg) {
		case "test", "tests", "__tests__", "spec", "specs", "e2e":
			return true
		}
	}
	base := strings.ToLower(path.Base(p))
	stem := strings.TrimSuffix(base, path.Ext(base))
	return strings.HasSuffix(stem, "_test") || strings.HasPrefix(stem, "test_") ||
		strings.HasSuffix(stem, ".test") || strings.HasSuffix(stem, ".spec") ||
		strings.HasSuffix(stem, "_spec") || base == "conftest.py" ||
		strings.HasSuffix(stem, "test") && strings.HasSuffix(base, ".java")
}
