package acpcheck

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
)

// expectStatus sends a request and judges its status.
func (r *remoteRun) expectStatus(req ID, method string, header map[string]string, body []byte, want ...int) (*http.Response, []byte) {
	resp, data, err := r.do(method, header, body)
	if err != nil {
		r.verdict(req, Fail, "%v", err)
		return nil, nil
	}
	for _, w := range want {
		if resp.StatusCode == w {
			r.verdict(req, Pass, "answered %d", resp.StatusCode)
			return resp, data
		}
	}
	r.verdict(req, Fail, "answered %d, want %v", resp.StatusCode, want)
	return resp, data
}

// checkErrors sends the requests the transport refuses.
func (r *remoteRun) checkErrors(conn string) {
	withConn := jsonHeader(map[string]string{"Acp-Connection-Id": conn})
	r.expectStatus(RemoteHTTPMissingConnection, http.MethodPost, jsonHeader(nil),
		[]byte(`{"jsonrpc":"2.0","id":3,"method":"session/new","params":{"cwd":"/","mcpServers":[]}}`), 400)
	r.expectStatus(RemoteHTTPUnknownConnection, http.MethodPost, jsonHeader(map[string]string{"Acp-Connection-Id": "acpcheck-no-such-connection"}),
		[]byte(`{"jsonrpc":"2.0","id":4,"method":"session/new","params":{"cwd":"/","mcpServers":[]}}`), 404)
	r.expectStatus(RemoteHTTPNotJSON, http.MethodPost, withConn, []byte(`{"jsonrpc":`), 400)
	r.expectStatus(RemoteHTTPContentType, http.MethodPost, map[string]string{"Content-Type": "text/plain", "Acp-Connection-Id": conn},
		[]byte(`{"jsonrpc":"2.0","method":"_acpcheck/notice"}`), 415)
	r.expectStatus(RemoteHTTPNotAcceptable, http.MethodGet, map[string]string{"Accept": "application/json", "Acp-Connection-Id": conn}, nil, 406)
	r.expectStatus(RemoteHTTPMethod, http.MethodPut, withConn, []byte(`{}`), 405)
	resp, data := r.expectStatus(RemoteHTTPBatch, http.MethodPost, withConn, []byte("["+string(r.init)+"]"), 400)
	if resp != nil && resp.StatusCode == 400 {
		var m msg
		if json.Unmarshal(data, &m) != nil || m.Error == nil || m.Error.Code != -32600 {
			r.verdict(RemoteHTTPBatch, Fail, "400, but the body is not a -32600 error: %s", clip(data))
		}
	}
	r.expectStatus(RemoteHTTPInitializeTwice, http.MethodPost, withConn, r.init, 400)
	if r.opts.NoBodyLimit {
		r.verdict(RemoteHTTPBodyLimit, NotApplicable, "skipped")
		return
	}
	big := bytes.Repeat([]byte(" "), 17<<20)
	copy(big, `{"jsonrpc":"2.0","method":"_acpcheck/notice","params":{"pad":"`)
	copy(big[len(big)-3:], `"}}`)
	resp, _, err := r.do(http.MethodPost, withConn, big)
	switch {
	case err != nil && (strings.Contains(err.Error(), "connection reset") || strings.Contains(err.Error(), "broken pipe")):
		r.verdict(RemoteHTTPBodyLimit, Pass, "the server closed the connection: %v", err)
	case err != nil:
		r.verdict(RemoteHTTPBodyLimit, Fail, "%v", err)
	case resp.StatusCode == 413 || resp.StatusCode == 400:
		r.verdict(RemoteHTTPBodyLimit, Pass, "answered %d", resp.StatusCode)
	default:
		r.verdict(RemoteHTTPBodyLimit, Fail, "a 17 MiB body answered %d", resp.StatusCode)
	}
}

// checkDelete ends the connection and expects it gone.
func (r *remoteRun) checkDelete(conn string) {
	resp, _, err := r.do(http.MethodDelete, map[string]string{"Acp-Connection-Id": conn}, nil)
	if err != nil {
		r.verdict(RemoteHTTPDelete, Fail, "%v", err)
		return
	}
	if resp.StatusCode/100 != 2 {
		r.verdict(RemoteHTTPDelete, Fail, "DELETE answered %d", resp.StatusCode)
		return
	}
	after, _, err := r.do(http.MethodPost, jsonHeader(map[string]string{"Acp-Connection-Id": conn}),
		[]byte(`{"jsonrpc":"2.0","method":"_acpcheck/notice"}`))
	switch {
	case err != nil:
		r.verdict(RemoteHTTPDelete, Fail, "%v", err)
	case after.StatusCode != 404:
		r.verdict(RemoteHTTPDelete, Fail, "DELETE answered %d, but a POST after it %d, not 404", resp.StatusCode, after.StatusCode)
	default:
		r.verdict(RemoteHTTPDelete, Pass, "DELETE %d, then 404", resp.StatusCode)
	}
}
