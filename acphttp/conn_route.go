package acphttp

// forgetRoute deletes key from routes, and returns nil for routes left empty:
// an idle connection keeps no map of calls in flight.
func forgetRoute(routes map[string]string, key string) map[string]string {
	delete(routes, key)
	if len(routes) == 0 {
		return nil
	}
	return routes
}

// routeResponse returns the session the client's response with id key
// belongs to, "" for none, and forgets it.
func (c *conn) routeResponse(key string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.clientRoutes[key]
	c.clientRoutes = forgetRoute(c.clientRoutes, key)
	return s
}

// peekResponse returns the session the client's response with id key
// belongs to, "" for none.
func (c *conn) peekResponse(key string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.clientRoutes[key]
}

// expect records that the response to the client's request with id key
// goes to the stream of session.
func (c *conn) expect(key, session string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.closed {
		if c.pending == nil {
			c.pending = map[string]string{}
		}
		c.pending[key] = session
	}
}

// expectLoad records session/load request key of session, whose replay
// and answer go to the connection stream.
func (c *conn) expectLoad(key, session string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return
	}
	if c.loads == nil {
		c.loads, c.loading = map[string]string{}, map[string]int{}
	}
	if _, ok := c.loads[key]; !ok {
		c.loads[key] = session
		c.loading[session]++
	}
}

// loadAnsweredLocked forgets session/load request key once it is answered.
func (c *conn) loadAnsweredLocked(key string) {
	session, ok := c.loads[key]
	if !ok {
		return
	}
	delete(c.loads, key)
	if c.loading[session]--; c.loading[session] <= 0 {
		delete(c.loading, session)
	}
}
