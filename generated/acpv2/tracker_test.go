package acpv2

import (
	"testing"

	"github.com/acpgen/acpgen/internal/rpctest"
)

func TestRequestTrackerTypesResults(t *testing.T)    { rpctest.TrackerTypesResults(t, testCodec) }
func TestRequestTrackerErrorsAndForget(t *testing.T) { rpctest.TrackerErrorsAndForget(t, testCodec) }
func TestRequestTrackerInvalidResponse(t *testing.T) { rpctest.TrackerInvalidResponse(t, testCodec) }
func TestRequestTrackerConcurrent(t *testing.T)      { rpctest.TrackerConcurrent(t, testCodec) }
