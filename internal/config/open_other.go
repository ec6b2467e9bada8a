//go:build !unix

package config

// openFlags: elsewhere a file is opened as it is.
const openFlags = 0
