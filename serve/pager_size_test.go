package serve

import "testing"

// The default page size: DefaultPerPage up to 20,000 pages' worth, then
// the multiple of 1,000 that keeps the index within 20,000 pages, and
// never more than 50,000 entries a page.
func TestPerPageFor(t *testing.T) {
	for _, c := range []struct{ n, want int }{
		{0, 1000}, {1, 1000}, {20_000_000, 1000}, {20_000_001, 2000}, {40_000_000, 2000},
		{100_000_000, 5000}, {100_000_001, 6000}, {1_000_000_000, 50000}, {5_000_000_000, 50000},
	} {
		if got := perPageFor(c.n, autoMaxPages); got != c.want {
			t.Errorf("perPageFor(%d) = %d, want %d", c.n, got, c.want)
		}
		if got := perPageFor(c.n, autoMaxPages); c.n <= 1_000_000_000 && (c.n+got-1)/got > autoMaxPages {
			t.Errorf("perPageFor(%d) = %d makes %d pages", c.n, got, (c.n+got-1)/got)
		}
	}
}

// A source too large for DefaultPerPage within the page budget is built
// again at once with larger pages, which then stay.
func TestPerPageGrows(t *testing.T) {
	src, _ := sqliteBackend.open(t, testRows(5000))
	h, err := NewHandler(src, Options{BaseURL: "https://www.example.com/"})
	if err != nil {
		t.Fatal(err)
	}
	h.autoMaxPages = 3
	names, byName := pages(t, h)
	if len(names) != 3 || h.perPage() != 2000 {
		t.Fatalf("%d pages of %d entries, want 3 of 2,000", len(names), h.perPage())
	}
	n := 0
	for _, l := range byName {
		n += len(l)
	}
	if n != 5000 {
		t.Errorf("the pages list %d entries of 5,000", n)
	}
}
