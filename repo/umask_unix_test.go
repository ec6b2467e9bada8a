//go:build unix

package repo_test

import "syscall"

func setUmask(mask int) int { return syscall.Umask(mask) }
