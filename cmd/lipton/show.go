package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/lipton-dev/lipton/lang"
	"github.com/lipton-dev/lipton/layers"
)

type showOptions struct {
	layer      int
	eraseGhost bool
	maxInput   sizeFlag
	html       showHTMLOptions // --html and its flags (show_html.go)
}

func showFlags(o *showOptions) *flag.FlagSet {
	fs := flag.NewFlagSet("show", flag.ContinueOnError)
	fs.IntVar(&o.layer, "layer", 0, "the layer `N` to show, with its fragments as atomic blocks")
	fs.BoolVar(&o.eraseGhost, "erase-ghost", false, "print layer 0 without ghost code, the implementation that is proven, instead of a layer (not with --layer)")
	addHTMLFlags(fs, &o.html) // show_html.go
	addInputFlags(fs, &o.maxInput)
	return fs
}

const showUsage = "lipton show [--layer N | --erase-ghost | --html [--explore ...]] FILE"

var showCmd = &command{
	name:    "show",
	summary: "print a layer's reduced view (fragments as atomic blocks), the ghost-erased implementation, or an HTML report",
	usage:   showUsage,
	details: "--layer and --erase-ghost exclude each other: --erase-ghost prints the whole program at layer 0.\n" +
		"--html prints one self-contained HTML page (docs/editor.md); its exit code is that of lipton check\n" +
		"(and of lipton explore with --explore): 1 if a check failed or is unknown, or a violation was found.",
	flags: func() *flag.FlagSet { return showFlags(&showOptions{}) },
	groups: []flagGroup{
		{"What to show", []string{"layer", "erase-ghost", "html"}},
		{"The HTML report", []string{"explore", "instance", "linearizability", "no-cache"}},
		{"Input", []string{"max-input"}},
	},
	run: runShow,
}

func runShow(args []string, stdout, stderr io.Writer) int {
	var o showOptions
	fs := showFlags(&o)
	if err := parseFlags(fs, args, stdout, stderr); err != nil {
		return exitCode(err)
	}
	switch {
	case o.layer < 0:
		usageError("show", stderr, "--layer %d: want a layer number, 0 or more", o.layer)
		return exitBadInput
	case o.eraseGhost && flagSet(fs, "layer"):
		usageError("show", stderr, "--layer and --erase-ghost exclude each other: --erase-ghost prints layer 0's implementation")
		return exitBadInput
	case fs.NArg() != 1:
		usageError("show", stderr, "want one FILE")
		return exitBadInput
	}
	if o.html.on || o.html.set(fs) {
		return runShowHTML(fs, o, stdout, stderr) // show_html.go
	}
	f, info, err := loadSource(fs.Arg(0), int64(o.maxInput))
	if err != nil {
		printLoadError(stderr, err)
		return exitBadInput
	}
	if o.eraseGhost {
		stdout.Write(lang.Format(lang.EraseGhost(f)))
		return exitOK
	}
	if o.layer >= len(info.Layers) {
		fmt.Fprintf(stderr, "lipton: %s has no layer %d (it has %s)\n", fs.Arg(0), o.layer, layerRange(len(info.Layers)))
		return exitBadInput
	}
	prog := layers.Build(f, info)
	printReduced(stdout, prog.Layers[o.layer])
	return exitOK
}

// printReduced prints a layer as its fragments: each path from a yield
// point to the next is one atomic block, as reduction lets the layer's
// checks treat it.
func printReduced(w io.Writer, l *layers.Layer) {
	fmt.Fprintf(w, "// layer %d, reduced: every fragment (yield to yield) is one atomic block\n", l.Num)
	for _, a := range l.Actions {
		fmt.Fprintf(w, "\n%s action %s  // line %d: one atomic step\n", a.Step.Mover, a.Name(), a.Decl.P.Line)
	}
	for _, p := range l.Procs {
		if p.Decl.Mover != lang.MoverNone {
			// a call of it is one step of its callers' fragments
			fmt.Fprintf(w, "\n%s proc %s  // line %d: a call of it is one %s step\n", p.Decl.Mover, p.Name(), p.Decl.P.Line, p.Decl.Mover)
		} else {
			fmt.Fprintf(w, "\nproc %s  // line %d\n", p.Name(), p.Decl.P.Line)
		}
		paths, complete := layers.FragmentPaths(p)
		for _, fp := range paths {
			printFragment(w, fp)
		}
		if !complete {
			fmt.Fprintf(w, "  ... (more than %d paths; not all shown)\n", layers.MaxFragmentPaths)
		}
	}
}

func printFragment(w io.Writer, fp *layers.FragmentPath) {
	fmt.Fprintf(w, "  from %s:\n    atomic {\n", yieldText(fp.From))
	for _, n := range fp.Nodes {
		if text := nodeText(n); text != "" {
			fmt.Fprintf(w, "      %-60s // line %d\n", text, n.Pos().Line)
		}
	}
	to := yieldText(fp.To)
	if fp.Return {
		to += fmt.Sprintf(", by a return inside the loop at line %d", fp.Nodes[len(fp.Nodes)-1].Pos().Line)
	}
	fmt.Fprintf(w, "    }\n    to %s\n", to)
}

func yieldText(y *layers.YieldPoint) string {
	var parts []string
	for _, e := range y.Ann {
		parts = append(parts, lang.ExprString(e))
	}
	ann := strings.Join(parts, " && ")
	switch y.Kind {
	case layers.YieldEntry:
		return "the entry (requires " + orTrue(ann) + ")"
	case layers.YieldExit:
		return "the exit (ensures " + orTrue(ann) + ")"
	case layers.YieldCall:
		if y.Par != nil {
			return fmt.Sprintf("the call at line %d: %s", y.Pos.Line, lang.StmtString(y.Par))
		}
		return fmt.Sprintf("the call at line %d: %s", y.Pos.Line, lang.StmtString(y.Stmt))
	case layers.YieldLoop:
		return fmt.Sprintf("the loop head at line %d (invariant %s)", y.Pos.Line, orTrue(ann))
	}
	return fmt.Sprintf("the yield at line %d (%s)", y.Pos.Line, orTrue(ann))
}

func orTrue(s string) string {
	if s == "" {
		return "true"
	}
	return s
}

// nodeText renders a node of a fragment path; joins render as nothing.
func nodeText(n *layers.Node) string {
	switch n.Kind {
	case layers.NodeCond:
		if n.Cond == nil {
			return "// nondeterministic branch"
		}
		if n.Negated {
			return "assume !(" + lang.ExprString(n.Cond) + ");"
		}
		return "assume " + lang.ExprString(n.Cond) + ";"
	case layers.NodeStep, layers.NodePrivate:
		return lang.StmtString(n.Stmt)
	case layers.NodePrivateLoop:
		return lang.StmtString(n.Stmt) + " { ... }  // private loop"
	}
	return ""
}
