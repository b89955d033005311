package main

import (
	"context"
	"strings"
	"testing"
)

// The start-up line counts one page as "1 page".
func TestServeStartLineOnePage(t *testing.T) {
	db := pagesDB(t, 3)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, errb, code := startServe(t, ctx, "--db", db, "--table", "pages", "--columns", "loc=url,lastmod=updated_at", "--base-url", "https://www.example.com/", "--no-cache")
	cancel()
	<-code
	if log := errb.String(); !strings.Contains(log, "(1 page built in ") {
		t.Errorf("start-up line:\n%s", log)
	}
}
