package emit

import (
	"fmt"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/acpgen/acpgen/gen/ir"
)

// The sides of the protocol: per side, the interface of the methods every
// implementation handles, one interface per optional method, the connection
// type that serves an implementation and calls the peer, the routing tables
// of inbound methods, and the typed outbound calls. The connection runtime
// itself is the runtime in templates/conn. Unstable methods go into their
// feature's file, which adds their routes in an init function.

// routes is the routing table of s for methods of kind k.
func routes(s *ir.Side, k ir.MethodKind) string {
	if k == ir.Notification {
		return s.NotificationRoutes
	}
	return s.RequestRoutes
}

// methodWhat is `the "session/load" request`.
func methodWhat(m *ir.Method) string {
	if m.Kind == ir.Request {
		return fmt.Sprintf("the %q request", m.Name)
	}
	return fmt.Sprintf("the %q notification", m.Name)
}

// handlerSig is the signature of m's handler, after its name:
// (ctx context.Context, params *P) (*R, error), or error for a notification.
func handlerSig(m *ir.Method) *jen.Statement {
	s := jen.Params(jen.Id("ctx").Qual("context", "Context"), jen.Id("params").Op("*").Id(m.Params.GoName))
	if m.Result == nil {
		return s.Error()
	}
	return s.Params(jen.Op("*").Id(m.Result.GoName), jen.Error())
}

// sidesFile emits the stable part of both sides.
func (e *emitter) sidesFile(f *jen.File) {
	for _, s := range e.p.Sides {
		e.baseInterface(f, s)
		for _, m := range s.Handles {
			if !m.Required && !m.Unstable {
				optionalInterface(f, s, m)
			}
		}
		e.connType(f, s)
		for _, k := range []ir.MethodKind{ir.Request, ir.Notification} {
			kind := "requests"
			if k == ir.Notification {
				kind = "notifications"
			}
			f.Comment(fmt.Sprintf("%s routes the %s that %s %s handles, by method; build tags add the unstable ones.", routes(s, k), kind, article(s.Name), s.GoName))
			f.Var().Id(routes(s, k)).Op("=").Map(jen.String()).Id("route").Values(jen.DictFunc(func(d jen.Dict) {
				for _, m := range s.Handles {
					if m.Kind == k && !m.Unstable {
						d[jen.Id(m.Const)] = route(s, m)
					}
				}
			}))
			f.Line()
		}
		for _, m := range s.Peer.Handles {
			if !m.Unstable {
				outbound(f, s, m)
			}
		}
	}
}

/*
	type Agent interface {
		// Initialize handles the "initialize" request.
		Initialize(ctx context.Context, params *InitializeRequest) (*InitializeResponse, error)
	}
*/
func (e *emitter) baseInterface(f *jen.File, s *ir.Side) {
	var methods []jen.Code
	for _, m := range s.Handles {
		if m.Required {
			methods = append(methods, jen.Comment(fmt.Sprintf("%s handles %s.", m.GoName, methodWhat(m))))
			methods = append(methods, jen.Id(m.GoName).Add(handlerSig(m)))
		}
	}
	f.Comment(fmt.Sprintf("%s is implemented by every %s: the methods of the protocol that each %s must handle.", s.GoName, s.Name, s.Name))
	f.Comment(fmt.Sprintf("%s %s handles an optional method by implementing that method's interface too", upperFirst(article(s.Name)), s.Name))
	example := s.GoName + "…"
	for _, m := range s.Handles {
		if !m.Required && !m.Unstable {
			example = m.Interface + ", …"
			break
		}
	}
	f.Comment(fmt.Sprintf("(%s); a request for a method it lacks is answered \"method not found\".", example))
	f.Comment(fmt.Sprintf("Serve one with %s.", s.NewConn))
	f.Type().Id(s.GoName).Interface(methods...)
	f.Line()
}

// optionalInterface emits the interface of one optional method of s.
func optionalInterface(f *jen.File, s *ir.Side, m *ir.Method) {
	f.Comment(fmt.Sprintf("%s is implemented by %s %s that handles %s.", m.Interface, article(s.Name), s.GoName, methodWhat(m)))
	f.Type().Id(m.Interface).Interface(jen.Id(m.GoName).Add(handlerSig(m)))
	f.Line()
}

/*
	type AgentSideConnection struct {
		*connection
	}
*/
func (e *emitter) connType(f *jen.File, s *ir.Side) {
	peer := s.Peer.Name
	f.Comment(fmt.Sprintf("%s is %s %s's end of its connection to %s %s: it serves %s %s, and its", s.Conn, article(s.Name), s.Name, article(peer), peer, article(s.Name), s.GoName))
	f.Comment(fmt.Sprintf("methods call the %s's. Calls may be made from any goroutine.", peer))
	f.Type().Id(s.Conn).Struct(jen.Op("*").Id("connection"))
	f.Line()
	connConstructors(f, s)
}

/*
	func NewAgentSideConnection(agent Agent, w io.Writer, r io.Reader, opts ...ConnOption) *AgentSideConnection {
		c := &AgentSideConnection{newConnection(agentRequests, agentNotifications, w, r, opts)}
		c.start(agent)
		return c
	}

	func NewAgentSideConnectionFunc(newAgent func(*AgentSideConnection) Agent, w io.Writer, r io.Reader, opts ...ConnOption) *AgentSideConnection {
		c := &AgentSideConnection{newConnection(agentRequests, agentNotifications, w, r, opts)}
		c.start(newAgent(c))
		return c
	}
*/
func connConstructors(f *jen.File, s *ir.Side) {
	peer, impl, newImpl := s.Peer.Name, s.Name, "new"+s.GoName
	body := func(impl jen.Code) *jen.Statement {
		return jen.Block(
			jen.Id("c").Op(":=").Op("&").Id(s.Conn).Values(jen.Id("newConnection").Call(
				jen.Id(routes(s, ir.Request)), jen.Id(routes(s, ir.Notification)), jen.Id("w"), jen.Id("r"), jen.Id("opts"))),
			jen.Id("c").Dot("start").Call(impl),
			jen.Return(jen.Id("c")),
		)
	}
	io := []jen.Code{jen.Id("w").Qual("io", "Writer"), jen.Id("r").Qual("io", "Reader"), jen.Id("opts").Op("...").Id("ConnOption")}
	f.Comment(fmt.Sprintf("%s serves %s on a connection that reads the %s's messages from r and", s.NewConn, impl, peer))
	f.Comment("writes to w, one JSON-RPC message per line, until r ends or Close is called")
	f.Comment("(Done and Err tell when and why). The options set its limits (WithLimits)")
	f.Comment("and its logger (WithLogger).")
	f.Comment("")
	f.Comment("An r with the method ReadOrPark(p []byte, resume func()) (n int, parked bool,")
	f.Comment("err error) is read with it, and an idle connection then holds no goroutine:")
	f.Comment("when no input waits, ReadOrPark returns parked instead of blocking, and calls")
	f.Comment("resume once, from any goroutine, when some may be read or r has closed.")
	f.Func().Id(s.NewConn).Params(append([]jen.Code{jen.Id(impl).Id(s.GoName)}, io...)...).Op("*").Id(s.Conn).
		Add(body(jen.Id(impl)))
	f.Line()
	f.Comment(fmt.Sprintf("%s is %s for", s.NewConnFunc, s.NewConn))
	f.Comment(fmt.Sprintf("%s %s that calls the %s: %s is given the connection and", article(s.Name), s.Name, peer, newImpl))
	f.Comment(fmt.Sprintf("returns the %s it serves, before anything is read. %s %s that", s.GoName, upperFirst(article(s.Name)), s.Name))
	f.Comment(fmt.Sprintf("keeps the connection %s returns may be called", s.NewConn))
	f.Comment(fmt.Sprintf("before it has it, when a message is waiting already; one made by %s", newImpl))
	f.Comment("has it.")
	f.Func().Id(s.NewConnFunc).Params(append([]jen.Code{jen.Id(newImpl).Func().Params(jen.Op("*").Id(s.Conn)).Id(s.GoName)}, io...)...).Op("*").Id(s.Conn).
		Add(body(jen.Id(newImpl).Call(jen.Id("c"))))
	f.Line()
}

/*
	func(ctx context.Context, impl any, params inParams) (any, error) {
		h, ok := impl.(AgentLoadSession)
		if !ok {
			return nil, errNoHandler
		}
		return serveRequest(ctx, params, h.LoadSession)
	}
*/
func route(s *ir.Side, m *ir.Method) jen.Code {
	serve := "serveRequest"
	if m.Kind == ir.Notification {
		serve = "serveNotification"
	}
	var body []jen.Code
	handler := jen.Id("impl").Assert(jen.Id(s.GoName)).Dot(m.GoName)
	if !m.Required {
		body = append(body,
			jen.List(jen.Id("h"), jen.Id("ok")).Op(":=").Id("impl").Assert(jen.Id(m.Interface)),
			jen.If(jen.Op("!").Id("ok")).Block(jen.Return(jen.Nil(), jen.Id("errNoHandler"))))
		handler = jen.Id("h").Dot(m.GoName)
	}
	body = append(body, jen.Return(jen.Id(serve).Call(jen.Id("ctx"), jen.Id("params"), handler)))
	return jen.Func().Params(jen.Id("ctx").Qual("context", "Context"), jen.Id("impl").Any(), jen.Id("params").Id("inParams")).
		Params(jen.Any(), jen.Error()).Block(body...)
}

/*
	func (c *AgentSideConnection) RequestPermission(ctx context.Context, params *RequestPermissionRequest) (*RequestPermissionResponse, error) {
		return call[*RequestPermissionResponse](ctx, c.connection, MethodRequestPermission, params)
	}
*/
func outbound(f *jen.File, s *ir.Side, m *ir.Method) {
	recv := jen.Id("c").Op("*").Id(s.Conn)
	if m.Result == nil {
		f.Comment(fmt.Sprintf("%s sends the %s %s.", m.GoName, s.Peer.Name, methodWhat(m)))
		f.Func().Params(recv).Id(m.GoName).Add(handlerSig(m)).Block(
			jen.Return(jen.Id("c").Dot("notify").Call(jen.Id("ctx"), jen.Id(m.Const), jen.Id("params"))))
	} else {
		f.Comment(fmt.Sprintf("%s sends the %s %s and returns its result; an error", m.GoName, s.Peer.Name, methodWhat(m)))
		f.Comment("response is an *Error. Cancelling ctx cancels the request and returns ctx.Err().")
		f.Func().Params(recv).Id(m.GoName).Add(handlerSig(m)).Block(
			jen.Return(jen.Id("call").Types(jen.Op("*").Id(m.Result.GoName)).Call(jen.Id("ctx"), jen.Id("c").Dot("connection"), jen.Id(m.Const), jen.Id("params"))))
	}
	f.Line()
}

// unstableSides emits the interfaces, routes and outbound calls of the
// methods key gates.
func (e *emitter) unstableSides(f *jen.File, key string) {
	if !e.p.Conn {
		return
	}
	var reg []jen.Code
	for _, s := range e.p.Sides {
		for _, m := range s.Handles {
			if !m.Unstable || m.Key() != key {
				continue
			}
			optionalInterface(f, s, m)
			reg = append(reg, jen.Id(routes(s, m.Kind)).Index(jen.Id(m.Const)).Op("=").Add(route(s, m)))
		}
		for _, m := range s.Peer.Handles {
			if m.Unstable && m.Key() == key {
				outbound(f, s, m)
			}
		}
	}
	if len(reg) > 0 {
		f.Func().Id("init").Params().Block(reg...)
		f.Line()
	}
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
