/** The report page's only style sheet, inlined so that the page needs nothing from the network. */
export const STYLE = `
:root { --pass:#2e7d32; --fail:#c62828; --error:#b26a00; --muted:#6b7280; --dev:#6a1b9a; font-family: system-ui, sans-serif; color:#1f2937; }
body { margin:0; background:#f6f7f9; }
main { max-width: 1100px; margin: 0 auto; padding: 24px; }
.verdict { border-radius: 10px; padding: 16px 20px; color: #fff; }
.verdict.pass { background: var(--pass); } .verdict.fail { background: var(--fail); } .verdict.error { background: var(--error); }
.verdict h1 { margin: 0 0 6px; font-size: 24px; }
.verdict .badge { background: rgba(0,0,0,.25); border-radius: 6px; padding: 2px 10px; margin-right: 8px; }
.tiles { display: grid; grid-template-columns: repeat(5, 1fr); gap: 10px; margin: 16px 0; }
.tile { background: #fff; border-radius: 8px; padding: 10px 14px; border-top: 4px solid var(--muted); display: flex; flex-direction: column; }
.tile .n { font-size: 26px; font-weight: 700; }
.tile.passed { border-color: var(--pass); } .tile.failed { border-color: var(--fail); } .tile.errored { border-color: var(--error); } .tile.known-deviation { border-color: var(--dev); }
.meta { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px; background: #fff; padding: 12px 16px; border-radius: 8px; font-size: 14px; }
.meta dt { color: var(--muted); } .meta dd { margin: 0; }
h2 { margin-top: 28px; }
.group { background: #fff; border-radius: 8px; padding: 4px 14px 10px; margin: 10px 0; }
.group h3 { font-size: 15px; color: var(--muted); margin: 10px 0 6px; }
.clause { padding: 6px 0; border-top: 1px solid #eef0f3; font-size: 14px; }
.clause summary { cursor: pointer; }
.pill { display: inline-block; min-width: 110px; text-align: center; border-radius: 999px; padding: 1px 8px; font-size: 12px; color: #fff; background: var(--muted); }
.pill.passed { background: var(--pass); } .pill.failed { background: var(--fail); } .pill.errored { background: var(--error); } .pill.known-deviation { background: var(--dev); }
.id { color: var(--muted); font-size: 12px; } .level { font-size: 11px; color: var(--muted); }
.evidence li { margin: 8px 0; }
pre { background: #f3f4f6; padding: 8px; border-radius: 6px; overflow-x: auto; white-space: pre-wrap; word-break: break-all; font-size: 12px; }
.deviation { color: var(--dev); }
.bar { background: #e5e7eb; border-radius: 6px; height: 10px; } .bar span { display: block; height: 10px; border-radius: 6px; background: var(--pass); }
footer { margin-top: 24px; color: var(--muted); font-size: 13px; }
`;
