// The dashboard's one HTML page. It holds no data: everything arrives from
// the API after load, so the page itself needs no token.
export const PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>spex</title>
<link rel="stylesheet" href="/app.css">
</head>
<body>
<header>
  <h1>spex</h1>
  <span id="root" class="muted"></span>
  <span id="summary" class="muted"></span>
  <span class="spacer"></span>
  <input id="filter" type="search" placeholder="filter: label, branch, id, status" autocomplete="off">
  <label class="muted"><input id="show-archived" type="checkbox"> archived</label>
  <span id="conn" class="conn down">connecting</span>
</header>
<div id="notice" hidden></div>
<main>
  <section id="list">
    <table>
      <thead><tr><th>session</th><th>status</th><th>live</th><th>branch</th><th>age</th><th>kids</th></tr></thead>
      <tbody id="rows"></tbody>
    </table>
    <p id="empty" class="muted" hidden>No sessions yet. Start one with <code>spex session new "…"</code>.</p>
  </section>
  <aside id="detail" hidden>
    <div class="detail-head">
      <h2 id="d-label"></h2>
      <button id="d-close-panel" title="close this panel">×</button>
    </div>
    <dl id="d-facts"></dl>
    <div class="actions">
      <button id="act-stop">stop</button>
      <button id="act-resume">resume</button>
      <button id="act-archive">archive</button>
      <button id="act-close" class="danger">close</button>
    </div>
    <form id="send-form">
      <textarea id="send-text" rows="3" placeholder="message to this session (delivered when it is at rest)"></textarea>
      <button id="act-send" type="submit">send</button>
    </form>
    <p id="d-result" class="muted"></p>
    <h3>prompt</h3>
    <pre id="d-prompt"></pre>
    <h3 id="d-screen-title">last screen</h3>
    <pre id="d-screen" class="screen"></pre>
    <h3>timeline</h3>
    <ol id="d-timeline"></ol>
  </aside>
</main>
<script src="/app.js"></script>
</body>
</html>
`;
