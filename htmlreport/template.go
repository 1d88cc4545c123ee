package htmlreport

import "html/template"

// pageTemplate is the whole page: the CSS is inline and there is no
// script, so the file can be opened anywhere, offline, and mailed.
var pageTemplate = template.Must(template.New("page").Parse(pageHTML))

const pageHTML = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="generator" content="lipton {{.Version}}">
<title>lipton: {{.Path}}</title>
<style>` + pageCSS + `</style>
</head>
<body>
<header>
<h1>{{.Path}}</h1>
<p class="legend">movers:
 <span class="badge b-right">R</span> right
 <span class="badge b-left">L</span> left
 <span class="badge b-both">B</span> both
 <span class="badge b-none">N</span> non-mover;
 <span class="swatch s1"></span><span class="swatch s2"></span><span class="swatch s3"></span> fragments (yield to yield),
 <span class="swatch yl"></span> yield point,
 <span class="swatch sa"></span> atomic action</p>
{{range .Verdicts}}<p class="verdict v-{{.Class}}">{{.Text}}</p>
{{end}}</header>
{{with .Violation}}<section class="finding fail" id="violation">
<h2>{{.Head}}</h2>
{{template "positions" .Positions}}
{{if .History}}<p class="sub">history (calls and returns in order):</p><ol class="history">{{range .History}}<li>{{.}}</li>{{end}}</ol>{{end}}
<p class="sub">trace ({{len .Lanes.Rows}} steps; shortest in the explored graph) of {{.Command}}:</p>
{{template "lanes" .Lanes}}
</section>
{{end}}{{range .Findings}}<section class="finding {{.Class}}">
<h2>{{.Head}}</h2>
{{template "positions" .Positions}}
{{range .Notes}}<p class="note">{{.}}</p>{{end}}
{{with .Lanes}}<p class="sub">counterexample: the state before and after, by thread</p>{{template "lanes" .}}{{end}}
</section>
{{end}}<section id="layers">
<h2>The layers side by side</h2>
{{if .Grid.Decls}}<div class="decls">{{range .Grid.Decls}}{{template "line" .}}{{end}}</div>{{end}}
<table class="layers">
<thead><tr>{{range .LayerTitles}}<th>{{.}}</th>{{end}}</tr></thead>
<tbody>{{range .Grid.Rows}}<tr class="member-row" data-member="{{.Name}}">{{range .Cells}}<td>{{if .}}<div class="member"><div class="mtitle">{{.Title}}</div>{{range .Lines}}{{template "line" .}}{{end}}</div>{{end}}</td>{{end}}</tr>
{{end}}</tbody>
</table>
</section>
</body>
</html>
{{define "line"}}<div class="ln{{if eq .Shade -1}} sa{{else if gt .Shade 0}} s{{.Shade}}{{end}}{{if .Yield}} yl{{end}}"><span class="no">{{.Num}}</span><span class="badge{{if .Badge}} b-{{.Mover}}{{end}}">{{.Badge}}</span><code>{{.Code}}</code></div>{{end}}
{{define "positions"}}<ul class="positions">{{range .}}<li><span class="where">{{.Where}}</span> <code>{{.Code}}</code></li>{{end}}</ul>{{end}}
{{define "lanes"}}<table class="swimlane">
<thead><tr><th class="stepno">step</th>{{range .Threads}}<th class="lane" data-thread="{{.}}">{{.}}</th>{{end}}</tr></thead>
<tbody>{{range .Rows}}<tr><td class="stepno">{{.Label}}</td>{{range .Cells}}{{if .Active}}<td class="step">{{with .Event}}<div class="event">{{.}}</div>{{end}}{{range .Lines}}<div class="stmt">{{.}}</div>{{end}}{{range .Values}}<div class="value">{{.}}</div>{{end}}{{range .Changes}}<div class="change">{{.}}</div>{{end}}{{with .Buffer}}<div class="buffer">store buffer: {{.}}</div>{{end}}{{with .Waits}}<div class="waits">&#8214; {{.}}</div>{{end}}</td>{{else}}<td class="idle"></td>{{end}}{{end}}</tr>
{{end}}</tbody>
</table>{{end}}`

const pageCSS = `
body { font: 14px/1.4 system-ui, sans-serif; margin: 16px; color: #1c2127; background: #fff; }
h1 { font-size: 20px; margin: 0 0 6px; }
h2 { font-size: 15px; margin: 0 0 8px; }
code, .stmt, .value, .change, .buffer, .decls, .member { font-family: ui-monospace, "DejaVu Sans Mono", monospace; }
.legend { font-size: 12px; color: #404854; }
.verdict { font-weight: 600; padding: 4px 8px; border-radius: 4px; margin: 4px 0; }
.v-ok { background: #d8f0e1; color: #165a36; }
.v-fail { background: #fbe0e0; color: #8e292c; }
.v-unknown { background: #fcefd6; color: #77450d; }
.finding { border: 1px solid #d3d8de; border-left: 6px solid #cd4246; border-radius: 4px; padding: 10px 12px; margin: 12px 0; }
.finding.unknown { border-left-color: #d9822b; }
.positions { margin: 0 0 6px; padding-left: 18px; font-size: 12px; }
.where { color: #5f6b7c; }
.note, .sub { font-size: 12px; color: #404854; margin: 4px 0; }
.history { font-size: 12px; font-family: ui-monospace, monospace; }
table.swimlane { border-collapse: separate; border-spacing: 0; margin: 6px 0; font-size: 12px; }
table.swimlane th.lane { background: #2b4c7e; color: #fff; padding: 6px 14px; min-width: 220px; border-right: 2px solid #fff; }
table.swimlane th.stepno, table.swimlane td.stepno { color: #5f6b7c; text-align: right; padding: 4px 8px; vertical-align: top; border-left: none; }
table.swimlane td.step, table.swimlane td.idle { vertical-align: top; padding: 4px 8px; border-left: 3px solid #8fa6c7; }
table.swimlane td.step { background: #eaf1fb; border-left: 3px solid #2b4c7e; border-bottom: 1px solid #c5d4ea; }
table.swimlane td.idle { background: repeating-linear-gradient(180deg, #fff 0 6px, #f6f7f9 6px 12px); }
.event { font-weight: 600; }
.stmt { color: #1c2127; }
.change { color: #8e292c; }
.change::before { content: "\0394 "; }
.buffer { color: #77450d; }
.waits { color: #2b4c7e; font-style: italic; margin-top: 2px; border-top: 2px dashed #2b4c7e; }
.decls { border: 1px solid #d3d8de; padding: 6px; margin-bottom: 10px; font-size: 12px; }
table.layers { border-collapse: collapse; table-layout: fixed; width: 100%; }
table.layers th { background: #404854; color: #fff; padding: 4px; font-size: 13px; }
table.layers td { vertical-align: top; border: 1px solid #d3d8de; padding: 0; }
.member { font-size: 11px; overflow-x: auto; }
.mtitle { font-family: system-ui, sans-serif; font-weight: 600; background: #edeff2; padding: 2px 6px; }
.ln { display: flex; white-space: pre; }
.ln .no { color: #8f99a8; width: 3.2em; text-align: right; padding-right: 4px; flex: none; }
.badge { display: inline-block; width: 1.4em; text-align: center; flex: none; font-weight: 700; color: #fff; border-radius: 3px; font-size: 10px; }
.b-right { background: #d9822b; } .b-left { background: #2d72d2; } .b-both { background: #238551; } .b-none { background: #cd4246; }
.s1 { background: #e7f1ff; } .s2 { background: #e9f7e4; } .s3 { background: #fdf1e0; } .sa { background: #f1eafc; }
.yl { background: #fff0a8; border-top: 1px dashed #a67908; }
.swatch { display: inline-block; width: 14px; height: 10px; border: 1px solid #c5cbd3; vertical-align: middle; }
.kw { font-weight: 700; color: #184a90; }
.cm { color: #738091; font-style: italic; }
.mv { font-weight: 700; } .mv-right { color: #c0661a; } .mv-left { color: #2d72d2; } .mv-both { color: #238551; } .mv-atomic { color: #cd4246; }
`
