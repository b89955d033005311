package diff

import (
	"bytes"
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The sorter gives back every record whole, stably sorted by loc, with
// its source: sources numbered and, past the table (maxSources), kept
// in the record; locs and data with any bytes, the varint bytes
// included, and of lengths across the uvarints' byte boundaries.
func TestSorterRecords(t *testing.T) {
	rng := rand.New(rand.NewPCG(26, 1))
	s := newSorter(t.TempDir(), 64<<10, 4)
	var want []record
	for i := range 2 * maxSources {
		loc := "https://e.com/" + strconv.Itoa(rng.IntN(5000))
		if i%500 == 0 {
			loc += strings.Repeat("\x80\x7f\x00", 50+rng.IntN(100)) // 128+ bytes: two-byte lengths
		}
		data := []byte(strconv.Itoa(i))
		if i%700 == 0 {
			data = bytes.Repeat([]byte{0x81, 0}, 100+rng.IntN(20000))
		}
		src := "sitemap-" + strconv.Itoa(i) + ".xml" // a new source, but for every third record
		if i%3 == 0 {
			src = "sitemap-0.xml"
		}
		if i%1000 == 7 {
			src = ""
		}
		want = append(want, record{loc: loc, data: data, src: src})
		if err := s.add(want[i]); err != nil {
			t.Fatal(err)
		}
	}
	if len(s.srcs) != maxSources {
		t.Fatalf("%d sources numbered, want %d", len(s.srcs), maxSources)
	}
	slices.SortStableFunc(want, func(a, b record) int { return strings.Compare(a.loc, b.loc) })
	st, err := s.finish(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer st.close()
	for i := range want {
		got, err := st.next()
		if err != nil {
			t.Fatalf("record %d: %v", i, err)
		}
		if got.loc != want[i].loc || !bytes.Equal(got.data, want[i].data) || got.src != want[i].src {
			t.Fatalf("record %d: %q %q %q, want %q %q %q", i, got.loc, got.data, got.src, want[i].loc, want[i].data, want[i].src)
		}
	}
	if _, err := st.next(); err != io.EOF {
		t.Fatalf("after the last record: %v, want io.EOF", err)
	}
}

// A record that does not read back as written is an error, never a
// panic or a wrong entry.
func TestSorterCorrupt(t *testing.T) {
	s := newSorter(t.TempDir(), 1<<20, 4)
	for _, b := range [][]byte{
		nil,
		{0x80},                           // a length that does not end
		{5},                              // a loc longer than the record
		append([]byte("ab"), 0, 9, 2),    // data longer than the record
		append([]byte("ab"), 7, 0, 2),    // source 7 of none
		append([]byte("ab"), 1, 1, 0, 2), // a numbered source with bytes after it
	} {
		st := &sorted{s: s}
		if _, err := st.decode(b); !errors.Is(err, errCorruptRun) {
			t.Errorf("%q: %v, want errCorruptRun", b, err)
		}
	}
	s.srcs = append(s.srcs, "x.xml")
	st := &sorted{s: s}
	r, err := st.decode(append([]byte("ab"), 1, 0, 2))
	if err != nil || r.loc != "ab" || len(r.data) != 0 || r.src != "x.xml" {
		t.Fatalf("%+v, %v", r, err)
	}
}
