package acpv2

import (
	"testing"

	"github.com/acpgen/acpgen/internal/rpctest"
)

func TestMethodSides(t *testing.T) { rpctest.MethodSides(t, RequestSide, NotificationSide) }

func TestErrorIsGoError(t *testing.T) {
	rpctest.ErrorIsGoError(t, NewError(ErrorCodeMethodNotFound, "Method not found"))
}
