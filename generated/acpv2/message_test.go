package acpv2

import (
	"errors"
	"fmt"
	"testing"

	"github.com/acpgen/acpgen/internal/rpctest"
)

// TestDecodeMessageKinds decodes a message of each kind and lines that
// are none.
func TestDecodeMessageKinds(t *testing.T) { rpctest.Kinds(t, testCodec) }

func TestMethodSides(t *testing.T) { rpctest.MethodSides(t, RequestSide, NotificationSide) }

func TestErrorIsGoError(t *testing.T) {
	var err error = fmt.Errorf("prompt: %w", NewError(ErrorCodeMethodNotFound, "Method not found"))
	var rpcErr *Error
	if !errors.As(err, &rpcErr) {
		t.Fatalf("errors.As did not find *Error in %v", err)
	}
	if rpcErr.Code != ErrorCodeMethodNotFound || rpcErr.Message != "Method not found" {
		t.Errorf("errors.As found %+v", rpcErr)
	}
	if got, want := err.Error(), "prompt: json-rpc error -32601: Method not found"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}
