package proc

import (
	"os"
	"os/exec"
	"testing"
)

func TestAlive(t *testing.T) {
	if Alive(os.Getpid()) {
		t.Error("Alive(own pid): got true, want false (a lock naming it is an earlier process's)")
	}
	if Alive(0) || Alive(-1) {
		t.Error("Alive of no pid: got true")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if !Alive(cmd.Process.Pid) {
		t.Error("Alive(running child): got false")
	}
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	if Alive(cmd.Process.Pid) {
		t.Error("Alive(child that ended): got true")
	}
}
