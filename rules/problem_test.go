package rules

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// TestProblemForms checks the three printed forms of a Problem (Error,
// String and JSON) on the shapes the packages build: a diagnostic, an
// entry refused by the encoder, a source's error, a check's problem.
func TestProblemForms(t *testing.T) {
	for _, c := range []struct {
		name       string
		p          Problem
		err, str   string
		jsonString string
	}{{
		name:       "diagnostic",
		p:          Problem{Rule: X06, Severity: Error, Message: "<loc> out of order", File: "s.xml", Line: 120, Col: 7},
		err:        "s.xml:120:7: <loc> out of order (X-06)",
		str:        "s.xml:120:7: error X-06: <loc> out of order",
		jsonString: `{"rule":"X-06","severity":"error","message":"<loc> out of order","file":"s.xml","line":120,"col":7}`,
	}, {
		name:       "entry refused",
		p:          Problem{Rule: L01, Field: "loc", Value: "/x", Message: "is not an absolute URL", Fix: "write https://…"},
		err:        `loc "/x" is not an absolute URL; write https://… (L-01)`,
		str:        `error L-01: loc "/x" is not an absolute URL; write https://…`,
		jsonString: `{"rule":"L-01","severity":"error","message":"loc \"/x\" is not an absolute URL; write https://…"}`,
	}, {
		name:       "source warning at a URL, rule cited",
		p:          Problem{Rule: L18, Severity: Info, URL: "https://e.com/a", Message: "written as … (case; L-18)"},
		err:        "https://e.com/a: written as … (case; L-18)",
		str:        "https://e.com/a: info L-18: written as … (case; L-18)",
		jsonString: `{"rule":"L-18","severity":"info","message":"written as … (case; L-18)","url":"https://e.com/a"}`,
	}, {
		name:       "line without a name, control characters",
		p:          Problem{Rule: L07, Severity: Warning, Line: 3, Message: "a\nb"},
		err:        "3: a\nb (L-07)",
		str:        `3: warning L-07: a\nb`,
		jsonString: `{"rule":"L-07","severity":"warning","message":"a\nb","line":3}`,
	}} {
		t.Run(c.name, func(t *testing.T) {
			if got := c.p.Error(); got != c.err {
				t.Errorf("Error() = %q, want %q", got, c.err)
			}
			if got := c.p.String(); got != c.str {
				t.Errorf("String() = %q, want %q", got, c.str)
			}
			var b bytes.Buffer
			enc := json.NewEncoder(&b)
			enc.SetEscapeHTML(false)
			if err := enc.Encode(c.p); err != nil {
				t.Fatal(err)
			}
			if got := strings.TrimSpace(b.String()); got != c.jsonString {
				t.Errorf("JSON %s, want %s", got, c.jsonString)
			}
			var back Problem
			if err := json.Unmarshal(b.Bytes(), &back); err != nil || back.Rule != c.p.Rule || back.Severity != c.p.Severity || back.Message != c.p.Text() {
				t.Errorf("JSON read back as %+v, %v", back, err)
			}
		})
	}
	// json.Marshal escapes HTML as it always does.
	if b, _ := json.Marshal(Problem{Rule: X06, Message: "<loc>"}); !strings.Contains(string(b), `\u003cloc\u003e`) {
		t.Errorf("json.Marshal: %s", b)
	}
	long := Problem{Rule: L06, Field: "loc", Value: strings.Repeat("ü", 200), Message: "is long"}
	if s := long.Error(); len(s) > 160 || !strings.Contains(s, "…") {
		t.Errorf("long value not shortened: %d bytes", len(s))
	}
	var nilp *Problem
	if !nilp.OK() || nilp.Text() != "" || (&Problem{}).OK() {
		t.Error("OK or Text of a nil problem")
	}
}

// TestSeverityFromTheBook: a problem made from an ID has the book's
// severity; WithSeverity overrides it on a copy.
func TestSeverityFromTheBook(t *testing.T) {
	for _, id := range []ID{X06, X09, X05, FetchCap} {
		r, _ := Lookup(id)
		p := id.Problem("m")
		if p.Severity != r.Severity || id.Severity() != r.Severity || p.Rule != id || p.Message != "m" {
			t.Errorf("%s: %+v, book says %s", id, p, r.Severity)
		}
		if q := p.WithSeverity(Info); q.Severity != Info || p.Severity != r.Severity {
			t.Errorf("%s: WithSeverity changed the original or did not apply", id)
		}
	}
	if ID("NOPE-01").Severity() != Error {
		t.Error("an unknown ID is not an error")
	}
	for _, s := range []Severity{Error, Warning, Info} {
		var back Severity
		if b, err := s.MarshalText(); err != nil || back.UnmarshalText(b) != nil || back != s {
			t.Errorf("%v does not round-trip", s)
		}
	}
	if err := new(Severity).UnmarshalText([]byte("fatal")); err == nil {
		t.Error("fatal read as a severity")
	}
}

// A report of a rule with the book's severity, and the same problem as
// the error a bad value returns.
func ExampleID_Problem() {
	p := L01.Problem("is not an absolute URL")
	p.Field, p.Value, p.File, p.Line = "loc", "/x", "urls.txt", 3
	fmt.Println(p.String())
	fmt.Println(p.Error())
	// Output:
	// urls.txt:3: error L-01: loc "/x" is not an absolute URL
	// urls.txt:3: loc "/x" is not an absolute URL (L-01)
}
