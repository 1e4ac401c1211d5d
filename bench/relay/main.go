// Command relay runs a command and copies its standard input and output
// through itself with io.Copy, recording nothing: the floor of any process
// that sits between a client and an agent, which the tap benchmarks
// measure acpinspect's tap against.
//
//	relay AGENT ARGS...
package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: relay AGENT ARGS...")
		os.Exit(2)
	}
	if err := relay(exec.Command(os.Args[1], os.Args[2:]...)); err != nil {
		fmt.Fprintln(os.Stderr, "relay:", err)
		os.Exit(1)
	}
}

func relay(cmd *exec.Cmd) error {
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	go func() {
		io.CopyBuffer(in, os.Stdin, make([]byte, 64<<10))
		in.Close()
	}()
	io.CopyBuffer(os.Stdout, out, make([]byte, 64<<10))
	return cmd.Wait()
}
