package acpcheck_test

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/acpgen/acpgen/acpcheck"
)

// Check an agent run as a command, in both protocol versions, without
// sending it prompts, and write the JSON report for CI.
func ExampleCheckAgent() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	r := acpcheck.CheckAgent(ctx, acpcheck.Command("./my-agent", "--stdio"), acpcheck.AgentOptions{NoPrompt: true})
	fmt.Print(r.Text())
	if err := r.WriteJSON(os.Stdout); err != nil {
		fmt.Println(err)
	}
	if !r.OK() {
		os.Exit(1)
	}
}

// List the MUSTs a remote endpoint is checked against.
func ExampleRequirements() {
	for _, req := range acpcheck.Requirements("remote.ws.") {
		if req.Tier == acpcheck.Must {
			fmt.Println(req.ID)
		}
	}
	// Output:
	// remote.ws.text-frames
	// remote.ws.upgrade
}
