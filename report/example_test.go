package report_test

import (
	"fmt"
	"os"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/report"
)

// A document with three diagnostics of one rule, at most two shown: the
// third is counted in the note at the end of the document.
func ExampleReporter() {
	r, err := report.New(os.Stdout, "text", 2)
	if err != nil {
		fmt.Println(err)
		return
	}
	doc := r.Document("sitemap.xml")
	for line := 3; line <= 5; line++ {
		doc.Report(sitemap.Diagnostic{Rule: "L-01", Severity: sitemap.SeverityError, Message: "loc is not an absolute URL", File: "sitemap.xml", Line: line, Col: 5})
	}
	doc.End()
	if err := r.Close(); err != nil {
		fmt.Println(err)
	}
	fmt.Println(r.Errors, "errors;", r.Hint())
	// Output:
	// sitemap.xml:3:5: error L-01: loc is not an absolute URL
	// sitemap.xml:4:5: error L-01: loc is not an absolute URL
	// sitemap.xml: note L-01: and 1 more L-01 diagnostics in this document (use --max-per-rule 0 to see all)
	// 3 errors; what a rule requires and how to fix it: sitemap explain L-01
}

// The json format is one array, empty when there is nothing to say.
func ExampleWriter() {
	w, _ := report.NewWriter(os.Stdout, "json")
	w.Write(sitemap.Diagnostic{Rule: "X-06", Severity: sitemap.SeverityWarning, Message: "<lastmod> before <loc>", URL: "https://www.example.com/sitemap.xml"})
	if err := w.Close(); err != nil {
		fmt.Println(err)
	}
	// Output:
	// [
	// {"rule":"X-06","severity":"warning","message":"<lastmod> before <loc>","url":"https://www.example.com/sitemap.xml"}
	// ]
}

// A cap keyed by rule: what passes it is printed, the rest counted.
func ExampleCap() {
	c := report.NewCap(1)
	for _, rule := range []string{"L-01", "L-01", "M-07", "L-01"} {
		if c.Show(rule) {
			fmt.Println("shown", rule)
		}
	}
	fmt.Println(c.Held(), c.HeldTotal(), c.Count("L-01"), c.Shown("L-01"))
	// Output:
	// shown L-01
	// shown M-07
	// [{L-01 2}] 2 3 1
}

func ExampleNote() {
	fmt.Println(report.Note("sitemap.xml", "X-06", 40))
	// Output:
	// sitemap.xml: note X-06: and 40 more X-06 diagnostics in this document (use --max-per-rule 0 to see all)
}

func ExampleTally() {
	var t report.Tally
	t.Add(sitemap.Diagnostic{Rule: "M-07", Severity: sitemap.SeverityWarning})
	t.Add(sitemap.Diagnostic{Rule: "L-01", Severity: sitemap.SeverityError})
	t.Add(sitemap.Diagnostic{Rule: "M-07", Severity: sitemap.SeverityWarning})
	fmt.Println(t.Errors, t.Warnings, t.Hint())
	// Output:
	// 1 2 what a rule requires and how to fix it: sitemap explain M-07 L-01
}

func ExampleNewCap() {
	var c *report.Cap = report.NewCap(0) // no cap: everything shown
	fmt.Println(c.Show("L-01"), c.Held())
	// Output:
	// true []
}

func ExampleNew() {
	_, err := report.New(os.Stdout, "xml", 20)
	fmt.Println(err)
	// Output:
	// --format "xml": want text, json or jsonl
}

func ExampleNewWriter() {
	w, _ := report.NewWriter(os.Stdout, "jsonl")
	w.Write(sitemap.Diagnostic{Rule: "L-01", Severity: sitemap.SeverityError, Message: "not absolute", File: "a.xml", Line: 2})
	w.Write(sitemap.Diagnostic{Rule: "L-01", Severity: sitemap.SeverityError, Message: "not absolute", File: "a.xml", Line: 3})
	fmt.Println(w.Close())
	// Output:
	// {"rule":"L-01","severity":"error","message":"not absolute","file":"a.xml","line":2}
	// {"rule":"L-01","severity":"error","message":"not absolute","file":"a.xml","line":3}
	// <nil>
}

// A Printer writes each diagnostic as it comes and counts them; Quiet
// keeps only the errors.
func ExamplePrinter() {
	p := report.NewPrinter(os.Stdout, true)
	p.Print(sitemap.Diagnostic{Rule: "L-01", Severity: sitemap.SeverityError, Message: "loc is not an absolute URL", File: "a.xml", Line: 3})
	p.Print(sitemap.Diagnostic{Rule: "M-07", Severity: sitemap.SeverityWarning, Message: "lastmod in the future", File: "a.xml", Line: 4})
	fmt.Println(p.Errors, "error,", p.Warnings, "warnings")
	// Output:
	// a.xml:3: error L-01: loc is not an absolute URL
	// 1 error, 0 warnings
}
