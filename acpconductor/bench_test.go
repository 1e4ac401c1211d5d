package acpconductor

import (
	"bufio"
	"io"
	"os/exec"
	"strconv"
	"testing"

	"github.com/acpgen/acpgen/internal/cputime"
)

// BenchmarkUpdates measures session/update notifications per second from
// the raw agent to the client, through the conductor alone, through one
// and two Go proxies on raw JSON-RPC, and through one acpv1.Proxy with no
// hook: each component a process of its own, as a chain runs.
func BenchmarkUpdates(b *testing.B) {
	const n = 20000
	for _, c := range []struct {
		name    string
		proxies []string
	}{
		{"direct", nil},
		{"conductor", nil},
		{"one proxy", []string{goProxy(b, "")}},
		{"two proxies", []string{goProxy(b, ""), goProxy(b, "")}},
		{"one acpv1.Proxy", []string{helper(b, "libproxy")}},
	} {
		b.Run(c.name, func(b *testing.B) {
			var cmds [][]string
			for _, line := range append(c.proxies, helper(b, "agent", "echo")) {
				words, _ := Split(line)
				cmds = append(cmds, words)
			}
			inR, inW := io.Pipe()
			outR, outW := io.Pipe()
			done := make(chan error, 1)
			if c.name == "direct" { // the agent's own pipes, no conductor
				cmd := exec.Command(cmds[0][0], cmds[0][1:]...)
				cmd.Stdin, cmd.Stdout = inR, outW
				if err := cmd.Start(); err != nil {
					b.Fatal(err)
				}
				go func() { done <- cmd.Wait(); outW.Close() }()
			} else {
				go func() { done <- Run(b.Context(), cmds, inR, outW, &Options{Stderr: io.Discard}); outW.Close() }()
			}
			br := bufio.NewReaderSize(outR, 1<<20)
			io.WriteString(inW, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}`+"\n")
			br.ReadSlice('\n')
			b.ResetTimer()
			cpu := cputime.Process()
			for i := range b.N {
				io.WriteString(inW, `{"jsonrpc":"2.0","id":`+strconv.Itoa(i+1)+`,"method":"flood","params":{"n":`+strconv.Itoa(n)+`}}`+"\n")
				for range n + 1 {
					if _, err := br.ReadSlice('\n'); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "updates/s")
			// The CPU time of this process, the conductor's and the
			// client's reading, a machine's load aside.
			b.ReportMetric(float64((cputime.Process()-cpu).Nanoseconds())/float64(n*b.N), "cpu-ns/update")
			b.StopTimer()
			inW.Close()
			go io.Copy(io.Discard, br)
			<-done
		})
	}
}
