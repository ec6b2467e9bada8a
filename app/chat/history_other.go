//go:build !unix

package chat

// historyNoFollow is nothing where there is no O_NOFOLLOW: open checks
// the file with Lstat first.
const historyNoFollow = 0
