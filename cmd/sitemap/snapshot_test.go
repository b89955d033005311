package main

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// snapshot maps every entry of dir (hidden ones included) to its bytes, so
// a test can tell that a generate run published nothing or left the
// previous files byte for byte.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]string{}
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		m[e.Name()] = string(b)
	}
	return m
}

// equalSnapshots reports whether a and b hold the same names and bytes.
func equalSnapshots(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// snapshotNames lists the names of a snapshot, sorted, for messages.
func snapshotNames(m map[string]string) []string {
	var k []string
	for n := range m {
		k = append(k, n)
	}
	slices.Sort(k)
	return k
}
