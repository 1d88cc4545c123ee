package smt

import (
	"bytes"
	"fmt"
	"github.com/lipton-dev/lipton/obl"
	"os"
	"path/filepath"
	"strings"
)

// WriteDump writes ob into dir as <name>.obl, the readable check program,
// and <name>.smt2, the SMT-LIB2 script (see WriteSMT2). dir must exist.
func WriteDump(dir string, ob *obl.Obligation) error {
	if ob.Name == "" || ob.Name == "." || ob.Name == ".." || strings.ContainsAny(ob.Name, `/\`) {
		return fmt.Errorf("obligation name %q cannot name a file", ob.Name)
	}
	base := filepath.Join(dir, ob.Name)
	var smt bytes.Buffer
	if err := WriteSMT2(&smt, ob); err != nil {
		return err
	}
	if err := os.WriteFile(base+".obl", []byte(ob.String()), 0o644); err != nil {
		return err
	}
	return os.WriteFile(base+".smt2", smt.Bytes(), 0o644)
}
