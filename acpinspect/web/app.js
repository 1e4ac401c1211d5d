// acpinspect's page: plain JavaScript, no library, no build step.
"use strict";

const PAGE = 200;
const state = {
  rows: [],          // the entries of the page shown
  lastSeq: 0,        // the last seq the stream delivered
  total: 0,
  follow: true,
  selected: 0,
  tab: "messages",
  filter: { problems: false, method: "" },
  dirty: {},
};

function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") el.className = v;
    else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v);
  }
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

async function get(path) {
  const r = await fetch(path, { credentials: "same-origin" });
  if (!r.ok) throw new Error(path + ": " + r.status);
  return r.json();
}

function fmtTime(t) {
  const d = new Date(t);
  return d.toTimeString().slice(0, 8) + "." + String(d.getMilliseconds()).padStart(3, "0");
}

function fmtMs(v) {
  if (v === undefined || v === null) return "";
  return v < 10 ? v.toFixed(2) + " ms" : v.toFixed(1) + " ms";
}

function seqLink(seq) {
  return h("a", { class: "seq", onclick: () => showMessage(seq, true) }, "#" + seq);
}

function matches(e) {
  const f = state.filter;
  return (!f.problems || e.verdict !== "ok") && (!f.method || (e.method || "").includes(f.method));
}

function query(extra) {
  const p = new URLSearchParams(extra);
  p.set("limit", PAGE);
  if (state.filter.problems) p.set("only", "problems");
  if (state.filter.method) p.set("method", state.filter.method);
  return "/api/messages?" + p;
}

function row(e, fresh) {
  const dir = e.from === "client" ? "client → agent" : "agent → client";
  const tr = h("tr", { "data-seq": e.seq, class: fresh ? "fresh" : "", onclick: () => showMessage(e.seq) },
    h("td", { class: "num" }, e.seq),
    h("td", {}, fmtTime(e.time)),
    h("td", { class: "dir-" + e.from }, dir),
    h("td", {}, e.method || (e.kind === "invalid" ? "(not JSON-RPC)" : "")),
    h("td", {}, e.id || ""),
    h("td", {}, h("span", { class: "verdict v-" + e.verdict, title: e.problem || (e.unknown || []).join("\n") }, e.verdict)),
    h("td", { class: "num" }, fmtMs(e.latencyMs)),
    h("td", { class: "num" }, e.size),
    h("td", { class: "type", title: e.type || "" }, e.type || ""),
    h("td", { class: "num" }, e.conn));
  if (e.seq === state.selected) tr.classList.add("selected");
  return tr;
}

function renderRows() {
  const body = document.querySelector("#messages tbody");
  body.replaceChildren(...state.rows.map(e => row(e, false)));
  renderRange();
}

function renderRange() {
  const r = state.rows;
  document.getElementById("range").textContent = r.length
    ? `#${r[0].seq}–#${r[r.length - 1].seq} of ${state.total}` : `none of ${state.total}`;
}

async function loadPage(params) {
  const page = await get(query(params));
  state.rows = page.entries;
  state.total = page.total;
  renderRows();
  if (params.before !== undefined || params.from !== undefined) {
    const list = document.querySelector(".list");
    if (state.follow) list.scrollTop = list.scrollHeight;
  }
}

function appendLive(entries) {
  const body = document.querySelector("#messages tbody");
  for (const e of entries) {
    if (!matches(e)) continue;
    state.rows.push(e);
    body.append(row(e, true));
  }
  while (state.rows.length > PAGE) {
    state.rows.shift();
    body.firstChild.remove();
  }
  renderRange();
  const list = document.querySelector(".list");
  list.scrollTop = list.scrollHeight;
}

async function showMessage(seq, switchTab) {
  if (switchTab) selectTab("messages");
  state.selected = seq;
  document.querySelectorAll("#messages tr.selected").forEach(tr => tr.classList.remove("selected"));
  const tr = document.querySelector(`#messages tr[data-seq="${seq}"]`);
  if (tr) tr.classList.add("selected");
  else {
    state.follow = false;
    document.getElementById("follow").checked = false;
    await loadPage({ from: Math.max(1, seq - PAGE / 2) });
    const t = document.querySelector(`#messages tr[data-seq="${seq}"]`);
    if (t) { t.classList.add("selected"); t.scrollIntoView({ block: "center" }); }
  }
  const d = await get("/api/message?seq=" + seq);
  const e = d.entry;
  const kv = h("dl", { class: "kv" },
    h("dt", {}, "from"), h("dd", {}, e.from),
    h("dt", {}, "kind"), h("dd", {}, e.kind),
    h("dt", {}, "method"), h("dd", {}, e.method || "—"),
    h("dt", {}, "id"), h("dd", {}, e.id || "—"),
    h("dt", {}, "session"), h("dd", {}, e.session || "—"),
    h("dt", {}, "Go type"), h("dd", {}, e.type || "—"),
    h("dt", {}, "latency"), h("dd", {}, fmtMs(e.latencyMs) || "—"),
    h("dt", {}, e.kind === "request" ? "response" : "request"), h("dd", {}, e.pair ? seqLink(e.pair) : "—"),
    h("dt", {}, "verdict"), h("dd", {}, h("span", { class: "verdict v-" + e.verdict }, e.verdict)));
  const parts = [h("h3", {}, `Message #${e.seq}`), kv];
  if (e.error) parts.push(h("p", {}, "error response: " + e.error));
  if (e.problem) parts.push(h("p", { class: "problem" }, e.problem + (e.path ? ` (at ${e.path})` : "")));
  if (e.unknown && e.unknown.length) parts.push(h("h3", {}, "Unknown to the schema"), h("ul", {}, e.unknown.map(u => h("li", {}, u))));
  if (d.findings.length) parts.push(h("h3", {}, "Findings"), h("ul", {}, d.findings.map(f =>
    h("li", {}, h("b", {}, `${f.tier} ${f.rule}: `), f.detail))));
  if (d.masked) parts.push(h("p", { class: "hint" }, "The values of environment variables and HTTP headers are masked (acpinspect -show-secrets shows them; the export keeps them)."));
  parts.push(h("pre", {}, d.text));
  document.getElementById("detail").replaceChildren(...parts);
}

function status(s) { return h("span", { class: "st st-" + s }, s.replace("_", " ")); }

function renderSession(s) {
  const transcript = h("div", { class: "transcript" }, s.transcript.map(t =>
    h("div", { class: "bubble " + t.role }, h("span", { class: "meta" },
      t.role + (t.messageId ? " · " + t.messageId : "") + " · ", seqLink(t.seqs[0]),
      t.seqs.length > 1 ? ` (+${t.seqs.length - 1} chunks)` : ""), t.text)));
  const plans = (s.state.plans || []).map(p => h("div", { class: "plan" },
    h("div", {}, h("b", {}, "plan " + p.id), ` (${p.kind})`),
    p.kind === "items" ? h("ul", { class: "plan" }, (p.entries || []).map(e => h("li", {}, status(e.status), e.content, h("span", { class: "hint" }, ` · ${e.priority}`))))
      : h("pre", {}, p.content || p.uri || "")));
  const tools = s.toolCalls.map(t => h("li", {}, status(t.status), h("b", {}, t.title || t.id), " ",
    h("span", { class: "hint" }, t.history.map(x => `${x.status} #${x.seq}`).join(" → "))));
  const perms = s.permissions.map(p => h("li", {}, seqLink(p.seq), " ", p.title || p.toolCall,
    " — options: " + p.options.join(", ") + " — outcome: ",
    h("span", { class: "outcome" }, p.outcome || "waiting"), p.answerSeq ? [" ", seqLink(p.answerSeq)] : ""));
  const states = s.states.map(x => h("li", {}, seqLink(x.seq), " ", x.state));
  const side = [h("h3", {}, "Plan"), plans.length ? plans : h("p", { class: "hint" }, "no plan"),
    h("h3", {}, "Tool calls"), tools.length ? h("ul", {}, tools) : h("p", { class: "hint" }, "none"),
    h("h3", {}, "Permission requests"), perms.length ? h("ul", { class: "permissions" }, perms) : h("p", { class: "hint" }, "none")];
  if (states.length) side.push(h("h3", {}, "State (v2)"), h("ul", {}, states));
  if (s.state.mode) side.push(h("p", {}, "mode: " + s.state.mode));
  return h("div", { class: "session", "data-session": s.id },
    h("h2", {}, `session ${s.id} · conn ${s.conn}` + (s.state.title ? " · " + s.state.title : "")),
    h("div", { class: "cols" }, h("div", {}, h("h3", {}, "Transcript"), transcript), h("div", {}, side)));
}

const renderers = {
  async sessions() {
    const ss = await get("/api/sessions");
    document.getElementById("sessions").replaceChildren(...(ss.length ? ss.map(renderSession) : [h("p", { class: "hint" }, "No session yet.")]));
  },
  async methods() {
    const ms = await get("/api/stats");
    document.querySelector("#methods tbody").replaceChildren(...ms.map(m => h("tr", {},
      h("td", {}, m.method), h("td", { class: "num" }, m.count), h("td", { class: "num" }, m.answered),
      h("td", { class: "num" }, m.errors), h("td", { class: "num" }, m.answered ? fmtMs(m.p50Ms) : ""),
      h("td", { class: "num" }, m.answered ? fmtMs(m.p99Ms) : ""), h("td", { class: "num" }, m.answered ? fmtMs(m.maxMs) : ""))));
  },
  async findings() {
    const fs = await get("/api/findings");
    document.querySelector("#findings tbody").replaceChildren(...fs.map(f => h("tr", {},
      h("td", {}, seqLink(f.seq)), h("td", {}, f.tier), h("td", {}, f.url ? h("a", { href: f.url, target: "_blank", rel: "noreferrer" }, f.rule) : f.rule),
      h("td", {}, f.detail), h("td", { class: "hint" }, f.text))));
  },
  async console() {
    const lines = await get("/api/console");
    document.getElementById("console").textContent = lines.map(l => `[conn ${l.conn}] ${l.text}`).join("\n");
  },
};

let refreshTimer = null;
function refreshTab() {
  if (refreshTimer) return;
  refreshTimer = setTimeout(async () => {
    refreshTimer = null;
    const r = renderers[state.tab];
    if (r) await r();
  }, 150);
}

function selectTab(name) {
  state.tab = name;
  document.querySelectorAll("nav button").forEach(b => b.classList.toggle("active", b.dataset.tab === name));
  document.querySelectorAll(".tab").forEach(t => t.classList.toggle("active", t.id === "tab-" + name));
  refreshTab();
}

function summary(s) {
  state.total = s.messages;
  renderRange();
  document.getElementById("about").textContent = s.about + " · " + s.decoding + " schema";
  document.getElementById("about").title = s.about;
  document.getElementById("count-messages").textContent = s.messages;
  document.getElementById("count-findings").textContent = s.findings;
  document.getElementById("count-console").textContent = s.console;
  const dropped = document.getElementById("dropped");
  dropped.hidden = !s.dropped;
  dropped.textContent = s.dropped ? `${s.dropped} not recorded` : "";
  document.getElementById("conns").replaceChildren(...s.conns.map(c => h("span", { class: "conn" },
    `conn ${c.id} · v${c.version}` + (c.client ? ` · ${c.client}` : "") + (c.agent ? ` ⇄ ${c.agent}` : ""))));
}

function connect() {
  const es = new EventSource("/api/events?from=" + (state.lastSeq + 1));
  const live = document.getElementById("live");
  es.onopen = () => { live.textContent = "live"; live.className = "live on"; };
  es.addEventListener("messages", ev => {
    const entries = JSON.parse(ev.data).filter(e => e.seq > state.lastSeq);
    if (!entries.length) return;
    state.lastSeq = entries[entries.length - 1].seq;
    if (state.follow) appendLive(entries);
  });
  es.addEventListener("summary", ev => { summary(JSON.parse(ev.data)); refreshTab(); });
  es.onerror = () => {
    live.textContent = "reconnecting"; live.className = "live off";
    es.close();
    setTimeout(connect, 1000);
  };
}

async function start() {
  document.querySelectorAll("nav button").forEach(b => b.addEventListener("click", () => selectTab(b.dataset.tab)));
  document.getElementById("first").onclick = () => { setFollow(false); loadPage({ from: 1 }); };
  document.getElementById("last").onclick = () => { setFollow(true); loadPage({ before: state.lastSeq + 1 }); };
  document.getElementById("prev").onclick = () => { setFollow(false); loadPage({ before: state.rows.length ? state.rows[0].seq : 1 }); };
  document.getElementById("next").onclick = () => {
    const from = state.rows.length ? state.rows[state.rows.length - 1].seq + 1 : 1;
    setFollow(from > state.lastSeq);
    loadPage({ from });
  };
  document.getElementById("follow").onchange = ev => { setFollow(ev.target.checked); if (state.follow) loadPage({ before: state.lastSeq + 1 }); };
  document.getElementById("only-problems").onchange = ev => { state.filter.problems = ev.target.checked; reload(); };
  let typing = null;
  document.getElementById("method-filter").oninput = ev => {
    clearTimeout(typing);
    typing = setTimeout(() => { state.filter.method = ev.target.value.trim(); reload(); }, 200);
  };
  const s = await get("/api/summary");
  summary(s);
  state.lastSeq = s.messages;
  await loadPage({ before: state.lastSeq + 1 });
  // The page may hold messages that came after the summary.
  for (const e of state.rows) state.lastSeq = Math.max(state.lastSeq, e.seq);
  window.acpinspectLoads = (window.acpinspectLoads || 0) + 1;
  connect();
}

function setFollow(on) { state.follow = on; document.getElementById("follow").checked = on; }
function reload() { return state.follow ? loadPage({ before: state.lastSeq + 1 }) : loadPage({ from: state.rows.length ? state.rows[0].seq : 1 }); }

start();
