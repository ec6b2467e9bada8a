// Package proc holds what pair needs of operating-system processes: a
// command run in a process group of its own, the environment of a
// process started on the model's behalf (without secrets), and whether a
// process id still runs. It imports only the standard library.
package proc
