package conntest

import "testing"

// Run runs, each in a subtest of its name, the tests of this package that
// take only the package and the error of a closed connection (closed),
// which every generated package with sides passes alike.
func Run(t *testing.T, pkg *Package, closed error) {
	tests := []struct {
		name string
		run  func(*testing.T, *Package)
	}{
		{"Echo", Echo},
		{"NotificationOrder", NotificationOrder},
		{"Concurrent", Concurrent},
		{"CancelOutbound", CancelOutbound},
		{"PeerCloses", func(t *testing.T, pkg *Package) { PeerCloses(t, pkg, closed) }},
		{"LongLine", LongLine},
		{"Wire", Wire},
		{"Extensions", Extensions},
		{"NullPayloads", NullPayloads},
		{"CancelInbound", CancelInbound},
		{"InitGateConcurrent", InitGateConcurrent},
		{"InitializeFirst", InitializeFirst},
		{"NeverReads", func(t *testing.T, pkg *Package) { NeverReads(t, pkg, closed) }},
		{"HugeLine", HugeLine},
		{"ManyRequests", ManyRequests},
		{"CloseMidCall", func(t *testing.T, pkg *Package) { CloseMidCall(t, pkg, closed) }},
		{"PanicLogged", PanicLogged},
		{"FlushOnPeerClose", func(t *testing.T, pkg *Package) { FlushOnPeerClose(t, pkg, closed) }},
		{"FlushBoundedByStall", FlushBoundedByStall},
		{"DerivedContext", DerivedContext},
		{"IdleGoroutines", IdleGoroutines},
		{"Parking", Parking},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { tc.run(t, pkg) })
	}
}
