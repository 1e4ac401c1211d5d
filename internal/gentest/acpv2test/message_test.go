package acpv2test

import (
	"testing"

	"github.com/acpgen/acpgen/generated/acpv2"
	"github.com/acpgen/acpgen/internal/rpctest"
)

func TestMethodSides(t *testing.T) { rpctest.MethodSides(t, acpv2.RequestSide, acpv2.NotificationSide) }

func TestErrorIsGoError(t *testing.T) {
	rpctest.ErrorIsGoError(t, acpv2.NewError(acpv2.ErrorCodeMethodNotFound, "Method not found"))
}
