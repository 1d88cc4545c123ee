package lang

// RequireLayers reports a file that declares no layer as an error at its
// first line. Such a file parses and type-checks (fmt formats it), but
// there is nothing in it to verify or explore: a checker that printed
// "proven" for it would make a vacuous claim.
func RequireLayers(f *File) error {
	if len(f.Layers) > 0 {
		return nil
	}
	what := "this file declares no layer"
	if len(f.Src) == 0 {
		what = "this file is empty"
	}
	var errs ErrorList
	errs.Add(Pos{File: f.Name, Line: 1, Col: 1},
		"%s: there is nothing to check (a proof has at least `layer 0 { ... }`)", what)
	errs.attachSource(f.Src)
	return errs
}
