// Package config is pair's configuration: .pair.yml (in the repository
// and in the home directory), the environment and the command's flags,
// merged in that order of precedence, and the trust store that decides
// whether the repository's file counts: until the person trusts it, only
// its harmless settings (tools) do; the model, the server, commands and
// every limit need trust.
//
// Merge is pure: plain values in, the configuration in force and its
// trust verdict out. Load reads the files and the trust store and calls
// it. A .pair.yml is read only as a regular file of at most MaxFileSize
// bytes, the repository's never through a symbolic link, and a home
// directory file that is a file of the repository is the repository's.
package config
