// The dashboard's script, shipped as a string so both builds (bun --compile,
// ncc) carry it. Plain DOM, no framework: one <tr> per session, patched in
// place when its row changes, so 500 sessions cost nothing between events.
// Every value from the API is display text: it goes in through textContent only.
// (Written without template literals, so this file can hold it in one.)
export const APP_JS = String.raw`(function () {
  "use strict";
  var TOKEN_KEY = "spex-token";
  var token = "";
  (function takeToken() {
    var params = new URLSearchParams(location.search);
    var fromUrl = params.get("token");
    try {
      if (fromUrl) sessionStorage.setItem(TOKEN_KEY, fromUrl);
      token = fromUrl || sessionStorage.getItem(TOKEN_KEY) || "";
    } catch (e) {
      token = fromUrl || "";
    }
    // The URL carried the token once: take it out of the address bar and history.
    if (fromUrl) history.replaceState(null, "", location.pathname);
  })();

  var $ = function (id) { return document.getElementById(id); };
  var rows = new Map();        // id -> row from the API
  var els = new Map();         // id -> <tr>
  var order = [];              // ids in the order the table shows them
  var selected = null;
  var loadSeen = null;         // ids updated by events while a list load is in flight
  var layoutQueued = false;
  var filterText = "";
  var showArchived = false;

  // Every API call, reads and the event stream included, carries the token in a header.
  function authHeaders(extra) {
    var headers = extra || {};
    if (token) headers["authorization"] = "Bearer " + token;
    return headers;
  }

  function api(method, path, body) {
    var headers = authHeaders({ "accept": "application/json" });
    if (method !== "GET") headers["content-type"] = "application/json";
    return fetch(path, { method: method, headers: headers, body: body === undefined ? undefined : JSON.stringify(body) })
      .then(function (res) {
        return res.json().catch(function () { return {}; }).then(function (json) {
          if (!res.ok) {
            var err = (json && json.error) || {};
            if (res.status === 401) needsToken(err.code);
            var e = new Error((err.message || ("HTTP " + res.status)) + (err.code ? " [" + err.code + "]" : ""));
            e.code = err.code;
            throw e;
          }
          return json;
        });
      });
  }

  function age(iso) {
    var t = Date.parse(iso);
    if (!t) return "";
    var s = Math.max(0, Math.round((Date.now() - t) / 1000));
    if (s < 60) return s + "s";
    if (s < 3600) return Math.floor(s / 60) + "m";
    if (s < 86400) return Math.floor(s / 3600) + "h";
    return Math.floor(s / 86400) + "d";
  }

  function cell(tr, cls) {
    var td = document.createElement("td");
    td.className = cls;
    tr.appendChild(td);
    return td;
  }

  function makeRow(id) {
    var tr = document.createElement("tr");
    tr.className = "row";
    tr.dataset.id = id;
    var label = cell(tr, "c-label");
    var tree = document.createElement("span");
    tree.className = "tree";
    var text = document.createElement("span");
    text.className = "label";
    var short = document.createElement("span");
    short.className = "short";
    label.appendChild(tree);
    label.appendChild(text);
    label.appendChild(short);
    var status = cell(tr, "c-status");
    var badge = document.createElement("span");
    badge.className = "badge";
    status.appendChild(badge);
    tr._c = { tree: tree, label: text, short: short, badge: badge, live: cell(tr, "c-live"), branch: cell(tr, "c-branch"), age: cell(tr, "c-age"), kids: cell(tr, "c-kids") };
    tr.addEventListener("click", function () { select(id); });
    els.set(id, tr);
    return tr;
  }

  function fillRow(tr, row, depth, kids) {
    var c = tr._c;
    c.tree.textContent = depth > 0 ? new Array(depth).join("  ") + "└ " : "";
    c.label.textContent = row.kind === "ok" ? row.label : "(corrupt record)";
    c.short.textContent = row.shortId;
    c.badge.textContent = row.display;
    c.badge.className = "badge st-" + row.display;
    c.live.textContent = row.liveness;
    c.live.className = "c-live live-" + row.liveness;
    c.branch.textContent = row.kind === "ok" ? row.branch : row.file;
    c.age.textContent = row.kind === "ok" ? age(row.createdAt) : "";
    c.kids.textContent = kids ? String(kids) : "";
    tr.dataset.display = row.display;
    tr.title = row.kind === "ok" ? row.preview : row.error;
  }

  function visible(row) {
    if (row.kind === "ok" && row.archived && !showArchived) return false;
    if (!filterText) return true;
    var hay = [row.id, row.display, row.kind === "ok" ? row.label : "", row.kind === "ok" ? row.branch : "", row.kind === "ok" ? row.node : ""].join(" ").toLowerCase();
    return hay.indexOf(filterText) >= 0;
  }

  // Tree order: parents before their children, siblings by creation time.
  function computeOrder() {
    var shown = [];
    rows.forEach(function (r) { if (visible(r)) shown.push(r); });
    var byId = new Map();
    shown.forEach(function (r) { byId.set(r.id, r); });
    var kids = new Map();
    var roots = [];
    shown.forEach(function (r) {
      var p = r.kind === "ok" ? r.parent : "";
      if (p && byId.has(p) && p !== r.id) {
        if (!kids.has(p)) kids.set(p, []);
        kids.get(p).push(r);
      } else roots.push(r);
    });
    var byAge = function (a, b) {
      var x = a.createdAt || "", y = b.createdAt || "";
      return x < y ? -1 : x > y ? 1 : a.id < b.id ? -1 : 1;
    };
    var out = [];
    var seen = new Set();
    var walk = function (r, depth) {
      if (seen.has(r.id)) return;
      seen.add(r.id);
      var children = (kids.get(r.id) || []).sort(byAge);
      out.push({ id: r.id, depth: depth, kids: children.length });
      children.forEach(function (k) { walk(k, depth + 1); });
    };
    roots.sort(byAge).forEach(function (r) { walk(r, 0); });
    shown.forEach(function (r) { walk(r, 0); }); // a parent cycle still shows every row
    return out;
  }

  var placed = new Map(); // id -> "depth:kids" last laid out

  function layout() {
    layoutQueued = false;
    var next = computeOrder();
    var body = $("rows");
    var cursor = body.firstChild;
    var keep = new Set();
    next.forEach(function (n) {
      keep.add(n.id);
      var tr = els.get(n.id) || makeRow(n.id);
      var shape = n.depth + ":" + n.kids;
      if (placed.get(n.id) !== shape || !tr._filled) {
        fillRow(tr, rows.get(n.id), n.depth, n.kids);
        tr._filled = true;
        placed.set(n.id, shape);
      }
      if (tr === cursor) cursor = cursor.nextSibling;
      else body.insertBefore(tr, cursor);
    });
    while (cursor) {
      var gone = cursor;
      cursor = cursor.nextSibling;
      body.removeChild(gone);
    }
    els.forEach(function (tr, id) { if (!rows.has(id)) { els.delete(id); placed.delete(id); } });
    order = next.map(function (n) { return n.id; });
    $("empty").hidden = order.length > 0;
    summarize();
  }

  function queueLayout() {
    if (layoutQueued) return;
    layoutQueued = true;
    requestAnimationFrame(layout);
  }

  function summarize() {
    var counts = {};
    var total = 0;
    rows.forEach(function (r) {
      if (r.kind === "ok" && r.archived) return;
      total++;
      counts[r.display] = (counts[r.display] || 0) + 1;
    });
    var parts = Object.keys(counts).sort().map(function (k) { return counts[k] + " " + k; });
    $("summary").textContent = total + " sessions" + (parts.length ? " · " + parts.join(", ") : "");
  }

  // One row changed: patch its cells in place unless the tree shape or the filter changed.
  function upsert(row) {
    if (loadSeen) loadSeen.add(row.id);
    var prev = rows.get(row.id);
    rows.set(row.id, row);
    var tr = els.get(row.id);
    var reshape = !prev || !tr || (prev.parent !== row.parent) || (visible(prev) !== visible(row)) || !tr.parentNode;
    if (reshape) queueLayout();
    else {
      var shape = (placed.get(row.id) || "0:0").split(":");
      fillRow(tr, row, Number(shape[0]), Number(shape[1]));
      tr.classList.remove("flash");
      void tr.offsetWidth;
      tr.classList.add("flash");
      summarize();
    }
    if (row.id === selected) {
      showFacts(row);
      refreshScreen(false);
    }
  }

  function remove(id) {
    if (loadSeen) loadSeen.add(id);
    rows.delete(id);
    queueLayout();
    if (id === selected) closePanel();
  }

  function loadList() {
    loadSeen = new Set();
    return api("GET", "/api/sessions").then(function (json) {
      var fresh = new Map();
      json.sessions.forEach(function (r) { fresh.set(r.id, r); });
      // Events that arrived during the load are newer than the list: keep them.
      rows.forEach(function (r, id) { if (!fresh.has(id) && !loadSeen.has(id)) rows.delete(id); });
      fresh.forEach(function (r, id) { if (!loadSeen.has(id)) rows.set(id, r); });
      loadSeen = null;
      placed.clear();
      queueLayout();
      if (selected && rows.has(selected)) showFacts(rows.get(selected));
    }, function (e) {
      loadSeen = null;
      notice("could not load sessions: " + e.message);
    });
  }

  function notice(text) {
    var n = $("notice");
    n.textContent = text;
    n.hidden = !text;
  }

  // Without the right token the backend shows nothing: say so instead of an empty table.
  var locked = false;
  function needsToken(code) {
    locked = true;
    document.body.classList.add("locked");
    var conn = $("conn");
    conn.textContent = "needs token";
    conn.className = "conn down";
    notice(code === "token_invalid"
      ? "This page's token is not the running backend's (was it restarted?). Open the dashboard URL that spex serve printed."
      : "This dashboard needs its token. Open the dashboard URL that spex serve printed: it carries the token once.");
  }

  // ---- detail panel ----
  var timelineSeq = 0;

  function fact(dl, name, value) {
    if (value === undefined || value === null || value === "") return;
    var dt = document.createElement("dt");
    dt.textContent = name;
    var dd = document.createElement("dd");
    dd.textContent = String(value);
    dl.appendChild(dt);
    dl.appendChild(dd);
  }

  function showFacts(row) {
    $("d-label").textContent = row.kind === "ok" ? row.label : "(corrupt record)";
    var dl = $("d-facts");
    dl.textContent = "";
    fact(dl, "id", row.id);
    fact(dl, "status", row.display + (row.kind === "ok" ? " (" + row.lifecycle + (row.proposal ? ", proposes " + row.proposal : "") + ")" : ""));
    fact(dl, "liveness", row.liveness);
    if (row.kind === "ok") {
      fact(dl, "branch", row.branch);
      fact(dl, "base", row.base);
      fact(dl, "worktree", row.worktree);
      fact(dl, "harness", row.harness + (row.launcher && row.launcher !== row.harness ? " (" + row.launcher + ")" : ""));
      fact(dl, "parent", row.parent ? (rows.has(row.parent) ? rows.get(row.parent).label + " " : "") + row.parent.slice(0, 8) : "");
      fact(dl, "note", row.note);
      fact(dl, "created", row.createdAt + " (" + age(row.createdAt) + " ago)");
      fact(dl, "archived", row.archived ? "yes" : "");
    } else {
      fact(dl, "file", row.file);
      fact(dl, "error", row.error);
    }
  }

  function describeEvent(ev) {
    if (ev.kind === "state") {
      var s = ev.prev + " → " + ev.status;
      if (ev.proposal) s += ", proposes " + ev.proposal;
      if (ev.stopped) s += ", stopped";
      if (ev.archived) s += ", archived";
      if (ev.note) s += ": " + ev.note;
      return s;
    }
    if (ev.kind === "message_in") {
      var f = ev.from || {};
      var who = f.kind === "session" || f.kind === "watch" ? f.label || (f.id || "").slice(0, 8) : f.kind === "name" ? f.name : "user";
      return "from " + who + ": " + (ev.text !== undefined ? ev.text : "[keys] " + (ev.keys || []).join(" "));
    }
    if (ev.kind === "message_out") return "to " + String(ev.to || "").slice(0, 8);
    return JSON.stringify(ev);
  }

  function appendEvent(ev) {
    if (ev.seq <= timelineSeq) return;
    timelineSeq = ev.seq;
    var li = document.createElement("li");
    li.dataset.seq = String(ev.seq);
    li.dataset.kind = ev.kind;
    var t = document.createElement("span");
    t.className = "t";
    t.textContent = "#" + ev.seq + " " + String(ev.at || "").replace("T", " ").slice(0, 19);
    var k = document.createElement("span");
    k.className = "k";
    k.textContent = ev.kind === "message_in" ? "message" : ev.kind === "message_out" ? "sent" : ev.kind;
    var d = document.createElement("span");
    d.textContent = describeEvent(ev);
    li.appendChild(t);
    li.appendChild(k);
    li.appendChild(d);
    var list = $("d-timeline");
    list.insertBefore(li, list.firstChild); // newest first
  }

  function select(id) {
    if (selected && els.get(selected)) els.get(selected).classList.remove("selected");
    selected = id;
    var tr = els.get(id);
    if (tr) tr.classList.add("selected");
    $("detail").hidden = false;
    $("d-result").textContent = "";
    $("d-prompt").textContent = "";
    $("d-screen").textContent = "";
    $("d-timeline").textContent = "";
    timelineSeq = 0;
    if (rows.has(id)) showFacts(rows.get(id));
    var path = "/api/sessions/" + encodeURIComponent(id);
    refreshScreen(true);
    api("GET", path + "/timeline?tail=200").then(function (t) {
      if (selected !== id) return;
      t.events.forEach(appendEvent);
    }, function (e) { result(e); });
  }

  // The detail (prompt and screen): the pane as it is now while the session runs, else the last capture.
  var screenAt = 0;
  var screenTimer = null;
  function refreshScreen(now) {
    if (!selected) return;
    var wait = now ? 0 : Math.max(0, 1000 - (Date.now() - screenAt));
    if (screenTimer) { if (!now) return; clearTimeout(screenTimer); }
    screenTimer = setTimeout(function () {
      screenTimer = null;
      screenAt = Date.now();
      var id = selected;
      if (!id) return;
      api("GET", "/api/sessions/" + encodeURIComponent(id) + "?capture=1").then(function (d) {
        if (selected !== id) return;
        $("d-prompt").textContent = d.prompt;
        $("d-screen-title").textContent = d.screen !== null ? "screen (now)" : "last screen";
        $("d-screen").textContent = d.screen !== null ? d.screen.replace(/\s+$/, "") : d.lastScreen || "(no screen captured yet: archive captures it)";
      }, function (e) { result(e); });
    }, wait);
  }

  function closePanel() {
    if (selected && els.get(selected)) els.get(selected).classList.remove("selected");
    selected = null;
    $("detail").hidden = true;
  }

  function result(outcome) {
    var el = $("d-result");
    if (outcome instanceof Error) {
      el.textContent = outcome.message;
      el.className = "error";
    } else {
      el.textContent = outcome;
      el.className = "muted";
    }
  }

  function act(verb, confirmText, body) {
    if (!selected) return;
    var id = selected;
    var row = rows.get(id);
    var label = row && row.kind === "ok" ? row.label : id.slice(0, 8);
    if (confirmText && !confirm(confirmText.replace("%s", label))) return;
    if (!token) return result(new Error("no instance token: open the dashboard URL that spex serve printed"));
    result(verb + "…");
    return api("POST", "/api/sessions/" + encodeURIComponent(id) + "/" + verb, body || {}).then(function (r) {
      if (verb === "send") result("message " + r.messageId + ": " + r.state + (r.reason ? " (" + r.reason + ")" : ""));
      else result(verb + ": done");
      return r;
    }, function (e) { result(e); });
  }

  $("act-stop").addEventListener("click", function () { act("stop", "Stop %s? Its agent and tmux session end; the worktree stays."); });
  $("act-resume").addEventListener("click", function () { act("resume", null); });
  $("act-archive").addEventListener("click", function () { act("archive", "Archive %s? Its agent stops and it leaves the list (its last screen is kept).", { stop: true }); });
  $("act-close").addEventListener("click", function () { act("close", "Close %s for good? Its worktree, branch and record are removed."); });
  $("d-close-panel").addEventListener("click", closePanel);
  $("send-form").addEventListener("submit", function (ev) {
    ev.preventDefault();
    var box = $("send-text");
    var text = box.value;
    if (!text.trim()) return;
    var sent = act("send", null, { text: text });
    if (sent) sent.then(function (r) { if (r) box.value = ""; });
  });
  $("filter").addEventListener("input", function (ev) {
    filterText = ev.target.value.trim().toLowerCase();
    queueLayout();
  });
  $("show-archived").addEventListener("change", function (ev) {
    showArchived = ev.target.checked;
    queueLayout();
  });

  // A running pane changes without any event (a shell prints, an agent streams): look again now and then.
  setInterval(function () {
    var row = selected && rows.get(selected);
    if (row && row.liveness === "online" && !document.hidden) refreshScreen(false);
  }, 2000);

  setInterval(function () {
    rows.forEach(function (r, id) {
      var tr = els.get(id);
      if (tr && r.kind === "ok") tr._c.age.textContent = age(r.createdAt);
    });
  }, 15000);

  // ---- live updates ----
  // The stream needs the token like every read, and EventSource cannot send a
  // header: read text/event-stream through fetch, and resume with Last-Event-ID.
  var lastEventId = "";
  var handlers = {
    hello: function (h) {
      $("root").textContent = h.root;
      document.title = "spex · " + h.root.split("/").pop();
      loadList();
    },
    session: upsert,
    session_removed: function (d) { remove(d.id); },
    timeline: function (t) {
      if (t.id === selected) {
        appendEvent(t.event);
        refreshScreen(false);
      }
    }
  };

  function dispatch(ev) {
    if (ev.id) lastEventId = ev.id;
    var h = handlers[ev.type];
    if (h && ev.data.length) h(JSON.parse(ev.data.join("\n")));
  }

  // One line of the stream (the server's framing: "field: value", a blank line ends an event).
  function readLine(ev, line) {
    if (line === "") {
      dispatch(ev);
      ev.type = ""; ev.id = ""; ev.data = [];
      return;
    }
    if (line.charAt(0) === ":") return;
    var colon = line.indexOf(":");
    var field = colon < 0 ? line : line.slice(0, colon);
    var value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
    if (field === "event") ev.type = value;
    else if (field === "data") ev.data.push(value);
    else if (field === "id") ev.id = value;
  }

  function connect() {
    var conn = $("conn");
    var headers = authHeaders({ "accept": "text/event-stream" });
    if (lastEventId) headers["last-event-id"] = lastEventId;
    fetch("/api/events", { headers: headers, cache: "no-store" }).then(function (res) {
      if (res.status === 401) {
        return res.json().catch(function () { return {}; }).then(function (j) { needsToken((j.error || {}).code); });
      }
      if (!res.ok || !res.body) throw new Error("HTTP " + res.status);
      conn.textContent = "live";
      conn.className = "conn up";
      var reader = res.body.getReader();
      var decoder = new TextDecoder();
      var buf = "";
      var ev = { type: "", id: "", data: [] };
      var pump = function () {
        return reader.read().then(function (r) {
          if (r.done) throw new Error("the stream ended");
          buf += decoder.decode(r.value, { stream: true });
          var nl;
          while ((nl = buf.indexOf("\n")) >= 0) {
            readLine(ev, buf.slice(0, nl).replace(/\r$/, ""));
            buf = buf.slice(nl + 1);
          }
          return pump();
        });
      };
      return pump();
    }).catch(function () {
      if (locked) return;
      conn.textContent = "reconnecting";
      conn.className = "conn down";
      setTimeout(connect, 1000);
    });
  }

  if (token) connect();
  else needsToken("token_required");
})();
`;
