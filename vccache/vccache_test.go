package vccache

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

func key(s string) Key { return sha256.Sum256([]byte(s)) }

// TestPutHas checks that a stored key is found, in a new handle on the
// same directory too, and that another key is not.
func TestPutHas(t *testing.T) {
	root := filepath.Join(t.TempDir(), "lipton")
	d, err := Open(root)
	if err != nil {
		t.Fatal(err)
	}
	if d.Has(key("a")) {
		t.Fatal("an empty cache has a")
	}
	if err := d.Put(key("a")); err != nil {
		t.Fatal(err)
	}
	again, _ := Open(root)
	if !again.Has(key("a")) || again.Has(key("b")) {
		t.Error("after Put(a): want a and not b")
	}
}

// TestConcurrentPut stores the same and different keys from many
// goroutines: every key ends up stored, and no temporary file is left.
func TestConcurrentPut(t *testing.T) {
	d, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				if err := d.Put(key(fmt.Sprint(i % 10))); err != nil {
					t.Error(err)
				}
			}
		}(g)
	}
	wg.Wait()
	for i := 0; i < 10; i++ {
		if !d.Has(key(fmt.Sprint(i))) {
			t.Errorf("key %d missing", i)
		}
	}
	tmps, _ := filepath.Glob(filepath.Join(d.Root(), "*", ".tmp-*"))
	if len(tmps) > 0 {
		t.Errorf("temporary files left: %v", tmps)
	}
}

// TestPrune keeps the newest entries when there are too many.
func TestPrune(t *testing.T) {
	d, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	for i := 0; i < 10; i++ {
		k := key(fmt.Sprint(i))
		if err := d.Put(k); err != nil {
			t.Fatal(err)
		}
		when := old.Add(time.Duration(i) * time.Minute)
		if err := os.Chtimes(d.path(k), when, when); err != nil {
			t.Fatal(err)
		}
	}
	removed, err := d.Prune(8)
	if err != nil || removed != 6 {
		t.Fatalf("removed %d (%v), want 6 of 10 to keep 4", removed, err)
	}
	for i := 0; i < 10; i++ {
		if got, want := d.Has(key(fmt.Sprint(i))), i >= 6; got != want {
			t.Errorf("entry %d kept: %v, want %v", i, got, want)
		}
	}
	if removed, _ := d.Prune(8); removed != 0 {
		t.Errorf("a second prune removed %d", removed)
	}
}
