/*
 * The Chase-Lev work-stealing deque for the side-by-side benchmark: the
 * same model as chaselev.lip, in Promela (README.md). One shared-memory
 * access per statement; the d_steps add the same ghost bookkeeping to
 * the same accesses as the [ ] groups of chaselev.lip.
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

active proctype owner()
{
	byte calls = 0;
	short t, h, task;
	bool chk;
	do
	:: calls < OWNERCALLS ->
		calls++;
		if
		:: /* put */
			d_step { t = T; task = nextTask; nextTask++; busy++ };
			items[t] = task;
			d_step { T = t + 1; busy--; assert(quiescentOK) }
		:: /* take */
			d_step { t = T - 1; busy++ };
			T = t;
			h = H;
			if
			:: t < h ->
				d_step { T = h; busy--; assert(quiescentOK) };
				task = EMPTY
			:: else ->
				d_step {
					task = items[t];
					if
					:: t > h -> assert(taken[task] == 0); taken[task] = 1; busy--; assert(quiescentOK)
					:: else
					fi
				};
				if
				:: t > h -> skip
				:: else ->
					d_step {
						if
						:: h == H -> H = h + 1; chk = true
						:: else -> chk = false
						fi
					};
					if
					:: !chk -> task = EMPTY
					:: else
					fi;
					d_step {
						T = t + 1;
						if
						:: task != EMPTY -> assert(taken[task] == 0); taken[task] = 1
						:: else
						fi;
						busy--;
						assert(quiescentOK)
					}
				fi
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
	:: calls < STEALS ->
		calls++;
		d_step { h = H; busy++ };
		d_step {
			t = T;
			if
			:: h >= t -> busy--; assert(quiescentOK)
			:: else
			fi
		};
		if
		:: h >= t -> task = EMPTY
		:: else ->
			task = items[h];
			d_step {
				if
				:: h == H -> H = h + 1; chk = true; assert(taken[task] == 0); taken[task] = 1
				:: else -> chk = false
				fi;
				busy--;
				assert(quiescentOK)
			};
			if
			:: !chk -> task = EMPTY
			:: else
			fi
		fi
	:: calls == STEALS -> break
	od
}
