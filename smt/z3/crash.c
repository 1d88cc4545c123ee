// A guard for crashes inside libz3: a segmentation fault or bus error
// whose faulting instruction lies in libz3's code ends the process with
// one clear line and exit code 3 (lipton's internal error), instead of
// the Go runtime's dump of registers and goroutines. Any other fault is
// passed on to the handler that was installed before (the Go runtime's,
// which turns a nil dereference in Go code into a panic).

#define _GNU_SOURCE
#include <link.h>
#include <signal.h>
#include <string.h>
#include <ucontext.h>
#include <unistd.h>
#include <pthread.h>

#include "shim.h"

static uintptr_t lz_z3_lo, lz_z3_hi;      // libz3's executable segments
static struct sigaction lz_prev_segv, lz_prev_bus;
static char lz_task[256];                 // what lipton was doing (lz_set_task)
// lz_check_task is the task of the check this thread is in, if any.
// With several provers at work (check --jobs), the process-wide lz_task
// names whichever obligation was set last; a fault inside a check is
// named by its own thread's task instead. The variable lives in the
// executable's static TLS, which a signal handler may read.
static __thread const char *lz_check_task;

// lz_find_z3 records the address range of the loaded object that
// contains Z3_solver_check.
static int lz_find_z3(struct dl_phdr_info *info, size_t size, void *data) {
	(void)size;
	uintptr_t target = (uintptr_t)data;
	uintptr_t lo = UINTPTR_MAX, hi = 0;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X)) {
			continue;
		}
		uintptr_t a = info->dlpi_addr + ph->p_vaddr;
		if (a < lo) lo = a;
		if (a + ph->p_memsz > hi) hi = a + ph->p_memsz;
	}
	if (lo <= target && target < hi) {
		lz_z3_lo = lo;
		lz_z3_hi = hi;
		return 1;
	}
	return 0;
}

static uintptr_t lz_fault_pc(void *ctx) {
	ucontext_t *uc = (ucontext_t *)ctx;
#if defined(__x86_64__)
	return (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
	return (uintptr_t)uc->uc_mcontext.pc;
#else
	(void)uc;
	return 0;
#endif
}

static void lz_write(const char *s) {
	ssize_t n = write(2, s, strlen(s));
	(void)n;
}

static void lz_on_fault(int sig, siginfo_t *info, void *ctx) {
	uintptr_t pc = lz_fault_pc(ctx);
	if (lz_z3_lo <= pc && pc < lz_z3_hi) {
		lz_write("lipton: internal error: Z3 crashed (");
		lz_write(sig == SIGSEGV ? "segmentation fault" : "bus error");
		lz_write(") while ");
		const char *task = lz_check_task ? lz_check_task : lz_task;
		lz_write(task[0] ? task : "solving");
		lz_write("; this is a bug in Z3 or in lipton's use of it: please report it with the input file\n");
		_exit(3);
	}
	struct sigaction *prev = sig == SIGSEGV ? &lz_prev_segv : &lz_prev_bus;
	if (prev->sa_flags & SA_SIGINFO) {
		prev->sa_sigaction(sig, info, ctx);
	} else if (prev->sa_handler != SIG_DFL && prev->sa_handler != SIG_IGN) {
		prev->sa_handler(sig);
	} else {
		signal(sig, SIG_DFL);
		raise(sig);
	}
}

static void lz_install(void) {
	dl_iterate_phdr(lz_find_z3, (void *)(uintptr_t)&Z3_solver_check);
	if (lz_z3_hi == 0) {
		return;
	}
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = lz_on_fault;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGSEGV, &sa, &lz_prev_segv);
	sigaction(SIGBUS, &sa, &lz_prev_bus);
}

void lz_install_crash_guard(void) {
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	pthread_once(&once, lz_install);
}

void lz_enter_check(const char *task) { lz_check_task = task; }
void lz_leave_check(void) { lz_check_task = NULL; }

void lz_set_task(const char *task) {
	strncpy(lz_task, task, sizeof lz_task - 1);
	lz_task[sizeof lz_task - 1] = 0;
}

// lz_crash_for_test faults inside libz3 (a reference count taken on an
// AST at a bad address), for the crash guard's test; with a check_task,
// as if inside a check of that task.
void lz_crash_for_test(Z3_context c, const char *check_task) {
	if (check_task != NULL) {
		lz_enter_check(check_task);
	}
	Z3_inc_ref(c, (Z3_ast)(uintptr_t)64);
}
