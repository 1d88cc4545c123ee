/*
 * The Chase-Lev work-stealing deque for the side-by-side benchmark: the
 * same model as chaselev.lip, in Promela (README.md). Each step is one
 * shared-memory access together with the local computation that follows
 * it up to the next access, as a fragment of chaselev.lip is: one d_step
 * per access, and a branch on a value just read is the guard of the
 * d_step that reads it. Locals are reset when an operation ends (they
 * are dead; lipton drops them), so states differ only in live data.
 *
 * Property: no task is returned twice, and whenever no operation is in
 * progress, every task put so far was returned exactly once or is still
 * in the deque.
 *
 * Instance: -DOWNERCALLS=n (calls of put or take by the owner),
 * -DTHIEVES=n, -DSTEALS=n (calls of steal by each thief).
 */
#ifndef OWNERCALLS
#define OWNERCALLS 3
#endif
#ifndef THIEVES
#define THIEVES 2
#endif
#ifndef STEALS
#define STEALS 2
#endif

#define EMPTY (-1)

short H = 0;
short T = 0;
byte items[4];
byte nextTask = 1;
byte taken[5];
byte busy = 0;

#define inDeque(k) ((H <= 0 && 0 < T && items[0] == k) || (H <= 1 && 1 < T && items[1] == k) || \
                    (H <= 2 && 2 < T && items[2] == k) || (H <= 3 && 3 < T && items[3] == k))
#define accounted(k) (k >= nextTask || ((taken[k] == 1) != inDeque(k)))
#define quiescentOK (busy != 0 || (accounted(1) && accounted(2) && accounted(3) && accounted(4)))

#define RESET t = 0; h = 0; task = 0; chk = false

active proctype owner()
{
	byte calls = 0;
	short t, h, task;
	bool chk;
	do
	:: /* put */
		d_step { calls < OWNERCALLS; calls++; t = T; task = nextTask; nextTask++; busy++ };
		items[t] = task;
		d_step { T = t + 1; busy--; assert(quiescentOK); RESET }
	:: /* take */
		d_step { calls < OWNERCALLS; calls++; t = T - 1; busy++ };
		T = t;
		if
		:: d_step { t < H; h = H };
			d_step { T = h; busy--; assert(quiescentOK); RESET }
		:: d_step { t >= H; h = H };
			if
			:: d_step { t > h; task = items[t]; assert(taken[task] == 0); taken[task] = 1;
				busy--; assert(quiescentOK); RESET }
			:: d_step { t == h; task = items[t] };
				d_step {
					if
					:: h == H -> H = h + 1; chk = true
					:: else -> chk = false; task = EMPTY
					fi
				};
				d_step {
					T = t + 1;
					if
					:: chk -> assert(taken[task] == 0); taken[task] = 1
					:: else
					fi;
					busy--;
					assert(quiescentOK);
					RESET
				}
			fi
		fi
	:: calls == OWNERCALLS -> break
	od
}

active [THIEVES] proctype thief()
{
	byte calls = 0;
	short t, h, task;
	bool chk;
	do
	:: d_step { calls < STEALS; calls++; h = H; busy++ };
		if
		:: d_step { h >= T; t = T; busy--; assert(quiescentOK); RESET }
		:: d_step { h < T; t = T };
			task = items[h];
			d_step {
				if
				:: h == H -> H = h + 1; assert(taken[task] == 0); taken[task] = 1
				:: else
				fi;
				busy--;
				assert(quiescentOK);
				RESET
			}
		fi
	:: calls == STEALS -> break
	od
}
