package view

// DefaultCSS is the stylesheet every page of this package inlines unless
// Options.CSS replaces it: readable in light and dark mode, wide tables
// that wrap long URLs, focus outlines kept, contrast of text at least 4.5:1.
const DefaultCSS = `:root { color-scheme: light dark; }
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 0; padding: 24px 32px; color: #1f2328; background: #fff; }
h1 { font-size: 22px; margin: 0 0 4px; }
h2 { font-size: 18px; margin: 24px 0 6px; }
h3 { font-size: 16px; margin: 18px 0 4px; }
p.lead { margin: 0 0 18px; color: #59636e; }
p.lead a { color: inherit; text-decoration: underline; }
table { border-collapse: collapse; width: 100%; }
caption { text-align: left; font-weight: 600; padding: 0 0 6px; }
th, td { text-align: left; padding: 6px 10px; border-bottom: 1px solid #d1d9e0; vertical-align: top; }
th { background: #f6f8fa; font-weight: 600; position: sticky; top: 0; white-space: nowrap; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.loc { word-break: break-all; }
td.date { white-space: nowrap; font-variant-numeric: tabular-nums; }
tr:hover td { background: #f6f8fa; }
a { color: #0969da; text-decoration: none; }
a:hover, a:focus { text-decoration: underline; }
ul.pages { padding-left: 20px; }
ul.pages li { margin: 2px 0; }
ul.pager { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: 8px 16px; }
ul.pager a[aria-current] { font-weight: 700; color: inherit; }
nav.sections ul { columns: 16em; padding-left: 20px; }
footer { margin-top: 18px; color: #59636e; }
@media (prefers-color-scheme: dark) {
  body { color: #e6edf3; background: #0d1117; }
  p.lead, footer { color: #9198a1; }
  th { background: #151b23; }
  th, td { border-color: #3d444d; }
  tr:hover td { background: #151b23; }
  a { color: #4493f8; }
}`
