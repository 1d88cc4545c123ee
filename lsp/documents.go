package lsp

import (
	"context"
	"fmt"
	"time"

	"github.com/lipton-dev/lipton/check"
	"github.com/lipton-dev/lipton/lang"
	"github.com/lipton-dev/lipton/layers"
)

// document is an open document: its latest text and what the server
// knows of it.
type document struct {
	uri     string
	version int
	text    string
	current *analysis // of the latest text
	// gen counts the texts: a check publishes only if no newer text has
	// come since it started.
	gen int
	// cancel stops the check at work, if any.
	cancel context.CancelFunc
	// showsErrors says that the diagnostics published last are the
	// front end's errors, which a text without them must clear at once.
	showsErrors bool
}

// stop cancels the document's check, if one is at work.
func (d *document) stop() {
	if d.cancel != nil {
		d.cancel()
		d.cancel = nil
	}
}

// analysis is what the front end made of one version of a document.
type analysis struct {
	uri     string
	version int
	text    *text
	file    *lang.File      // nil if the text does not parse
	info    *lang.Info      // nil if it does not type-check
	prog    *layers.Program // nil unless it type-checks and has layers
	err     error           // why info or prog is nil
	took    time.Duration   // the front end's time
}

// analyze parses and checks a text. A panic (a bug in lipton) becomes
// the analysis's error: an editor's text must never stop the server.
func analyze(uri string, version int, src string, maxInput int64) (a *analysis) {
	start := time.Now()
	a = &analysis{uri: uri, version: version, text: newText(src)}
	defer func() {
		if r := recover(); r != nil {
			a.info, a.prog = nil, nil
			a.err = fmt.Errorf("internal error in lipton (a bug: please report it): %v", r)
		}
		a.took = time.Since(start)
	}()
	if int64(len(src)) > maxInput {
		a.err = fmt.Errorf("the document is larger than %d bytes: lipton does not check it", maxInput)
		return a
	}
	name := fileName(uri)
	a.file, a.info, a.err = lang.ParseAndCheck(name, []byte(src))
	if a.err == nil {
		a.err = lang.RequireLayers(a.file)
	}
	if a.err == nil {
		a.prog = layers.Build(a.file, a.info)
	}
	return a
}

// update applies a new text of a document (didOpen, didChange): it runs
// the front end at once, publishes its errors, and starts a check of the
// text, cancelling the check of the previous one. change computes the
// new text from the old; open says whether the document may be new.
func (s *server) update(uri string, version int, open bool, change func(old string) (string, bool)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.docs[uri]
	if d == nil {
		if !open {
			return // a change of a document that is not open
		}
		d = &document{uri: uri}
		s.docs[uri] = d
	}
	src, ok := change(d.text)
	if !ok {
		s.logf("lipton: a change of %s does not fit its text; the text is kept", uri)
		return
	}
	d.stop()
	d.version, d.text, d.gen = version, src, d.gen+1
	a := analyze(uri, version, src, s.opts.MaxInput)
	d.current = a
	switch {
	case a.err != nil:
		s.publish(a, frontEndDiagnostics(a))
		d.showsErrors = true
		s.sendChecked(CheckedParams{URI: uri, Version: version, Verdict: "error", Summary: "the text could not be parsed or typed"})
		return
	case d.showsErrors:
		s.publish(a, nil)
		d.showsErrors = false
	}
	// Until the check ends, the diagnostics of the last check stay: they
	// are most often still right, and clearing them at each keystroke
	// would make them flicker.
	ctx, cancel := context.WithCancel(s.ctx)
	d.cancel = cancel
	s.checks.Add(1)
	go s.check(ctx, cancel, d, a, d.gen)
}

// check runs the checks of an analysed text and publishes their
// findings, unless a newer text has come meanwhile.
func (s *server) check(ctx context.Context, cancel context.CancelFunc, d *document, a *analysis, gen int) {
	defer s.checks.Done()
	defer cancel()
	if s.opts.beforeSolve != nil {
		s.opts.beforeSolve(ctx, a.uri, a.version)
	}
	r, err := runCheck(ctx, a, s.opts)
	s.mu.Lock()
	defer s.mu.Unlock()
	if ctx.Err() != nil || d.gen != gen || s.docs[d.uri] != d {
		return // stale: a newer text, a close, or the end of the connection
	}
	d.cancel = nil
	if err != nil {
		s.publish(a, []Diagnostic{wholeFile(a, err.Error())})
		s.sendChecked(CheckedParams{URI: a.uri, Version: a.version, Verdict: "error", Summary: err.Error()})
		return
	}
	s.publish(a, findingDiagnostics(a, r))
	s.sendChecked(checkedParams(a, r))
}

// runCheck runs package check on an analysed text; a panic becomes an
// error.
func runCheck(ctx context.Context, a *analysis, o Options) (r *check.Result, err error) {
	defer func() {
		if p := recover(); p != nil {
			r, err = nil, fmt.Errorf("internal error in lipton while checking (a bug: please report it): %v", p)
		}
	}()
	opts := check.Options{Layer: -1, Jobs: o.Jobs, RLimit: o.RLimit, Cache: o.Cache}
	return check.Run(ctx, a.file, a.info, opts, a.took)
}

// checkedParams summarizes a check for lipton/checked.
func checkedParams(a *analysis, r *check.Result) CheckedParams {
	t := r.Totals()
	p := CheckedParams{URI: a.uri, Version: a.version, Verdict: "proven", Proven: t.Proven, Failed: t.Failed,
		Unknown: t.Unknown, Cached: r.Cached, Seconds: r.Times.Total.Seconds()}
	switch {
	case t.Failed > 0:
		p.Verdict = "failed"
	case t.Unknown > 0 || r.NotDecided > 0:
		p.Verdict = "unknown"
	}
	p.Summary = fmt.Sprintf("%d proven, %d failed, %d unknown, %d skipped in %s (%d answered by the cache)",
		t.Proven, t.Failed, t.Unknown, t.Skipped, r.Times.Total.Round(time.Millisecond), r.Cached)
	return p
}

// close forgets a closed document and clears its diagnostics.
func (s *server) close(uri string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.docs[uri]
	if d == nil {
		return
	}
	d.stop()
	delete(s.docs, uri)
	s.conn.Notify("textDocument/publishDiagnostics", PublishDiagnosticsParams{URI: uri, Diagnostics: []Diagnostic{}})
}

// publish replaces the diagnostics of the analysed version.
func (s *server) publish(a *analysis, diags []Diagnostic) {
	if diags == nil {
		diags = []Diagnostic{}
	}
	v := a.version
	s.conn.Notify("textDocument/publishDiagnostics", PublishDiagnosticsParams{URI: a.uri, Version: &v, Diagnostics: diags})
}

func (s *server) sendChecked(p CheckedParams) { s.conn.Notify("lipton/checked", p) }

// logf writes to the client's log.
func (s *server) logf(format string, args ...any) {
	s.conn.Notify("window/logMessage", map[string]any{"type": 3, "message": fmt.Sprintf(format, args...)})
}

// applyChanges applies the changes of a didChange to a text; false if a
// range does not fit the text.
func applyChanges(src string, changes []ContentChange) (string, bool) {
	for _, c := range changes {
		if c.Range == nil {
			src = c.Text
			continue
		}
		t := newText(src)
		start, end := t.offset(c.Range.Start), t.offset(c.Range.End)
		if start > end {
			return "", false
		}
		src = src[:start] + c.Text + src[end:]
	}
	return src, true
}
