package vccache

import (
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"time"
)

// Key identifies a proven verification condition.
type Key [32]byte

// MaxEntries bounds the number of entries a directory keeps; pruning
// removes the oldest half when it is exceeded.
const MaxEntries = 200_000

// pruneEvery is how often, at most, a run counts the entries.
const pruneEvery = time.Hour

// Dir is a cache directory.
type Dir struct {
	root string
}

// Default returns the user's cache directory for lipton:
// $XDG_CACHE_HOME/lipton, or the platform's equivalent
// (os.UserCacheDir).
func Default() (string, error) {
	base, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(base, "lipton"), nil
}

// Open returns the cache in root, creating the directory if needed.
func Open(root string) (*Dir, error) {
	if err := os.MkdirAll(root, 0o755); err != nil {
		return nil, err
	}
	return &Dir{root: root}, nil
}

// Root returns the directory.
func (d *Dir) Root() string { return d.root }

func (d *Dir) path(k Key) string {
	h := hex.EncodeToString(k[:])
	return filepath.Join(d.root, h[:2], h[2:])
}

// Has reports whether k was stored, and refreshes the entry's time so
// that pruning keeps entries in use.
func (d *Dir) Has(k Key) bool {
	p := d.path(k)
	if _, err := os.Stat(p); err != nil {
		return false
	}
	now := time.Now()
	_ = os.Chtimes(p, now, now) // best effort: only pruning order depends on it
	return true
}

// Put stores k. An entry is an empty file, so creating it is atomic:
// a concurrent run sees it or not, never half of it. A failure to write
// is returned, but the cache is only an optimization: callers may
// ignore it.
func (d *Dir) Put(k Key) error {
	p := d.path(k)
	f, err := os.OpenFile(p, os.O_CREATE|os.O_WRONLY, 0o644)
	if errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		f, err = os.OpenFile(p, os.O_CREATE|os.O_WRONLY, 0o644)
	}
	if err != nil {
		return err
	}
	return f.Close()
}

// PruneIfDue prunes the directory to at most max entries (removing the
// oldest until half of max remain) if it was not counted in the last
// hour, and reports how many entries it removed.
func (d *Dir) PruneIfDue(max int) (int, error) {
	stamp := filepath.Join(d.root, ".pruned")
	if st, err := os.Stat(stamp); err == nil && time.Since(st.ModTime()) < pruneEvery {
		return 0, nil
	}
	if f, err := os.Create(stamp); err == nil {
		f.Close()
	}
	return d.Prune(max)
}

// Prune removes the oldest entries until at most max/2 remain, if there
// are more than max.
func (d *Dir) Prune(max int) (int, error) {
	type entry struct {
		path string
		mod  time.Time
	}
	var entries []entry
	err := filepath.WalkDir(d.root, func(p string, de fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil // removed by a concurrent prune
			}
			return err
		}
		if de.IsDir() || filepath.Base(filepath.Dir(p)) == filepath.Base(d.root) {
			return nil // directories, and the stamp at the top
		}
		if info, err := de.Info(); err == nil {
			entries = append(entries, entry{p, info.ModTime()})
		}
		return nil
	})
	if err != nil || len(entries) <= max {
		return 0, err
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].mod.Before(entries[j].mod) })
	removed := 0
	for _, e := range entries[:len(entries)-max/2] {
		if os.Remove(e.path) == nil {
			removed++
		}
	}
	return removed, nil
}
