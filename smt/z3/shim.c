// Implementation of the helpers declared in shim.h.

#include "shim.h"
#include <string.h>
#include <signal.h>

// lz_err is the error code recorded by lz_on_error during the current Z3
// call on this thread. Z3 invokes the handler synchronously inside the API
// call that failed, so a helper that clears lz_err, calls Z3 and reads lz_err
// sees exactly the errors of its own call, whatever other threads do.
static __thread int lz_err;

static void lz_on_error(Z3_context c, Z3_error_code e) {
	(void)c;
	lz_err = (int)e;
}

#define LZ_BEGIN lz_err = Z3_OK

// lz_ast_result takes a reference on a freshly returned AST if the call
// succeeded and packages it with the call's error code.
static lz_result lz_ast_result(Z3_context c, Z3_ast a) {
	lz_result r;
	r.err = lz_err;
	r.p = NULL;
	if (r.err == Z3_OK && a != NULL) {
		Z3_inc_ref(c, a);
		r.p = a;
	} else if (r.err == Z3_OK) {
		r.err = Z3_INVALID_ARG;
	}
	return r;
}

Z3_context lz_mk_context(void) {
	Z3_config cfg = Z3_mk_config();
	Z3_set_param_value(cfg, "model", "true");
	Z3_context c = Z3_mk_context_rc(cfg);
	Z3_del_config(cfg);
	if (c != NULL) {
		Z3_set_error_handler(c, lz_on_error);
	}
	return c;
}

const char *lz_full_version(void) {
	return Z3_get_full_version();
}

void lz_dec_ref(Z3_context c, int kind, void *p) {
	switch (kind) {
	case LZ_KIND_AST:
		Z3_dec_ref(c, (Z3_ast)p);
		break;
	case LZ_KIND_MODEL:
		Z3_model_dec_ref(c, (Z3_model)p);
		break;
	case LZ_KIND_SOLVER:
		Z3_solver_dec_ref(c, (Z3_solver)p);
		break;
	case LZ_KIND_FUNC_INTERP:
		Z3_func_interp_dec_ref(c, (Z3_func_interp)p);
		break;
	case LZ_KIND_FUNC_ENTRY:
		Z3_func_entry_dec_ref(c, (Z3_func_entry)p);
		break;
	}
}

const char *lz_error_msg(Z3_context c, int err) {
	return Z3_get_error_msg(c, (Z3_error_code)err);
}

lz_result lz_int_sort(Z3_context c) {
	LZ_BEGIN;
	return lz_ast_result(c, Z3_sort_to_ast(c, Z3_mk_int_sort(c)));
}

lz_result lz_bool_sort(Z3_context c) {
	LZ_BEGIN;
	return lz_ast_result(c, Z3_sort_to_ast(c, Z3_mk_bool_sort(c)));
}

lz_result lz_array_sort(Z3_context c, Z3_sort dom, Z3_sort rng) {
	LZ_BEGIN;
	Z3_sort s = Z3_mk_array_sort(c, dom, rng);
	if (s == NULL) {
		return lz_ast_result(c, NULL);
	}
	return lz_ast_result(c, Z3_sort_to_ast(c, s));
}

// lz_tuple_sort makes the record sort name, whose constructor has the
// same name, with n fields; decls receives the constructor and then the n projections, each
// referenced, if the call succeeds.
lz_result lz_tuple_sort(Z3_context c, const char *name, unsigned n, const char **fields, Z3_sort *sorts, Z3_func_decl *decls) {
	LZ_BEGIN;
	Z3_symbol *syms = malloc(n * sizeof(Z3_symbol));
	for (unsigned i = 0; i < n; i++) {
		syms[i] = Z3_mk_string_symbol(c, fields[i]);
	}
	Z3_func_decl ctor;
	Z3_sort s = Z3_mk_tuple_sort(c, Z3_mk_string_symbol(c, name), n, syms, sorts, &ctor, decls + 1);
	free(syms);
	if (s != NULL && lz_err == Z3_OK) {
		decls[0] = ctor;
		for (unsigned i = 0; i <= n; i++) {
			Z3_inc_ref(c, Z3_func_decl_to_ast(c, decls[i]));
		}
	}
	if (s == NULL) {
		return lz_ast_result(c, NULL);
	}
	return lz_ast_result(c, Z3_sort_to_ast(c, s));
}

lz_result lz_seq_sort(Z3_context c, Z3_sort elem) {
	LZ_BEGIN;
	Z3_sort s = Z3_mk_seq_sort(c, elem);
	return lz_ast_result(c, s == NULL ? NULL : Z3_sort_to_ast(c, s));
}

lz_result lz_seq_basis(Z3_context c, Z3_sort s) {
	LZ_BEGIN;
	Z3_sort b = Z3_get_seq_sort_basis(c, s);
	return lz_ast_result(c, b == NULL ? NULL : Z3_sort_to_ast(c, b));
}

lz_result lz_mk_seq_empty(Z3_context c, Z3_sort s) {
	LZ_BEGIN;
	return lz_ast_result(c, Z3_mk_seq_empty(c, s));
}

lz_result lz_mk_const_array(Z3_context c, Z3_sort dom, Z3_ast v) {
	LZ_BEGIN;
	return lz_ast_result(c, Z3_mk_const_array(c, dom, v));
}

lz_result lz_mk_app(Z3_context c, Z3_func_decl f, unsigned n, Z3_ast *args) {
	LZ_BEGIN;
	return lz_ast_result(c, Z3_mk_app(c, f, n, args));
}

// lz_enum_sort makes the enumeration sort name with n members; consts
// receives the n member constants, each referenced, if the call succeeds.
lz_result lz_enum_sort(Z3_context c, const char *name, unsigned n, const char **names, Z3_ast *consts) {
	LZ_BEGIN;
	Z3_symbol *syms = malloc(n * sizeof(Z3_symbol));
	Z3_func_decl *decls = malloc(n * sizeof(Z3_func_decl));
	Z3_func_decl *testers = malloc(n * sizeof(Z3_func_decl));
	for (unsigned i = 0; i < n; i++) {
		syms[i] = Z3_mk_string_symbol(c, names[i]);
	}
	Z3_sort s = Z3_mk_enumeration_sort(c, Z3_mk_string_symbol(c, name), n, syms, decls, testers);
	if (s != NULL && lz_err == Z3_OK) {
		for (unsigned i = 0; i < n; i++) {
			consts[i] = Z3_mk_app(c, decls[i], 0, NULL);
			Z3_inc_ref(c, consts[i]);
		}
	}
	free(syms);
	free(decls);
	free(testers);
	if (s == NULL) {
		return lz_ast_result(c, NULL);
	}
	return lz_ast_result(c, Z3_sort_to_ast(c, s));
}

lz_result lz_mk_const(Z3_context c, const char *name, Z3_sort s) {
	LZ_BEGIN;
	return lz_ast_result(c, Z3_mk_const(c, Z3_mk_string_symbol(c, name), s));
}

lz_result lz_mk_int64(Z3_context c, int64_t v, Z3_sort s) {
	LZ_BEGIN;
	return lz_ast_result(c, Z3_mk_int64(c, v, s));
}

lz_result lz_mk_numeral(Z3_context c, const char *v, Z3_sort s) {
	LZ_BEGIN;
	return lz_ast_result(c, Z3_mk_numeral(c, v, s));
}

lz_result lz_mk_bool(Z3_context c, int v) {
	LZ_BEGIN;
	return lz_ast_result(c, v ? Z3_mk_true(c) : Z3_mk_false(c));
}

lz_result lz_mk_op(Z3_context c, int op, Z3_ast a, Z3_ast b, Z3_ast d) {
	Z3_ast args[2] = {a, b};
	Z3_ast r = NULL;
	LZ_BEGIN;
	switch (op) {
	case LZ_NOT:
		r = Z3_mk_not(c, a);
		break;
	case LZ_NEG:
		r = Z3_mk_unary_minus(c, a);
		break;
	case LZ_DIV:
		r = Z3_mk_div(c, a, b);
		break;
	case LZ_MOD:
		r = Z3_mk_mod(c, a, b);
		break;
	case LZ_LT:
		r = Z3_mk_lt(c, a, b);
		break;
	case LZ_LE:
		r = Z3_mk_le(c, a, b);
		break;
	case LZ_GT:
		r = Z3_mk_gt(c, a, b);
		break;
	case LZ_GE:
		r = Z3_mk_ge(c, a, b);
		break;
	case LZ_EQ:
		r = Z3_mk_eq(c, a, b);
		break;
	case LZ_IMPLIES:
		r = Z3_mk_implies(c, a, b);
		break;
	case LZ_IFF:
		r = Z3_mk_iff(c, a, b);
		break;
	case LZ_ITE:
		r = Z3_mk_ite(c, a, b, d);
		break;
	case LZ_SELECT:
		r = Z3_mk_select(c, a, b);
		break;
	case LZ_STORE:
		r = Z3_mk_store(c, a, b, d);
		break;
	case LZ_SEQ_UNIT:
		r = Z3_mk_seq_unit(c, a);
		break;
	case LZ_SEQ_LEN:
		r = Z3_mk_seq_length(c, a);
		break;
	case LZ_SEQ_NTH:
		r = Z3_mk_seq_nth(c, a, b);
		break;
	case LZ_SEQ_EXTRACT:
		r = Z3_mk_seq_extract(c, a, b, d);
		break;
	default:
		return lz_mk_opn(c, op, 2, args);
	}
	return lz_ast_result(c, r);
}

lz_result lz_mk_opn(Z3_context c, int op, unsigned n, Z3_ast *args) {
	Z3_ast r = NULL;
	LZ_BEGIN;
	switch (op) {
	case LZ_ADD:
		r = Z3_mk_add(c, n, args);
		break;
	case LZ_SUB:
		r = Z3_mk_sub(c, n, args);
		break;
	case LZ_MUL:
		r = Z3_mk_mul(c, n, args);
		break;
	case LZ_AND:
		r = Z3_mk_and(c, n, args);
		break;
	case LZ_OR:
		r = Z3_mk_or(c, n, args);
		break;
	case LZ_DISTINCT:
		r = Z3_mk_distinct(c, n, args);
		break;
	case LZ_SEQ_CONCAT:
		r = Z3_mk_seq_concat(c, n, args);
		break;
	default:
		lz_err = Z3_INVALID_ARG;
	}
	return lz_ast_result(c, r);
}

lz_result lz_mk_quantifier(Z3_context c, int exists, unsigned n, Z3_ast *bound, Z3_ast body) {
	Z3_app apps[n > 0 ? n : 1];
	LZ_BEGIN;
	for (unsigned i = 0; i < n; i++) {
		apps[i] = Z3_to_app(c, bound[i]);
		if (lz_err != Z3_OK) {
			return lz_ast_result(c, NULL);
		}
	}
	Z3_ast r = exists ? Z3_mk_exists_const(c, 0, n, apps, 0, NULL, body)
	                  : Z3_mk_forall_const(c, 0, n, apps, 0, NULL, body);
	return lz_ast_result(c, r);
}

// lz_mk_func1 declares a unary function; the result is the declaration
// as an AST, so it is reference counted like any other.
lz_result lz_mk_func1(Z3_context c, const char *name, Z3_sort dom, Z3_sort rng) {
	LZ_BEGIN;
	Z3_func_decl f = Z3_mk_func_decl(c, Z3_mk_string_symbol(c, name), 1, &dom, rng);
	return lz_ast_result(c, f == NULL ? NULL : Z3_func_decl_to_ast(c, f));
}

// lz_mk_func declares a function of n arguments.
lz_result lz_mk_func(Z3_context c, const char *name, unsigned n, Z3_sort *dom, Z3_sort rng) {
	LZ_BEGIN;
	Z3_func_decl f = Z3_mk_func_decl(c, Z3_mk_string_symbol(c, name), n, dom, rng);
	return lz_ast_result(c, f == NULL ? NULL : Z3_func_decl_to_ast(c, f));
}

lz_result lz_mk_apply1(Z3_context c, Z3_func_decl f, Z3_ast x) {
	LZ_BEGIN;
	return lz_ast_result(c, Z3_mk_app(c, f, 1, &x));
}

lz_result lz_mk_as_array(Z3_context c, Z3_func_decl f) {
	LZ_BEGIN;
	return lz_ast_result(c, Z3_mk_as_array(c, f));
}

lz_result lz_get_sort(Z3_context c, Z3_ast a) {
	LZ_BEGIN;
	Z3_sort s = Z3_get_sort(c, a);
	return lz_ast_result(c, s == NULL ? NULL : Z3_sort_to_ast(c, s));
}

int lz_sort_kind(Z3_context c, Z3_sort s) {
	return (int)Z3_get_sort_kind(c, s);
}

lz_result lz_array_domain(Z3_context c, Z3_sort s) {
	LZ_BEGIN;
	Z3_sort d = Z3_get_array_sort_domain(c, s);
	return lz_ast_result(c, d == NULL ? NULL : Z3_sort_to_ast(c, d));
}

lz_result lz_array_range(Z3_context c, Z3_sort s) {
	LZ_BEGIN;
	Z3_sort d = Z3_get_array_sort_range(c, s);
	return lz_ast_result(c, d == NULL ? NULL : Z3_sort_to_ast(c, d));
}

// lz_app_kind returns the declaration kind of an application, or -1 if a
// is not an application (a quantifier or bound variable).
int lz_app_kind(Z3_context c, Z3_ast a) {
	if (Z3_get_ast_kind(c, a) != Z3_APP_AST) {
		return -1;
	}
	return (int)Z3_get_decl_kind(c, Z3_get_app_decl(c, Z3_to_app(c, a)));
}

unsigned lz_num_args(Z3_context c, Z3_ast a) {
	if (Z3_get_ast_kind(c, a) != Z3_APP_AST) {
		return 0;
	}
	return Z3_get_app_num_args(c, Z3_to_app(c, a));
}

lz_result lz_app_arg(Z3_context c, Z3_ast a, unsigned i) {
	LZ_BEGIN;
	return lz_ast_result(c, Z3_get_app_arg(c, Z3_to_app(c, a), i));
}

int lz_is_numeral(Z3_context c, Z3_ast a) {
	return Z3_is_numeral_ast(c, a) ? 1 : 0;
}

const char *lz_numeral_string(Z3_context c, Z3_ast a) {
	return Z3_get_numeral_string(c, a);
}

int lz_bool_value(Z3_context c, Z3_ast a) {
	return (int)Z3_get_bool_value(c, a);
}

const char *lz_ast_string(Z3_context c, Z3_ast a) {
	return Z3_ast_to_string(c, a);
}

// lz_is_lambda1 reports whether a is a lambda binding one variable, the
// shape Z3 uses for array values that are not finite.
int lz_is_lambda1(Z3_context c, Z3_ast a) {
	return Z3_get_ast_kind(c, a) == Z3_QUANTIFIER_AST && Z3_is_lambda(c, a) &&
	       Z3_get_quantifier_num_bound(c, a) == 1;
}

lz_result lz_quantifier_body(Z3_context c, Z3_ast a) {
	LZ_BEGIN;
	return lz_ast_result(c, Z3_get_quantifier_body(c, a));
}

// lz_is_var0 reports whether a is the de Bruijn variable with index 0.
int lz_is_var0(Z3_context c, Z3_ast a) {
	return Z3_get_ast_kind(c, a) == Z3_VAR_AST && Z3_get_index_value(c, a) == 0;
}

lz_result lz_mk_solver(Z3_context c, int simple) {
	lz_result r;
	LZ_BEGIN;
	Z3_solver s = NULL;
	if (simple == 2) {
		/* A solver that runs Z3's "default" tactic, as the z3 command
		   line's check-sat does. */
		Z3_tactic t = Z3_mk_tactic(c, "default");
		if (lz_err == Z3_OK && t != NULL) {
			Z3_tactic_inc_ref(c, t);
			s = Z3_mk_solver_from_tactic(c, t);
			Z3_tactic_dec_ref(c, t);
		}
	} else {
		s = simple ? Z3_mk_simple_solver(c) : Z3_mk_solver(c);
	}
	r.err = lz_err;
	r.p = NULL;
	if (r.err == Z3_OK && s != NULL) {
		Z3_solver_inc_ref(c, s);
		lz_no_ctrl_c(c, s);
		r.err = lz_err;
		r.p = s;
	}
	return r;
}

/* lz_no_ctrl_c keeps Z3 from handling SIGINT during the solver's checks.
   Z3 4.8.12 installs its own handler for a check and then restores the
   previous one without SA_ONSTACK, after which a SIGINT crashes the Go
   runtime ("non-Go code set up signal handler without SA_ONSTACK"); and
   while its handler is in place, Go never hears of the signal. lipton
   handles SIGINT itself and interrupts Z3 with Z3_interrupt. */
void lz_no_ctrl_c(Z3_context c, Z3_solver s) {
	Z3_params p = Z3_mk_params(c);
	if (p == NULL) {
		return;
	}
	Z3_params_inc_ref(c, p);
	Z3_params_set_bool(c, p, Z3_mk_string_symbol(c, "ctrl_c"), false);
	if (lz_err == Z3_OK) {
		Z3_solver_set_params(c, s, p);
	}
	Z3_params_dec_ref(c, p);
}

int lz_solver_assert(Z3_context c, Z3_solver s, Z3_ast a) {
	LZ_BEGIN;
	Z3_solver_assert(c, s, a);
	return lz_err;
}

int lz_solver_push(Z3_context c, Z3_solver s) {
	LZ_BEGIN;
	Z3_solver_push(c, s);
	return lz_err;
}

int lz_solver_pop(Z3_context c, Z3_solver s, unsigned n) {
	LZ_BEGIN;
	Z3_solver_pop(c, s, n);
	return lz_err;
}

int lz_solver_reset(Z3_context c, Z3_solver s) {
	LZ_BEGIN;
	Z3_solver_reset(c, s);
	return lz_err;
}

int lz_solver_set_uint(Z3_context c, Z3_solver s, const char *name, unsigned v);

int lz_solver_set_rlimit(Z3_context c, Z3_solver s, unsigned n) {
	return lz_solver_set_uint(c, s, "rlimit", n);
}

/* lz_solver_set_uint sets one unsigned parameter of s. */
int lz_solver_set_uint(Z3_context c, Z3_solver s, const char *name, unsigned v) {
	LZ_BEGIN;
	Z3_params p = Z3_mk_params(c);
	if (p == NULL) {
		return lz_err == Z3_OK ? Z3_MEMOUT_FAIL : lz_err;
	}
	Z3_params_inc_ref(c, p);
	Z3_params_set_uint(c, p, Z3_mk_string_symbol(c, name), v);
	if (lz_err == Z3_OK) {
		Z3_solver_set_params(c, s, p);
	}
	Z3_params_dec_ref(c, p);
	return lz_err;
}

int lz_solver_check(Z3_context c, Z3_solver s, unsigned n, Z3_ast *assumptions, const char *task, int *err) {
	LZ_BEGIN;
	lz_enter_check(task);
	Z3_lbool r = n == 0 ? Z3_solver_check(c, s) : Z3_solver_check_assumptions(c, s, n, assumptions);
	lz_leave_check();
	*err = lz_err;
	return (int)r;
}

// lz_clear_interrupt undoes a Z3_interrupt that arrived after the check it
// was meant for had finished. Z3 4.8.12 keeps the context canceled until
// the next check starts (a push fails with "push canceled" meanwhile), so
// run a check on an empty scratch solver.
void lz_clear_interrupt(Z3_context c) {
	Z3_solver s = Z3_mk_simple_solver(c);
	if (s == NULL) {
		return;
	}
	Z3_solver_inc_ref(c, s);
	lz_no_ctrl_c(c, s);
	Z3_solver_check(c, s);
	Z3_solver_dec_ref(c, s);
}

/* lz_solver_rlimit_count returns the resource count of the solver's
   context ("rlimit count" in its statistics), or 0 if it is missing. */
uint64_t lz_solver_rlimit_count(Z3_context c, Z3_solver s) {
	Z3_stats st = Z3_solver_get_statistics(c, s);
	uint64_t n = 0;
	if (st == NULL) {
		return 0;
	}
	Z3_stats_inc_ref(c, st);
	for (unsigned i = 0; i < Z3_stats_size(c, st); i++) {
		if (Z3_stats_is_uint(c, st, i) && strcmp(Z3_stats_get_key(c, st, i), "rlimit count") == 0) {
			n = Z3_stats_get_uint_value(c, st, i);
			break;
		}
	}
	Z3_stats_dec_ref(c, st);
	return n;
}

const char *lz_solver_reason_unknown(Z3_context c, Z3_solver s) {
	return Z3_solver_get_reason_unknown(c, s);
}

lz_result lz_solver_model(Z3_context c, Z3_solver s) {
	lz_result r;
	LZ_BEGIN;
	Z3_model m = Z3_solver_get_model(c, s);
	r.err = lz_err;
	r.p = NULL;
	if (r.err == Z3_OK && m != NULL) {
		Z3_model_inc_ref(c, m);
		r.p = m;
	} else if (r.err == Z3_OK) {
		r.err = Z3_INVALID_USAGE;
	}
	return r;
}

const char *lz_solver_string(Z3_context c, Z3_solver s) {
	return Z3_solver_to_string(c, s);
}

lz_result lz_model_eval(Z3_context c, Z3_model m, Z3_ast a, int complete) {
	Z3_ast v = NULL;
	LZ_BEGIN;
	if (!Z3_model_eval(c, m, a, complete != 0, &v) && lz_err == Z3_OK) {
		lz_err = Z3_INVALID_ARG;
	}
	return lz_ast_result(c, v);
}

// lz_model_array_interp returns the function interpretation behind an
// (_ as-array f) value, or a NULL result without error if the model has
// none.
lz_result lz_model_array_interp(Z3_context c, Z3_model m, Z3_ast asArray) {
	lz_result r;
	LZ_BEGIN;
	Z3_func_decl f = Z3_get_as_array_func_decl(c, asArray);
	Z3_func_interp fi = NULL;
	if (lz_err == Z3_OK && f != NULL) {
		fi = Z3_model_get_func_interp(c, m, f);
	}
	r.err = lz_err;
	r.p = NULL;
	if (r.err == Z3_OK && fi != NULL) {
		Z3_func_interp_inc_ref(c, fi);
		r.p = fi;
	}
	return r;
}

unsigned lz_func_interp_num_entries(Z3_context c, Z3_func_interp f) {
	return Z3_func_interp_get_num_entries(c, f);
}

lz_result lz_func_interp_entry(Z3_context c, Z3_func_interp f, unsigned i) {
	lz_result r;
	LZ_BEGIN;
	Z3_func_entry e = Z3_func_interp_get_entry(c, f, i);
	r.err = lz_err;
	r.p = NULL;
	if (r.err == Z3_OK && e != NULL) {
		Z3_func_entry_inc_ref(c, e);
		r.p = e;
	}
	return r;
}

// lz_func_interp_else returns the else value of f, or a NULL result without
// error if f has none.
lz_result lz_func_interp_else(Z3_context c, Z3_func_interp f) {
	LZ_BEGIN;
	Z3_ast e = Z3_func_interp_get_else(c, f);
	if (e == NULL && lz_err == Z3_OK) {
		lz_result r = {NULL, Z3_OK};
		return r;
	}
	return lz_ast_result(c, e);
}

unsigned lz_func_entry_num_args(Z3_context c, Z3_func_entry e) {
	return Z3_func_entry_get_num_args(c, e);
}

lz_result lz_func_entry_arg(Z3_context c, Z3_func_entry e, unsigned i) {
	LZ_BEGIN;
	return lz_ast_result(c, Z3_func_entry_get_arg(c, e, i));
}

lz_result lz_func_entry_value(Z3_context c, Z3_func_entry e) {
	LZ_BEGIN;
	return lz_ast_result(c, Z3_func_entry_get_value(c, e));
}


/* lz_model_translate copies m into context dst. The result is owned by dst. */
lz_result lz_model_translate(Z3_context src, Z3_model m, Z3_context dst) {
	lz_result r;
	LZ_BEGIN;
	Z3_model t = Z3_model_translate(src, m, dst);
	r.err = lz_err;
	if (r.err == Z3_OK) {
		r.err = Z3_get_error_code(dst);
	}
	r.p = NULL;
	if (r.err == Z3_OK && t != NULL) {
		Z3_model_inc_ref(dst, t);
		r.p = t;
	}
	return r;
}


int lz_solver_from_string(Z3_context c, Z3_solver s, const char *text) {
	LZ_BEGIN;
	Z3_solver_from_string(c, s, text);
	return lz_err;
}

/* lz_sigint_onstack reports whether the process's SIGINT handler has
   SA_ONSTACK, which Go's runtime needs (a regression test of
   lz_no_ctrl_c). */
int lz_sigint_onstack(void) {
	struct sigaction sa;
	if (sigaction(SIGINT, NULL, &sa) != 0) {
		return -1;
	}
	return (sa.sa_flags & SA_ONSTACK) != 0;
}
