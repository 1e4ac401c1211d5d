package acpinspect

import (
	"encoding/json"
	"sort"
)

// session is what an Inspector knows of one session.
type session struct {
	id      string
	conn    int64
	state   sessionState
	items   []TranscriptItem
	texts   [][]byte // the text of each item, appended to in place
	tools   []*ToolView
	toolIdx map[string]*ToolView
	perms   []*PermissionView
	states  []StateChange

	turnOpen  bool // a session/prompt is waiting for its answer (v1)
	turnEnded bool // a session/prompt was answered, no other came since
	loading   bool // a session/load is waiting for its answer
	cancelled bool // session/cancel came during the open turn
	cancelSeq int64
	lastIdle  bool // v2: the last state_update was idle
	split     bool // something other than a chunk came since the last one
}

// TranscriptItem is a message of the conversation: the chunks of one
// message joined by message id (or, without ids, consecutive chunks of one
// role).
type TranscriptItem struct {
	Role      string  `json:"role"` // user, agent or thought
	MessageID string  `json:"messageId,omitempty"`
	Text      string  `json:"text"`
	Seqs      []int64 `json:"seqs"`
}

// ToolView is a tool call with the history of its status.
type ToolView struct {
	ID      string       `json:"id"`
	Title   string       `json:"title"`
	Status  string       `json:"status"`
	History []StatusSeen `json:"history"`
}

// StatusSeen is a status a tool call took, and the message that set it.
type StatusSeen struct {
	Status string `json:"status"`
	Seq    int64  `json:"seq"`
}

// PermissionView is a permission request and its outcome.
type PermissionView struct {
	Seq       int64    `json:"seq"`
	ToolCall  string   `json:"toolCall"`
	Title     string   `json:"title"`
	Options   []string `json:"options"`
	Outcome   string   `json:"outcome,omitempty"` // the option chosen, "cancelled", or "" while it waits
	AnswerSeq int64    `json:"answerSeq,omitempty"`
	id        string
}

// StateChange is a v2 state_update.
type StateChange struct {
	Seq   int64           `json:"seq"`
	State string          `json:"state"`
	Raw   json.RawMessage `json:"raw"`
}

// SessionView is a session as the UI shows it.
type SessionView struct {
	ID          string           `json:"id"`
	Conn        int64            `json:"conn"`
	Transcript  []TranscriptItem `json:"transcript"`
	ToolCalls   []ToolView       `json:"toolCalls"`
	Permissions []PermissionView `json:"permissions"`
	States      []StateChange    `json:"states"`
	State       stateView        `json:"state"`
}

// Sessions returns the sessions of every connection.
func (in *Inspector) Sessions() []SessionView {
	in.mu.RLock()
	defer in.mu.RUnlock()
	out := []SessionView{}
	for _, id := range in.order {
		c := in.conns[id]
		for _, sid := range c.sessionOrder {
			s := c.sessions[sid]
			v := SessionView{ID: s.id, Conn: s.conn, Transcript: s.transcript(),
				ToolCalls: []ToolView{}, Permissions: []PermissionView{}, States: append([]StateChange{}, s.states...),
				State: s.state.view()}
			for _, t := range s.tools {
				tv := *t
				tv.History = append([]StatusSeen{}, t.History...)
				v.ToolCalls = append(v.ToolCalls, tv)
			}
			for _, p := range s.perms {
				v.Permissions = append(v.Permissions, *p)
			}
			out = append(out, v)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Conn < out[j].Conn })
	return out
}

// transcript returns a copy of the transcript.
func (s *session) transcript() []TranscriptItem {
	out := make([]TranscriptItem, len(s.items))
	for i, it := range s.items {
		it.Text = string(s.texts[i])
		it.Seqs = append([]int64(nil), it.Seqs...)
		out[i] = it
	}
	return out
}

// say adds text of role to the transcript, joined to the last item when
// it is the same message: the same message id, or, without ids, a chunk
// of the same role with nothing else of the session between.
func (s *session) say(role, messageID, text string, seq int64) {
	split := s.split
	s.split = false
	if n := len(s.items); n > 0 {
		last := &s.items[n-1]
		if last.Role == role && last.MessageID == messageID && (messageID != "" || !split) {
			s.texts[n-1] = append(s.texts[n-1], text...)
			last.Seqs = append(last.Seqs, seq)
			return
		}
	}
	s.items = append(s.items, TranscriptItem{Role: role, MessageID: messageID, Seqs: []int64{seq}})
	s.texts = append(s.texts, []byte(text))
}

// toolSeen records a tool call's title and status after an update.
func (s *session) toolSeen(id string, seq int64) {
	title, status, ok := s.state.toolCall(id)
	if !ok {
		return
	}
	t := s.toolIdx[id]
	if t == nil {
		t = &ToolView{ID: id}
		s.toolIdx[id] = t
		s.tools = append(s.tools, t)
	}
	t.Title = title
	if t.Status != status || len(t.History) == 0 {
		t.History = append(t.History, StatusSeen{Status: status, Seq: seq})
	}
	t.Status = status
}

// contentText is the text a content block shows in a transcript.
func contentText(raw json.RawMessage) string {
	var c struct {
		Type string `json:"type"`
		Text string `json:"text"`
		URI  string `json:"uri"`
	}
	if json.Unmarshal(raw, &c) != nil {
		return ""
	}
	return contentBlock{typ: c.Type, text: c.Text, uri: c.URI}.show()
}
