// Package config is pair's configuration: .pair.yml (in the repository
// and in the home directory), the environment and the command's flags,
// merged in that order of precedence, and the trust store that decides
// whether the repository's file may run commands or choose where the code
// and the API key go.
//
// Merge is pure: plain values in, the configuration in force and its
// trust verdict out. Load reads the files and the trust store and calls
// it.
package config
