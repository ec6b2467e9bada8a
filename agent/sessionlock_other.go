//go:build !unix

package agent

import "os"

// tryLock is not available here: sessions are not locked (the content
// guard still refuses to apply a proposal twice).
func tryLock(*os.File) (busy bool, err error) { return false, nil }
