/**
 * The report page's only style sheet, inlined so that the page needs nothing from the network. Every colour of
 * text meets WCAG AA against what is behind it (self-tests/reporters/readable-pages.test.ts measures it), and
 * below 640 px tables stack, a row a block, so that no page scrolls sideways on a phone.
 */
export const STYLE = `
:root { --pass:#2e7d32; --fail:#c62828; --error:#8f5200; --muted:#4b5563; --dev:#6a1b9a; --none:#4b5563; font-family: system-ui, sans-serif; color:#1f2937; }
body { margin:0; background:#f6f7f9; }
main { max-width: 1100px; margin: 0 auto; padding: 24px; overflow-wrap: anywhere; }
.verdict { border-radius: 10px; padding: 16px 20px; color: #fff; background: var(--none); }
.verdict.pass { background: var(--pass); } .verdict.fail { background: var(--fail); } .verdict.error, .verdict.partial { background: var(--error); }
.verdict h1 { margin: 0 0 6px; font-size: 24px; }
.verdict .badge { background: rgba(0,0,0,.25); border-radius: 6px; padding: 2px 10px; margin-right: 8px; }
.verdict pre.reason { background: #fff; color: #1f2937; font-size: 14px; }
.tiles { display: grid; grid-template-columns: repeat(auto-fill, minmax(120px, 1fr)); gap: 10px; margin: 16px 0; }
.tile { background: #fff; border-radius: 8px; padding: 10px 14px; border-top: 4px solid var(--muted); display: flex; flex-direction: column; }
.tile .n { font-size: 26px; font-weight: 700; }
.tile.passed { border-color: var(--pass); } .tile.failed { border-color: var(--fail); } .tile.errored { border-color: var(--error); } .tile.known-deviation { border-color: var(--dev); }
.meta { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px; background: #fff; padding: 12px 16px; border-radius: 8px; font-size: 14px; }
.meta dt { color: var(--muted); } .meta dd { margin: 0; min-width: 0; }
table { border-collapse: collapse; background: #fff; }
th, td { text-align: left; padding: 4px 8px; vertical-align: top; }
h2 { margin-top: 28px; }
.group { background: #fff; border-radius: 8px; padding: 4px 14px 10px; margin: 10px 0; }
.group h3 { font-size: 15px; color: var(--muted); margin: 10px 0 6px; }
.clause { padding: 6px 0; border-top: 1px solid #eef0f3; font-size: 14px; }
.clause summary { cursor: pointer; }
.pill { display: inline-block; min-width: 110px; text-align: center; border-radius: 999px; padding: 1px 8px; font-size: 12px; color: #fff; background: var(--muted); }
.pill.passed { background: var(--pass); } .pill.failed { background: var(--fail); } .pill.errored { background: var(--error); } .pill.known-deviation { background: var(--dev); }
.id { color: var(--muted); font-size: 12px; } .level { font-size: 11px; color: var(--muted); }
.evidence li { margin: 8px 0; }
pre { background: #f3f4f6; color: #1f2937; padding: 8px; border-radius: 6px; overflow-x: auto; white-space: pre-wrap; word-break: break-all; font-size: 12px; }
.deviation { color: var(--dev); }
.bar { background: #e5e7eb; border-radius: 6px; height: 10px; } .bar span { display: block; height: 10px; border-radius: 6px; background: var(--pass); }
table.observation { font-size: 13px; margin: 4px 0; } table.observation th { color: var(--muted); font-weight: 600; } table.observation td, table.observation th { border-bottom: 1px solid #eef0f3; }
.scroll { overflow-x: auto; max-width: 100%; }
footer { margin-top: 24px; color: var(--muted); font-size: 13px; }
@media (max-width: 640px) {
  main { padding: 12px; }
  .meta { grid-template-columns: 1fr; } .meta dd { margin-bottom: 6px; }
  table.stack, table.stack tbody, table.stack tr, table.stack td { display: block; width: auto; }
  table.stack thead { display: none; }
  table.stack tr { border-top: 1px solid #e5e7eb; padding: 6px 0; }
  table.stack td { padding: 2px 8px; }
  table.stack td[data-label]::before { content: attr(data-label) ": "; color: var(--muted); }
}
`;
