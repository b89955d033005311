package sitemap

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"strings"
	"testing"
)

// A document that reaches MaxErrors errors is abandoned with one LIM-05
// diagnostic after the last error, and Next returns ErrLimit; every
// error before it was reported, none after. Warnings do not count.
func TestDecodeMaxErrors(t *testing.T) {
	junk := strings.Repeat("\nx\n", 50) // a blank line (T-08 warning) and a junk line (T-02 error), 50 times
	for _, c := range []struct {
		name string
		in   string
	}{
		{"text", "https://e.com/a\n" + junk + "https://e.com/b\n"},
		{"xml", urlsetDoc("<url><loc>https://e.com/a</loc></url>" + strings.Repeat("<url><loc>/rel</loc></url>", 50) + "<url><loc>https://e.com/b</loc></url>")},
	} {
		r := decodeAll(t, []byte(c.in), DecoderOptions{Name: "j", MaxErrors: 7})
		var errs []string
		for _, d := range r.diags {
			if d.Severity == SeverityError {
				errs = append(errs, string(d.Rule))
			}
		}
		if !errors.Is(r.err, ErrLimit) || len(errs) != 8 || errs[7] != string(RuleMaxErrors) || r.diags[len(r.diags)-1].Rule != RuleMaxErrors {
			t.Fatalf("%s: err %v, errors %v\n%s", c.name, r.err, errs, r.dump())
		}
		var de *DecodeError
		if !errors.As(r.err, &de) || de.Diagnostic.Rule != RuleMaxErrors || !strings.Contains(de.Diagnostic.Message, "7 errors in this document; stopped reading it") {
			t.Errorf("%s: %v", c.name, r.err)
		}
		if len(r.items) != 1 || r.items[0].URL.Loc != "https://e.com/a" {
			t.Errorf("%s: items %+v", c.name, r.items)
		}
		// No cap: every line is reported and the document read to its end.
		r = decodeAll(t, []byte(c.in), DecoderOptions{Name: "j", MaxErrors: -1})
		if r.err != nil || len(r.items) != 2 || r.has(RuleMaxErrors) {
			t.Errorf("%s: MaxErrors -1: err %v, %d items\n%s", c.name, r.err, len(r.items), r.dump())
		}
	}
	// The default bound: a junk file of 200 MiB stops after
	// DefaultDecodeMaxErrors lines, not at its end.
	var n int
	dec := NewDecoder(strings.NewReader(strings.Repeat("x\n", DefaultDecodeMaxErrors+10)), DecoderOptions{OnDiagnostic: func(Diagnostic) { n++ }})
	if _, err := dec.Next(); !errors.Is(err, ErrLimit) || n != DefaultDecodeMaxErrors+1 {
		t.Errorf("default bound: err %v after %d diagnostics", err, n)
	}
}

// A done Context stops Next within a read, in the middle of a document
// that yields no entry; the error wraps the context's, and is not
// reported as a finding.
func TestDecodeContext(t *testing.T) {
	var member bytes.Buffer
	zw := gzip.NewWriter(&member)
	zw.Write(bytes.Repeat([]byte("x\n"), 1<<19))
	zw.Close()
	bomb := bytes.Repeat(member.Bytes(), 50) // 50 MiB of junk lines
	ctx, cancel := context.WithCancel(context.Background())
	var diags, reads int
	var dec *Decoder
	dec = NewDecoder(bytes.NewReader(bomb), DecoderOptions{Context: ctx, MaxErrors: -1, OnDiagnostic: func(d Diagnostic) {
		if d.Rule == RuleRead {
			t.Errorf("reported: %v", d)
		}
		if diags++; diags == 1000 {
			cancel()
			reads = int(dec.Bytes())
		}
	}})
	_, err := dec.Next()
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v", err)
	}
	var de *DecodeError
	if !errors.As(err, &de) {
		t.Errorf("not a *DecodeError: %T", err)
	}
	if read := dec.Bytes() - int64(reads); read > 1<<20 {
		t.Errorf("read %d bytes after the cancel", read)
	}
	if _, err2 := dec.Next(); err2 != err {
		t.Errorf("not sticky: %v", err2)
	}
	// Already done: nothing read at all.
	dec = NewDecoder(strings.NewReader("https://e.com/\n"), DecoderOptions{Context: ctx})
	if _, err := dec.Next(); !errors.Is(err, context.Canceled) {
		t.Errorf("done context: %v", err)
	}
}

// A run of blank lines in a text sitemap is one T-08 warning, so a file
// of nothing but blank lines is judged in one diagnostic, not one a line.
func TestDecodeBlankRun(t *testing.T) {
	r := decodeAll(t, []byte("https://e.com/a\n\n \n\t\nhttps://e.com/b\n\nhttps://e.com/c\n"+strings.Repeat("\n", 100000)), DecoderOptions{Name: "b"})
	if r.err != nil || len(r.items) != 3 || len(r.diags) != 3 {
		t.Fatalf("err %v items %d\n%s", r.err, len(r.items), r.dump())
	}
	for i, want := range []string{"b:2:1: warning T-08: 3 blank lines (to line 4)", "b:6:1: warning T-08: blank line;", "b:8:1: warning T-08: 100000 blank lines (to line 100007)"} {
		if !strings.HasPrefix(r.diags[i].String(), want) {
			t.Errorf("diagnostic %d: %s, want %s…", i, r.diags[i], want)
		}
	}
}
