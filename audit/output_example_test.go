package audit_test

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/sitemapkit/sitemap/audit"
	"github.com/sitemapkit/sitemap/rules"
	"github.com/sitemapkit/sitemap/state"
)

// An Output prints the records of an audit; a clean record prints
// nothing in text.
func ExampleOutput() {
	out, err := audit.NewOutput(os.Stdout, "text", nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	out.Write(&audit.Record{URL: "https://www.example.com/old", Status: 301,
		Findings: []audit.Finding{{Rule: "AUD-02", Severity: rules.Error, Message: "redirects to https://www.example.com/new"}}})
	out.Write(&audit.Record{URL: "https://www.example.com/new", Status: 200, Findings: []audit.Finding{}})
	if err := out.Close(); err != nil {
		fmt.Println(err)
	}
	// Output:
	// https://www.example.com/old: error AUD-02: redirects to https://www.example.com/new
}

func ExampleNewOutput() {
	_, err := audit.NewOutput(os.Stdout, "csv", nil)
	fmt.Println(err)
	// Output:
	// --format "csv": want text or jsonl
}

func ExampleSummary_WriteText() {
	sum := audit.Summary{Start: "https://www.example.com/", Listed: 3, Sampled: 3, Checked: 3, Elapsed: 1200 * time.Millisecond}
	sum.WriteText(os.Stdout, audit.Tally{Records: 3, Rules: map[rules.ID]int{"AUD-02": 1}})
	// Output:
	// audited https://www.example.com/: 3 listed URLs, 3 audited; 3 checked in this run, in 1.2s
	//   AUD-02 error   redirect                           1
}

// StatePath is where an audit is kept when no state file is named: the
// same audit finds it again.
func ExampleStatePath() {
	os.Setenv(state.DirEnv, "/var/lib/sitemap")
	defer os.Unsetenv(state.DirEnv)
	p, err := audit.StatePath("", []string{"https://www.example.com/"})
	fmt.Println(filepath.Dir(p), filepath.Ext(p), err)
	q, _ := audit.StatePath("", []string{"https://www.example.com/"})
	fmt.Println(p == q)
	// Output:
	// /var/lib/sitemap/audit .db <nil>
	// true
}

// States lists the audits kept for resuming (run with --resume), and
// RemoveState forgets one.
func ExampleStates() {
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	os.Setenv(state.DirEnv, dir)
	defer os.Unsetenv(state.DirEnv)
	p, _ := audit.StatePath("", []string{"https://www.example.com/"})
	os.MkdirAll(filepath.Dir(p), 0o755)
	os.WriteFile(p, []byte("…"), 0o644)
	states, _ := audit.States()
	fmt.Println(len(states), states[0].Path == p)
	fmt.Println(audit.RemoveState(p))
	states, _ = audit.States()
	fmt.Println(len(states))
	fmt.Println(audit.RemoveState(p)) // nothing kept any more
	// Output:
	// 1 true
	// true <nil>
	// 0
	// false <nil>
}
