package acprouter_test

import (
	"context"
	"fmt"
	"io"

	"github.com/acpgen/acpgen/acprouter"
	"github.com/acpgen/acpgen/generated/acpv1"
	"github.com/acpgen/acpgen/generated/acpv2"
	"github.com/acpgen/acpgen/generated/convert"
)

// agentV1 and agentV2 are the smallest agents of each version.
type agentV1 struct{ acpv1.Agent }

func (agentV1) Initialize(ctx context.Context, p *acpv1.InitializeRequest) (*acpv1.InitializeResponse, error) {
	return acpv1.NewInitializeResponse(1), nil
}

type agentV2 struct{ acpv2.Agent }

func (agentV2) Initialize(ctx context.Context, p *acpv2.InitializeRequest) (*acpv2.InitializeResponse, error) {
	return acpv2.NewInitializeResponse(2, acpv2.Implementation{Name: "agent", Version: "1.0"}), nil
}

// An agent that serves both protocol versions on one connection: the
// router reads the client's initialize, picks the highest version it
// serves at or below the one asked for, and hands the stream to that
// version's connection. Serve returns once a version is picked; here one
// client of each version connects, each over its own in-memory stdio.
func ExampleNew() {
	router, err := acprouter.New(
		acprouter.NewRoute(1, func(w io.Writer, r io.Reader) *acpv1.AgentSideConnection {
			return acpv1.NewAgentSideConnection(agentV1{}, w, r)
		}, convert.InitializeForV1),
		acprouter.NewRoute(2, func(w io.Writer, r io.Reader) *acpv2.AgentSideConnection {
			return acpv2.NewAgentSideConnection(agentV2{}, w, r)
		}, convert.InitializeForV2))
	if err != nil {
		panic(err)
	}
	ctx := context.Background()

	for _, version := range []int{1, 2} {
		clientIn, agentOut := io.Pipe()
		agentIn, clientOut := io.Pipe()
		served := make(chan acprouter.Conn, 1)
		go func() {
			conn, err := router.Serve(agentOut, agentIn)
			if err != nil {
				panic(err)
			}
			served <- conn
		}()
		var client interface{ Close() error }
		if version == 1 {
			c := acpv1.NewClientSideConnection(nil, clientOut, clientIn) // nil: the agent calls no client here
			r, err := c.Initialize(ctx, acpv1.NewInitializeRequest(1))
			if err != nil {
				panic(err)
			}
			fmt.Println("a v1 client is served in version", r.ProtocolVersion)
			client = c
		} else {
			c := acpv2.NewClientSideConnection(nil, clientOut, clientIn) // nil: the agent calls no client here
			r, err := c.Initialize(ctx, acpv2.NewInitializeRequest(2, acpv2.Implementation{Name: "editor", Version: "1.0"}))
			if err != nil {
				panic(err)
			}
			fmt.Println("a v2 client is served in version", r.ProtocolVersion, "by", r.Info.Name)
			client = c
		}
		clientOut.Close() // the agent's connection reads the end of its input
		<-(<-served).Done()
		client.Close()
	}
	// Output:
	// a v1 client is served in version 1
	// a v2 client is served in version 2 by agent
}
