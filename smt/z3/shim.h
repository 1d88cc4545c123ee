// Package-private C helpers for the Go binding to libz3.
//
// Every helper performs one Z3 call, takes a reference on any object it
// returns and reports the Z3 error code recorded by the error handler during
// that same call. Doing all three inside one C call keeps the thread-local
// error slot and the call on the same OS thread and saves cgo crossings.

#ifndef LIPTON_Z3_SHIM_H
#define LIPTON_Z3_SHIM_H

#include <stdint.h>
#include <stdlib.h>
#include <z3.h>

// lz_result is a returned Z3 object (already reference counted) and the
// error code of the call that produced it.
typedef struct {
	void *p;
	int err;
} lz_result;

// Operator codes for lz_mk_op and lz_mk_opn.
enum {
	LZ_NOT,
	LZ_NEG,
	LZ_ADD,
	LZ_SUB,
	LZ_MUL,
	LZ_DIV,
	LZ_MOD,
	LZ_LT,
	LZ_LE,
	LZ_GT,
	LZ_GE,
	LZ_EQ,
	LZ_DISTINCT,
	LZ_AND,
	LZ_OR,
	LZ_IMPLIES,
	LZ_IFF,
	LZ_ITE,
	LZ_SELECT,
	LZ_STORE,
	LZ_SEQ_UNIT,
	LZ_SEQ_LEN,
	LZ_SEQ_NTH,
	LZ_SEQ_EXTRACT,
	LZ_SEQ_CONCAT
};

// Kinds of reference-counted objects, for lz_dec_ref.
enum {
	LZ_KIND_AST,
	LZ_KIND_MODEL,
	LZ_KIND_SOLVER,
	LZ_KIND_FUNC_INTERP,
	LZ_KIND_FUNC_ENTRY
};

Z3_context lz_mk_context(void);
const char *lz_full_version(void);
void lz_dec_ref(Z3_context c, int kind, void *p);
const char *lz_error_msg(Z3_context c, int err);

lz_result lz_int_sort(Z3_context c);
lz_result lz_bool_sort(Z3_context c);
lz_result lz_array_sort(Z3_context c, Z3_sort dom, Z3_sort rng);
lz_result lz_seq_sort(Z3_context c, Z3_sort elem);
lz_result lz_seq_basis(Z3_context c, Z3_sort s);
lz_result lz_mk_seq_empty(Z3_context c, Z3_sort s);
lz_result lz_tuple_sort(Z3_context c, const char *name, unsigned n, const char **fields, Z3_sort *sorts, Z3_func_decl *decls);
lz_result lz_mk_const_array(Z3_context c, Z3_sort dom, Z3_ast v);
lz_result lz_mk_app(Z3_context c, Z3_func_decl f, unsigned n, Z3_ast *args);
lz_result lz_enum_sort(Z3_context c, const char *name, unsigned n, const char **names, Z3_ast *consts);
lz_result lz_mk_const(Z3_context c, const char *name, Z3_sort s);
lz_result lz_mk_int64(Z3_context c, int64_t v, Z3_sort s);
lz_result lz_mk_numeral(Z3_context c, const char *v, Z3_sort s);
lz_result lz_mk_bool(Z3_context c, int v);
lz_result lz_mk_op(Z3_context c, int op, Z3_ast a, Z3_ast b, Z3_ast d);
lz_result lz_mk_opn(Z3_context c, int op, unsigned n, Z3_ast *args);
lz_result lz_mk_quantifier(Z3_context c, int exists, unsigned n, Z3_ast *bound, Z3_ast body);
lz_result lz_mk_func1(Z3_context c, const char *name, Z3_sort dom, Z3_sort rng);
lz_result lz_mk_func(Z3_context c, const char *name, unsigned n, Z3_sort *dom, Z3_sort rng);
lz_result lz_mk_apply1(Z3_context c, Z3_func_decl f, Z3_ast x);
lz_result lz_mk_as_array(Z3_context c, Z3_func_decl f);
lz_result lz_get_sort(Z3_context c, Z3_ast a);

int lz_sort_kind(Z3_context c, Z3_sort s);
lz_result lz_array_domain(Z3_context c, Z3_sort s);
lz_result lz_array_range(Z3_context c, Z3_sort s);
int lz_app_kind(Z3_context c, Z3_ast a);
unsigned lz_num_args(Z3_context c, Z3_ast a);
lz_result lz_app_arg(Z3_context c, Z3_ast a, unsigned i);
int lz_is_numeral(Z3_context c, Z3_ast a);
const char *lz_numeral_string(Z3_context c, Z3_ast a);
int lz_bool_value(Z3_context c, Z3_ast a);
const char *lz_ast_string(Z3_context c, Z3_ast a);

lz_result lz_mk_solver(Z3_context c, int simple);
int lz_solver_assert(Z3_context c, Z3_solver s, Z3_ast a);
int lz_solver_push(Z3_context c, Z3_solver s);
int lz_solver_pop(Z3_context c, Z3_solver s, unsigned n);
int lz_solver_reset(Z3_context c, Z3_solver s);
// lz_solver_check checks s; task (may be NULL) names the work for the
// crash guard while this thread is inside the check.
int lz_solver_check(Z3_context c, Z3_solver s, unsigned n, Z3_ast *assumptions, const char *task, int *err);
void lz_clear_interrupt(Z3_context c);
const char *lz_solver_reason_unknown(Z3_context c, Z3_solver s);
lz_result lz_solver_model(Z3_context c, Z3_solver s);
const char *lz_solver_string(Z3_context c, Z3_solver s);

int lz_is_lambda1(Z3_context c, Z3_ast a);
lz_result lz_quantifier_body(Z3_context c, Z3_ast a);
int lz_is_var0(Z3_context c, Z3_ast a);

lz_result lz_model_eval(Z3_context c, Z3_model m, Z3_ast a, int complete);
lz_result lz_model_array_interp(Z3_context c, Z3_model m, Z3_ast asArray);
unsigned lz_func_interp_num_entries(Z3_context c, Z3_func_interp f);
lz_result lz_func_interp_entry(Z3_context c, Z3_func_interp f, unsigned i);
lz_result lz_func_interp_else(Z3_context c, Z3_func_interp f);
unsigned lz_func_entry_num_args(Z3_context c, Z3_func_entry e);
lz_result lz_func_entry_arg(Z3_context c, Z3_func_entry e, unsigned i);
lz_result lz_func_entry_value(Z3_context c, Z3_func_entry e);

uint64_t lz_solver_rlimit_count(Z3_context c, Z3_solver s);

// lz_install_crash_guard makes a fault inside libz3 end the process
// with one line and exit code 3 (crash.c); lz_set_task says what the line
// names as the work in progress when the fault is not inside a check
// (lz_enter_check / lz_leave_check name the task of a check per thread).
void lz_install_crash_guard(void);
void lz_set_task(const char *task);
void lz_enter_check(const char *task);
void lz_leave_check(void);
void lz_crash_for_test(Z3_context c, const char *check_task);

#endif
lz_result lz_model_translate(Z3_context src, Z3_model m, Z3_context dst);
int lz_solver_set_uint(Z3_context c, Z3_solver s, const char *name, unsigned v);
int lz_solver_set_rlimit(Z3_context c, Z3_solver s, unsigned n);
void lz_no_ctrl_c(Z3_context c, Z3_solver s);
int lz_sigint_onstack(void);
int lz_solver_from_string(Z3_context c, Z3_solver s, const char *text);
