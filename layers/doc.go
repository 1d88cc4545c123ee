// Package layers is lipton's model of a layered program.
//
// For each layer it builds a view (DESIGN §3): the control-flow graph of
// every procedure with its steps and yield points, the steps of the layer
// (inline steps of procedures and actions) with their mover types and
// gate contexts, and the layer's global invariants. It also translates the
// language's statements and expressions into the obligation IR (package
// obl): the Builder, environments, walks of a procedure's fragments and
// the gate of a step. That translation is the single semantics that the
// checks (og, movers, refine) and the model checker (mc) share.
//
// The checks are generators over this model, each returning Findings
// (obligations, pairs skipped because their footprints make them hold,
// and diagnostics that need no solver), in one shape that package check
// runs in order.
package layers
