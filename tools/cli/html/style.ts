/** The page's CSS, inline so the HTML file stands alone. */
export const PAGE_STYLE = `
:root { color-scheme: light; --ink: #0f172a; --muted: #64748b; --line: #e2e8f0; --panel: #f8fafc; --ok: #1f8a5b; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; color: var(--ink); background: #fff; }
main { max-width: 1120px; margin: 0 auto; padding: 28px 32px 40px; }
header h1 { margin: 0 0 6px; font-size: 24px; }
header h1 span { color: var(--muted); font-weight: 500; }
header p { margin: 4px 0; max-width: 900px; }
.meta { color: var(--muted); }
h2 { font-size: 16px; margin: 26px 0 10px; }
.tiles { display: grid; grid-template-columns: repeat(7, 1fr); gap: 12px; margin-top: 20px; }
.tile { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: 12px 14px; }
.tile .label { color: var(--muted); font-size: 12px; text-transform: uppercase; letter-spacing: .04em; }
.tile .value { font-size: 24px; font-weight: 650; margin: 2px 0; }
.tile .note { color: var(--muted); font-size: 12px; }
.pair { display: grid; grid-template-columns: 1fr 1fr; gap: 16px; }
.chart svg { width: 100%; height: auto; background: var(--panel); border: 1px solid var(--line); border-radius: 8px; }
.grid { stroke: var(--line); }
.axis { stroke: #94a3b8; }
.tick { fill: var(--muted); font-size: 15px; }
.legend { fill: var(--ink); font-size: 16px; }
table { width: 100%; border-collapse: collapse; font-size: 13px; }
th, td { text-align: left; padding: 6px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { color: var(--muted); font-weight: 600; }
td.nowrap { white-space: nowrap; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
.ok { color: var(--ok); font-weight: 600; }
.note { color: var(--muted); }
tr.held td { color: var(--muted); border-bottom: 1px solid var(--line); padding-top: 0; }
tr:has(+ tr.held) td { border-bottom: none; }
.group h3 { font-size: 14px; margin: 18px 0 4px; }
.group h3 span, .dollars { color: var(--muted); font-weight: 400; }
.group p { margin: 2px 0 6px; }
.legend .key { margin-right: 14px; white-space: nowrap; }
.legend .key i { display: inline-block; width: 18px; height: 5px; margin-right: 6px; vertical-align: middle; }
.m-int { color: #dc2626; } .m-fail { color: #d97706; } .m-swap { color: #1f8a5b; }
footer { margin-top: 28px; color: var(--muted); font-size: 12px; }
code { font-family: ui-monospace, "DejaVu Sans Mono", monospace; }
`
