// The dashboard's stylesheet: plain CSS, light and dark by the system setting.
export const APP_CSS = `
:root { --bg: #fff; --fg: #1d2125; --muted: #6a737d; --line: #e3e6ea; --sel: #eef4ff; --pane: #f7f8fa;
  --ok: #1a7f37; --warn: #9a6700; --bad: #cf222e; --info: #0969da; --dim: #8c959f; }
@media (prefers-color-scheme: dark) {
  :root { --bg: #0d1117; --fg: #e6edf3; --muted: #8b949e; --line: #30363d; --sel: #15243b; --pane: #161b22;
    --ok: #3fb950; --warn: #d29922; --bad: #f85149; --info: #58a6ff; --dim: #6e7681; }
}
* { box-sizing: border-box; }
body { margin: 0; font: 13px/1.4 system-ui, sans-serif; background: var(--bg); color: var(--fg); }
header { display: flex; gap: 12px; align-items: center; padding: 8px 12px; border-bottom: 1px solid var(--line); position: sticky; top: 0; background: var(--bg); z-index: 1; }
header h1 { font-size: 15px; margin: 0; }
.spacer { flex: 1; }
.muted { color: var(--muted); }
.conn { padding: 1px 8px; border-radius: 10px; font-size: 12px; }
.conn.up { background: color-mix(in srgb, var(--ok) 20%, transparent); color: var(--ok); }
.conn.down { background: color-mix(in srgb, var(--warn) 20%, transparent); color: var(--warn); }
#notice { padding: 6px 12px; background: color-mix(in srgb, var(--warn) 15%, transparent); }
body.locked main, body.locked #filter { display: none; }
body.locked #notice { padding: 24px 12px; font-size: 15px; }
main { display: flex; align-items: flex-start; }
#list { flex: 1; min-width: 0; }
table { width: 100%; border-collapse: collapse; }
th { text-align: left; font-weight: 600; color: var(--muted); padding: 4px 8px; border-bottom: 1px solid var(--line); }
td { padding: 3px 8px; border-bottom: 1px solid var(--line); white-space: nowrap; overflow: hidden; text-overflow: ellipsis; max-width: 420px; }
tr.row { cursor: pointer; }
tr.row:hover { background: var(--pane); }
tr.row.selected { background: var(--sel); }
tr.row.flash td { animation: flash 1s ease-out; }
@keyframes flash { from { background: color-mix(in srgb, var(--info) 25%, transparent); } to { background: transparent; } }
.tree { color: var(--dim); font-family: ui-monospace, monospace; }
.short { color: var(--dim); font-family: ui-monospace, monospace; margin-left: 6px; }
.badge { display: inline-block; padding: 0 7px; border-radius: 9px; font-size: 12px; background: var(--pane); border: 1px solid var(--line); }
.st-working, .st-starting { color: var(--info); border-color: var(--info); }
.st-idle { color: var(--ok); border-color: var(--ok); }
.st-asking, .st-review, .st-close-pending, .st-parked { color: var(--warn); border-color: var(--warn); }
.st-error, .st-corrupt, .st-unreadable { color: var(--bad); border-color: var(--bad); }
.st-offline, .st-retired, .st-done, .st-queued { color: var(--dim); }
.live-online { color: var(--ok); }
.live-offline, .live-unknown { color: var(--dim); }
aside#detail { width: 46%; max-width: 720px; min-width: 360px; border-left: 1px solid var(--line); padding: 8px 12px; position: sticky; top: 41px; max-height: calc(100vh - 41px); overflow: auto; background: var(--bg); }
.detail-head { display: flex; align-items: center; }
.detail-head h2 { flex: 1; font-size: 15px; margin: 4px 0; overflow-wrap: anywhere; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 10px; margin: 6px 0; }
dt { color: var(--muted); }
dd { margin: 0; overflow-wrap: anywhere; }
.actions { display: flex; gap: 6px; margin: 8px 0; }
button { font: inherit; padding: 3px 10px; border: 1px solid var(--line); border-radius: 6px; background: var(--pane); color: var(--fg); cursor: pointer; }
button:hover { border-color: var(--muted); }
button.danger { color: var(--bad); }
button:disabled { opacity: .5; cursor: default; }
#send-form { display: flex; gap: 6px; align-items: flex-start; }
#send-form textarea { flex: 1; font: inherit; padding: 4px; border: 1px solid var(--line); border-radius: 6px; background: var(--bg); color: var(--fg); }
input[type=search] { font: inherit; padding: 3px 6px; border: 1px solid var(--line); border-radius: 6px; width: 260px; background: var(--bg); color: var(--fg); }
h3 { font-size: 13px; margin: 12px 0 4px; color: var(--muted); }
pre { margin: 0; padding: 6px; background: var(--pane); border: 1px solid var(--line); border-radius: 6px; white-space: pre-wrap; overflow-wrap: anywhere; max-height: 260px; overflow: auto; font: 12px/1.35 ui-monospace, monospace; }
pre.screen { white-space: pre; }
#d-timeline { list-style: none; padding: 0; margin: 0; font-size: 12px; }
#d-timeline li { padding: 3px 0; border-bottom: 1px dashed var(--line); overflow-wrap: anywhere; white-space: pre-wrap; }
#d-timeline .t { color: var(--dim); font-family: ui-monospace, monospace; margin-right: 6px; }
#d-timeline .k { font-weight: 600; margin-right: 6px; }
#d-result.error { color: var(--bad); }
`;
