/*
 * Treiber's lock-free stack for the side-by-side benchmark: the same
 * model as treiber.lip, in Promela (README.md). Each step is one
 * shared-memory access together with the local computation that follows
 * it up to the next access, as a fragment of treiber.lip is: one d_step
 * per access, and a branch on a value just read is the guard of the
 * d_step that reads it. Locals are reset when an operation ends (they
 * are dead; lipton drops them), so states differ only in live data.
 *
 * Property: no value is popped twice, and whenever no operation is in
 * progress, every value pushed so far was popped exactly once or is still
 * in the stack.
 *
 * Instance: -DWORKERS=n threads calling push or pop -DCALLS=n times each,
 * and -DPUSHERS=n threads calling push once.
 */
#ifndef WORKERS
#define WORKERS 2
#endif
#ifndef CALLS
#define CALLS 2
#endif
#ifndef PUSHERS
#define PUSHERS 0
#endif

#define NIL 0
#define EMPTY (-1)

byte top = NIL;
byte next[7];
byte alloc = 1;
byte taken[7];
byte busy = 0;

#define inStack(k) (top == k || next[top] == k || next[next[top]] == k || next[next[next[top]]] == k || \
                    next[next[next[next[top]]]] == k || next[next[next[next[next[top]]]]] == k)
#define accounted(k) (k >= alloc || ((taken[k] == 1) != inStack(k)))
#define quiescentOK (busy != 0 || (accounted(1) && accounted(2) && accounted(3) && accounted(4) && \
                                   accounted(5) && accounted(6)))

#define RESET n = 0; t = 0; nx = 0

/* push, after its first step (which the caller merges with the choice of
 * the operation): link the node, then publish it with a compare-and-swap,
 * retrying. */
inline pushRest()
{
	do
	:: t = top;
		next[n] = t;
		if
		:: d_step { top == t; top = n; busy--; assert(quiescentOK); RESET };
			break
		:: d_step { top != t }
		fi
	od
}

/* pop, after its first step: read top (EMPTY if NIL), its successor,
 * then swing top with a compare-and-swap, retrying. */
inline popRest()
{
	do
	:: d_step { top == NIL; busy--; assert(quiescentOK); RESET };
		break
	:: d_step { top != NIL; t = top };
		nx = next[t];
		if
		:: d_step { top == t; top = nx; assert(taken[t] == 0); taken[t] = 1;
			busy--; assert(quiescentOK); RESET };
			break
		:: d_step { top != t }
		fi
	od
}

active [WORKERS] proctype worker()
{
	byte calls = 0;
	byte n, t, nx;
	do
	:: d_step { calls < CALLS; calls++; n = alloc; alloc++; busy++ };
		pushRest()
	:: d_step { calls < CALLS; calls++; busy++ };
		popRest()
	:: calls == CALLS -> break
	od
}

active [PUSHERS] proctype pusher()
{
	byte n, t, nx;
	d_step { n = alloc; alloc++; busy++ };
	pushRest()
}
