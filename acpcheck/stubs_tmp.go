package acpcheck

import (
	"context"
	"io"
	"time"
)

type RemoteOptions struct{ Timeout time.Duration }
type ClientOptions struct{ Timeout time.Duration }

func CheckRemote(ctx context.Context, url string, o RemoteOptions) *Report { return &Report{} }
func CheckClient(ctx context.Context, w io.Writer, r io.Reader, o ClientOptions) *Report {
	return &Report{}
}
