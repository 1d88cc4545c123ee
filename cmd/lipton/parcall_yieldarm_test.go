package main

import "testing"

// Parallel calls with yield-invariant arms and mover procedure arms: the
// static checks place the invariant arms' yield point after the arms
// written before them (or at the procedure arms' yield point), and a
// mover procedure arm as one step of its mover type; explore runs the
// arms in every order, stopping at the invariant arms where exactly the
// arms written before them have run, and runs mover procedure arms as
// sub-threads. The two must agree.

// yieldArmProofs are the proven files with invariant arms and
// instances.
var yieldArmProofs = []string{
	"proofs/parcall/inv-arm.lip",
	"proofs/parcall/inv-arm-proc.lip",
	"proofs/parcall/mover-arm.lip",
	"proofs/civl/mover-proc-in-parcall.lip",
	"proofs/parcall/set-arm.lip",
	"proofs/parcall/give-arm.lip",
}

// yieldArmBroken are broken files with invariant arms whose bug explore
// can see on their instance.
var yieldArmBroken = []string{
	"proofs/parcall/broken/inv-arm-before.lip",
	"proofs/parcall/broken/inv-arm-sibling.lip",
	"proofs/parcall/broken/arm-keeps-pool.lip",
}

// TestParCallYieldArmsAgree: every proven file with invariant arms
// passes every exploration explore can run, and every broken one fails
// both.
func TestParCallYieldArmsAgree(t *testing.T) {
	if testing.Short() {
		t.Skip("runs Z3 and the model checker")
	}
	checkFilesAgree(t, yieldArmProofs, yieldArmBroken)
}

// TestSoundnessYieldArmMutants runs the soundness oracle on mutants of
// the proofs with invariant arms: whatever check proves, explore must
// find no violation of.
func TestSoundnessYieldArmMutants(t *testing.T) {
	if testing.Short() {
		t.Skip("runs Z3 and the model checker on mutants")
	}
	checkMutantsAgree(t, yieldArmProofs[:5], 20)
}
