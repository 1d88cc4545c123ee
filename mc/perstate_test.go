package mc

import (
	"encoding/binary"
	"testing"
)

// TestVarintFastPaths checks the one-byte paths of appendInt,
// appendUint, readInt and readUint against encoding/binary, around the
// one-byte bounds and at the extremes.
func TestVarintFastPaths(t *testing.T) {
	var vals []int64
	for v := int64(-300); v <= 300; v++ {
		vals = append(vals, v, v<<40, -v<<50)
	}
	vals = append(vals, -1<<63, 1<<63-1)
	for _, w := range vals {
		a, b := appendInt(nil, w), binary.AppendVarint(nil, w)
		pos := 0
		if string(a) != string(b) {
			t.Fatalf("appendInt(%d) = %x, want %x", w, a, b)
		}
		if r := readInt(a, &pos); r != w || pos != len(a) {
			t.Fatalf("readInt of %d: %d at %d", w, r, pos)
		}
		u := uint64(w)
		a, b = appendUint(nil, u), binary.AppendUvarint(nil, u)
		pos = 0
		if string(a) != string(b) {
			t.Fatalf("appendUint(%d) = %x, want %x", u, a, b)
		}
		if r := readUint(a, &pos); r != u || pos != len(a) {
			t.Fatalf("readUint of %d: %d at %d", u, r, pos)
		}
	}
}

// TestRecentEnc checks the cache of recent encodings: a kept encoding
// gives its key back; another encoding at the same place, a prefix, or
// one too long to keep does not.
func TestRecentEnc(t *testing.T) {
	var r recentEnc
	if _, ok := r.keyOf([]byte{1, 2, 3}, 5); ok {
		t.Fatal("an empty cache holds a key")
	}
	r.keep([]byte{1, 2, 3}, 5, 42)
	if k, ok := r.keyOf([]byte{1, 2, 3}, 5); !ok || k != 42 {
		t.Fatalf("kept key: %d %v", k, ok)
	}
	for _, b := range [][]byte{{1, 2, 4}, {1, 2}, {1, 2, 3, 0}} {
		if _, ok := r.keyOf(b, 5); ok {
			t.Fatalf("%v: a key for an encoding not kept", b)
		}
	}
	r.keep([]byte{7, 8, 9}, 5+recentEncs, 43) // same place: replaces
	if _, ok := r.keyOf([]byte{1, 2, 3}, 5); ok {
		t.Fatal("a replaced encoding still has its key")
	}
	long := make([]byte, recentEncLen+1)
	r.keep(long, 6, 44)
	if _, ok := r.keyOf(long, 6); ok {
		t.Fatal("an encoding too long to keep has a key")
	}
}

// TestStateLimitSameCounts stops searches at the state limit with the
// compressed set, whose sequential search defers adding successors to
// its root set (roots.go), and with the plain one, and requires the same
// counts: the deferred successors are added before the limit is read.
func TestStateLimitSameCounts(t *testing.T) {
	prog := corpus(t)["testdata/chaselev-plain.lip"]
	if prog == nil {
		t.Fatal("testdata/chaselev-plain.lip is missing")
	}
	for _, limit := range []int{1, 2, 7, 100, 1001, 4000} {
		var digests [2]string
		for i, plain := range []bool{true, false} {
			res, err := Run(prog, Options{Instance: "small", MaxStates: limit, NoCompress: plain})
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != Incomplete {
				t.Fatalf("limit %d: status %d, want incomplete", limit, res.Status)
			}
			digests[i] = resultDigest(res)
		}
		if digests[0] != digests[1] {
			t.Fatalf("limit %d: plain\n%s\ncompressed\n%s", limit, digests[0], digests[1])
		}
	}
}
