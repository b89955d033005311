package serve

import (
	"context"
	"sync/atomic"
	"testing"
	"time"
)

// Run checks a source every Recheck, not every other one: a check due
// just after a tick was skipped until the next (the pages were trusted
// for Recheck from the check's start, and the next tick came a little
// less than Recheck after it), so a change waited up to twice Recheck.
func TestRunChecksEveryRecheck(t *testing.T) {
	var calls atomic.Int64
	src := Seq(seqOf("https://www.example.com/a"), func(context.Context) (string, error) {
		calls.Add(1)
		return "v", nil
	})
	const recheck = 200 * time.Millisecond
	h, err := NewHandler(src, Options{BaseURL: "https://www.example.com/", Recheck: recheck})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if err := h.Refresh(t.Context()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() { h.Run(ctx); close(done) }()
	began := calls.Load()
	const span = 20 * recheck
	time.Sleep(span)
	cancel()
	<-done
	// 20 checks are due; allow for a slow machine (a check, and the
	// scheduler's wake-up, late by tens of milliseconds each time under
	// -race and load), not for the third of them that were skipped.
	if n := calls.Load() - began; n < 16 {
		t.Errorf("%d checks in %v with Recheck %v, want about %d", n, span, recheck, span/recheck)
	}
}
