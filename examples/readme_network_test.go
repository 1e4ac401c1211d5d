package examples

import "testing"

// TestReadmeNetwork builds the programs of README's "Serving over the
// network": the server, the client, the reconnect function and the
// sticky handler. How they behave is tested in package acphttp.
func TestReadmeNetwork(t *testing.T) {
	for heading, name := range map[string]string{
		"### A server":             "netserver",
		"### Clients":              "netclient",
		"### Reconnecting":         "netreconnect",
		"### Affinity and cookies": "netsticky",
	} {
		buildReadme(t, heading, name)
	}
}
