package main

import "testing"

// TestSoundnessMoverProcMutants runs the soundness oracle on mutants of
// the mover procedure proofs (a mover type changed, a yield dropped, a
// gate or annotation changed, ...): whatever check proves, explore, which
// runs mover procedures as calls, must find no violation of.
func TestSoundnessMoverProcMutants(t *testing.T) {
	if testing.Short() {
		t.Skip("runs Z3 and the model checker on mutants")
	}
	checkMutantsAgree(t, []string{"proofs/moverproc/lock-add.lip", "proofs/moverproc/layered.lip"}, 30)
}
