package acpcheck

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"testing"
	"time"
)

// fakeClient drives CheckClient with raw JSON-RPC, right in every respect
// the kit checks unless fault names one rule to break.
func fakeClient(fault string, version int, w io.WriteCloser, r io.Reader) {
	defer w.Close()
	send := func(v any) {
		b, _ := json.Marshal(v)
		w.Write(append(b, '\n'))
	}
	if fault == "framing" {
		fmt.Fprintln(w, "hello agent")
	}
	cwd := "/tmp"
	if fault == "relative-cwd" {
		cwd = "tmp"
	}
	newSession := map[string]any{"jsonrpc": "2.0", "id": 2, "method": "session/new", "params": map[string]any{"cwd": cwd, "mcpServers": []any{}}}
	if fault == "schema" {
		newSession["params"] = map[string]any{"cwd": cwd, "mcpServers": 5}
	}
	if fault == "first" {
		send(newSession)
	}
	fs := map[string]any{"readTextFile": true, "writeTextFile": fault != "no-write"}
	init := map[string]any{"protocolVersion": version, "clientCapabilities": map[string]any{"fs": fs, "terminal": true}}
	if version == 2 {
		init = map[string]any{"protocolVersion": 2, "capabilities": map[string]any{}, "info": map[string]any{"name": "fake", "version": "1"}}
	}
	send(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": init})
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	var sid string
	files := map[string]string{}
	for sc.Scan() {
		var m struct {
			ID     json.RawMessage
			Method string
			Params json.RawMessage
			Result json.RawMessage
		}
		json.Unmarshal(sc.Bytes(), &m)
		switch {
		case m.Method == "" && string(m.ID) == "1":
			send(newSession)
		case m.Method == "" && string(m.ID) == "2":
			var res struct{ SessionID string }
			json.Unmarshal(m.Result, &res)
			sid = res.SessionID
			block := map[string]any{"type": "text", "text": "hi"}
			if fault == "prompt-content" {
				block = map[string]any{"type": "image", "data": "", "mimeType": "image/png"}
			}
			send(map[string]any{"jsonrpc": "2.0", "id": 3, "method": "session/prompt", "params": map[string]any{"sessionId": sid, "prompt": []any{block}}})
		case m.Method == "" && string(m.ID) == "3" && version == 1:
			return // the turn ended
		case m.Method == "session/update" && version == 2:
			var p struct {
				Update struct{ SessionUpdate, State string }
			}
			json.Unmarshal(m.Params, &p)
			if p.Update.State == "idle" {
				return
			}
		case m.Method == "session/update" || m.Method == "_acpcheck/notice":
			if fault == "notification-answer" {
				send(map[string]any{"jsonrpc": "2.0", "id": nil, "error": map[string]any{"code": -32601, "message": "no"}})
			}
		case m.Method == "session/request_permission":
			fakePermission(fault, sid, m.ID, send)
		case m.Method == "terminal/create":
			send(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": map[string]any{"terminalId": "t1"}})
		case m.Method == "terminal/wait_for_exit":
			send(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": map[string]any{"exitCode": 0}})
		case m.Method == "terminal/release":
			if fault == "terminal" {
				send(map[string]any{"jsonrpc": "2.0", "id": m.ID, "error": map[string]any{"code": -32601, "message": "method not found"}})
			} else {
				send(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": map[string]any{}})
			}
		case m.Method == "fs/read_text_file" || m.Method == "fs/write_text_file":
			send(fakeFile(fault, files, m.Method, m.ID, m.Params))
		case m.Method != "":
			if fault == "method-not-found" {
				send(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": map[string]any{}})
			} else {
				send(map[string]any{"jsonrpc": "2.0", "id": m.ID, "error": map[string]any{"code": -32601, "message": "method not found"}})
			}
		}
	}
}

func checkFakeClient(t *testing.T, fault string, version int) *Report {
	t.Helper()
	toKit, fromClient := io.Pipe()
	toClient, fromKit := io.Pipe()
	done := make(chan struct{})
	go func() {
		defer close(done)
		fakeClient(fault, version, fromClient, toClient)
		io.Copy(io.Discard, toClient) // until the kit is done
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	rep := CheckClient(ctx, fromKit, toKit, ClientOptions{Timeout: 1500 * time.Millisecond, PermissionTimeout: 5 * time.Second})
	fromKit.Close()
	toKit.Close()
	<-done
	return rep
}

func TestFakeClientPasses(t *testing.T) {
	for _, v := range []int{1, 2} {
		r := checkFakeClient(t, "", v)
		if !r.OK() || len(r.Failed()) > 0 {
			for _, f := range r.Failed() {
				t.Logf("%s: %s\n%s", f.ID, f.Detail, transcriptText(f.Transcript))
			}
			t.Fatalf("v%d:\n%s", v, r.Text())
		}
		if v == 1 {
			for _, id := range []ID{ClientFSRead, ClientFSWrite, ClientFSReadBack, ClientTerminal} {
				if vs := r.Find(id); len(vs) != 1 || vs[0].Status != Pass {
					t.Errorf("%s: %+v", id, vs)
				}
			}
		}
	}
	r := checkFakeClient(t, "cancel", 1)
	if vs := r.Find(ClientPermissionCancelled); len(vs) != 1 || vs[0].Status != Pass {
		t.Errorf("client.permission.cancelled: %+v", vs)
	}
}

// TestClientNoWrite: a client that does not advertise fs.writeTextFile
// (and refuses writes) is sent none.
func TestClientNoWrite(t *testing.T) {
	r := checkFakeClient(t, "no-write", 1)
	for _, id := range []ID{ClientFSWrite, ClientFSReadBack} {
		if vs := r.Find(id); len(vs) != 1 || vs[0].Status != NotApplicable {
			t.Errorf("%s: %+v", id, vs)
		}
	}
	if !r.OK() {
		t.Errorf("not OK:\n%s", r.Text())
	}
}

func TestPlantedClientFaults(t *testing.T) {
	for _, tc := range []struct {
		fault string
		req   ID
	}{
		{"framing", ClientStdioFraming},
		{"first", ClientInitFirst},
		{"relative-cwd", ClientSessionCWD},
		{"schema", ClientSchemaValid},
		{"prompt-content", ClientPromptContent},
		{"id-string", ClientRPCIDString},
		{"method-not-found", ClientRPCMethodNotFound},
		{"notification-answer", ClientRPCNotificationSilent},
		{"bad-option", ClientPermissionAnswer},
		{"cancel-selected", ClientPermissionCancelled},
		{"terminal", ClientTerminal},
		{"write-error", ClientFSWrite},
		{"read-back", ClientFSReadBack},
	} {
		t.Run(tc.fault, func(t *testing.T) {
			r := checkFakeClient(t, tc.fault, 1)
			failed := false
			for _, v := range r.Find(tc.req) {
				failed = failed || v.Status == Fail
			}
			if !failed || r.OK() {
				t.Errorf("%s not failed, or the run OK:\n%s", tc.req, r.Text())
			}
		})
	}
}

// fakeFile answers the file system requests from files, in memory, as
// the fault says: write-error refuses writes, read-back reads back other
// content, and no-write (which does not advertise writes) refuses them.
func fakeFile(fault string, files map[string]string, method string, id, params json.RawMessage) any {
	var p struct{ Path, Content string }
	json.Unmarshal(params, &p)
	fail := map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{"code": -32002, "message": "not found"}}
	if method == "fs/write_text_file" {
		if fault == "write-error" || fault == "no-write" {
			return fail
		}
		files[p.Path] = p.Content
		return map[string]any{"jsonrpc": "2.0", "id": id, "result": map[string]any{}}
	}
	content, ok := files[p.Path]
	if !ok {
		return fail
	}
	if fault == "read-back" {
		content += "changed"
	}
	return map[string]any{"jsonrpc": "2.0", "id": id, "result": map[string]any{"content": content}}
}

// fakePermission answers a permission request as the fault says.
func fakePermission(fault, sid string, id json.RawMessage, send func(any)) {
	if fault == "id-string" {
		id = json.RawMessage("1")
	}
	outcome := map[string]any{"outcome": "selected", "optionId": "allow"}
	switch fault {
	case "bad-option":
		outcome["optionId"] = "maybe"
	case "cancel", "cancel-selected":
		send(map[string]any{"jsonrpc": "2.0", "method": "session/cancel", "params": map[string]any{"sessionId": sid}})
		if fault == "cancel" {
			outcome = map[string]any{"outcome": "cancelled"}
		}
	}
	send(map[string]any{"jsonrpc": "2.0", "id": id, "result": map[string]any{"outcome": outcome}})
}
