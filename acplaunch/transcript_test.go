package acplaunch

import (
	"bytes"
	"encoding/json"
	"flag"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/acpgen/acpgen/generated/acpv1"
)

var update = flag.Bool("update", false, "rewrite the golden transcripts under testdata")

// transcript records the lines of a connection in both directions.
type transcript struct {
	mu    sync.Mutex
	lines []wireLine
	part  [2][]byte // the unfinished line of each direction
}

type wireLine struct {
	fromAgent bool
	data      []byte
}

// wrap is an Options.Wrap that records the wire in t.
func (t *transcript) wrap(r io.Reader, w io.Writer) (io.Reader, io.Writer) {
	return recorder{r: r, t: t, fromAgent: true}, recorder{w: w, t: t}
}

func (t *transcript) add(fromAgent bool, b []byte) {
	t.mu.Lock()
	defer t.mu.Unlock()
	i := 0
	if fromAgent {
		i = 1
	}
	t.part[i] = append(t.part[i], b...)
	for {
		n := bytes.IndexByte(t.part[i], '\n')
		if n < 0 {
			return
		}
		t.lines = append(t.lines, wireLine{fromAgent, append([]byte(nil), t.part[i][:n]...)})
		t.part[i] = t.part[i][n+1:]
	}
}

func (t *transcript) all() []wireLine {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]wireLine(nil), t.lines...)
}

type recorder struct {
	r         io.Reader
	w         io.Writer
	t         *transcript
	fromAgent bool
}

func (r recorder) Read(b []byte) (int, error) {
	n, err := r.r.Read(b)
	r.t.add(true, b[:n])
	return n, err
}

func (r recorder) Write(b []byte) (int, error) {
	n, err := r.w.Write(b)
	r.t.add(false, b[:n])
	return n, err
}

// checkV1 decodes every line of the transcript with acpv1, responses with
// the method of the request they answer, and checks that each payload
// (params, result, error) decodes to known types, with no unknown variant
// but those allowed, and encodes back byte for byte. It returns the
// unknown variants it found, by type name.
func checkV1(t *testing.T, lines []wireLine, allowed map[string]bool) map[string]int {
	t.Helper()
	sent := [2]map[string]string{{}, {}} // the requests of each side, method by id
	unknown := map[string]int{}
	for i, l := range lines {
		var env map[string]json.RawMessage
		if err := json.Unmarshal(l.data, &env); err != nil {
			t.Errorf("line %d is not a JSON object: %v\n%s", i, err, l.data)
			continue
		}
		from, to := side(l.fromAgent), side(!l.fromAgent)
		var method string
		_, isCall := env["method"]
		if isCall {
			json.Unmarshal(env["method"], &method)
			if id, ok := env["id"]; ok {
				sent[from][string(id)] = method
			}
		} else {
			method = sent[to][string(env["id"])]
			if method == "" {
				t.Errorf("line %d answers a request nobody sent\n%s", i, l.data)
				continue
			}
		}
		m, err := acpv1.DecodeMessage(l.data, method)
		if err != nil {
			t.Errorf("line %d (%s): %v\n%s", i, method, err, l.data)
			continue
		}
		payload, value := "params", m.Params
		switch {
		case m.Error != nil:
			payload, value = "error", m.Error
		case !isCall:
			payload, value = "result", m.Result
		}
		if _, raw := value.(json.RawMessage); raw {
			t.Errorf("line %d (%s): its %s decoded to no type: %s", i, method, payload, l.data)
			continue
		}
		enc, err := value.(json.Marshaler).MarshalJSON()
		if err != nil {
			t.Errorf("line %d (%s): encoding its %s: %v", i, method, payload, err)
		} else if !bytes.Equal(enc, env[payload]) {
			t.Errorf("line %d (%s): its %s encodes back as\n%s\nnot as received\n%s", i, method, payload, enc, env[payload])
		}
		findUnknown(reflect.ValueOf(value), unknown)
	}
	for name := range unknown {
		if !allowed[name] {
			t.Errorf("the transcript holds %d unknown variants %s", unknown[name], name)
		}
	}
	return unknown
}

func side(fromAgent bool) int {
	if fromAgent {
		return 1
	}
	return 0
}

// findUnknown counts the unknown union variants (the generated *...Other
// types) in v, by type name.
func findUnknown(v reflect.Value, found map[string]int) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			findUnknown(v.Elem(), found)
		}
	case reflect.Struct:
		if t := v.Type(); t.PkgPath() == reflect.TypeOf(acpv1.Error{}).PkgPath() && strings.HasSuffix(t.Name(), "Other") {
			found[t.Name()]++
		}
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				findUnknown(v.Field(i), found)
			}
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			findUnknown(v.Index(i), found)
		}
	case reflect.Map:
		for it := v.MapRange(); it.Next(); {
			findUnknown(it.Value(), found)
		}
	}
}

// golden compares the transcript, with each string in replace replaced by
// its placeholder, with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name string, lines []wireLine, replace map[string]string) {
	t.Helper()
	var b bytes.Buffer
	for _, l := range lines {
		who := "client: "
		if l.fromAgent {
			who = "agent:  "
		}
		text := string(l.data)
		for from, to := range replace {
			text = strings.ReplaceAll(text, from, to)
		}
		b.WriteString(who + text + "\n")
	}
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run the test with -update to write it)", err)
	}
	if !bytes.Equal(b.Bytes(), want) {
		t.Errorf("the transcript differs from %s (-update rewrites it):\n%s", path, b.Bytes())
	}
}
