package mc

import (
	"encoding/binary"
	"testing"
)

func TestVarintFastPaths(t *testing.T) {
	for v := int64(-300); v <= 300; v++ {
		for _, w := range []int64{v, v << 40, -v << 50} {
			a, b := appendInt(nil, w), binary.AppendVarint(nil, w)
			if string(a) != string(b) {
				t.Fatalf("%d: %x %x", w, a, b)
			}
			pos := 0
			if r := readInt(a, &pos); r != w || pos != len(a) {
				t.Fatalf("read %d: %d", w, r)
			}
			u := uint64(w)
			a, b = appendUint(nil, u), binary.AppendUvarint(nil, u)
			pos = 0
			if string(a) != string(b) || readUint(a, &pos) != u || pos != len(a) {
				t.Fatalf("u %d", u)
			}
		}
	}
	for _, w := range []int64{-1 << 63, 1<<63 - 1, -65, 64, -64, 63} {
		a, b := appendInt(nil, w), binary.AppendVarint(nil, w)
		pos := 0
		if string(a) != string(b) || readInt(a, &pos) != w {
			t.Fatalf("%d", w)
		}
	}
}
