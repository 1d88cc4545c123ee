package lang

func (c *converter) optExpr(g *gExpr) Expr {
	if g == nil {
		return nil
	}
	return g.X
}

func (c *converter) expr(g *gExpr) Expr { return g.X }
