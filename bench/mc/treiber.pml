/*
 * Treiber's lock-free stack for the side-by-side benchmark: the same
 * model as treiber.lip, in Promela (README.md). One shared-memory access
 * per statement; the d_steps add the same ghost bookkeeping to the same
 * accesses as the [ ] groups of treiber.lip.
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

inline push()
{
	d_step { n = alloc; alloc++; busy++ };
	done = false;
	do
	:: !done ->
		t = top;
		next[n] = t;
		d_step {
			if
			:: top == t -> top = n; done = true; busy--; assert(quiescentOK)
			:: else
			fi
		}
	:: else -> break
	od
}

inline pop()
{
	busy++;
	done = false;
	do
	:: !done ->
		d_step {
			t = top;
			if
			:: t == NIL -> busy--; assert(quiescentOK)
			:: else
			fi
		};
		if
		:: t == NIL -> v = EMPTY; done = true
		:: else ->
			nx = next[t];
			d_step {
				if
				:: top == t ->
					top = nx; done = true;
					assert(taken[t] == 0); taken[t] = 1;
					busy--; assert(quiescentOK)
				:: else
				fi
			};
			if
			:: done -> v = t
			:: else
			fi
		fi
	:: else -> break
	od
}

active [WORKERS] proctype worker()
{
	byte calls = 0;
	byte n, t, nx;
	short v;
	bool done;
	do
	:: calls < CALLS ->
		calls++;
		if
		:: push()
		:: pop()
		fi
	:: calls == CALLS -> break
	od
}

active [PUSHERS] proctype pusher()
{
	byte n, t;
	bool done;
	push()
}
