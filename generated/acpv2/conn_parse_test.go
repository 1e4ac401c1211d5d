package acpv2

import (
	"testing"

	"github.com/acpgen/acpgen/internal/conntest"
)

// FuzzParseLine checks that no line makes the envelope reader panic, and
// that what it accepts is a message of one kind.
func FuzzParseLine(f *testing.F) {
	conntest.FuzzLine(f, func(line []byte) (code int, m conntest.LineMessage) {
		lm, err := parseLine(line, defaultMaxIDLength, nil)
		if err != nil {
			return int(err.Code), m
		}
		return 0, conntest.LineMessage{Empty: lm.empty, Method: lm.method, ID: lm.id, Params: lm.params.raw}
	})
}

// FuzzParseCommon checks that the fast reading of the lines in the common
// layout makes of them what the reading of any line does.
func FuzzParseCommon(f *testing.F) {
	var calls callTracker
	calls.track(1, newPendingCall(MethodInitialize))
	type parsed struct {
		m   lineMessage
		err *Error
	}
	conntest.FuzzCommonLayout(f, func(line []byte, fast bool) (bool, any) {
		if fast {
			m, ok := parseCommon(line, defaultMaxIDLength, &calls)
			return ok, parsed{m: m}
		}
		m, err := parseMembers(line, defaultMaxIDLength, &calls)
		return true, parsed{m, err}
	})
}
