package robots

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// This file runs Google's robots.txt conformance cases
// (testdata/robotstxt-spec-test, see PROVENANCE.md) through File.Allowed.
// The cases are textproto files of specification.proto; tpParse below is a
// small parser for the subset of the text format they use: fields
// "name: value", repeated messages in [ {…}, {…} ], adjacent string
// literals concatenated, C escapes (\n, \r, \xHH, \", octal), '#' comments.

type tpValue struct {
	str string
	msg *tpMsg
	lst []tpValue
}

type tpMsg struct {
	fields map[string][]tpValue
}

func (m *tpMsg) get(name string) string {
	if v := m.fields[name]; len(v) > 0 {
		return v[0].str
	}
	return ""
}

func (m *tpMsg) msgs(name string) []*tpMsg {
	var out []*tpMsg
	for _, v := range m.fields[name] {
		if v.msg != nil {
			out = append(out, v.msg)
		}
		for _, e := range v.lst {
			if e.msg != nil {
				out = append(out, e.msg)
			}
		}
	}
	return out
}

type tpToken struct {
	kind byte // 'i' identifier, 's' string, or the punctuation byte itself
	text string
}

func tpLex(src string) ([]tpToken, error) {
	var toks []tpToken
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '#':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case strings.IndexByte(":[]{},", c) >= 0:
			toks = append(toks, tpToken{kind: c})
			i++
		case c == '"' || c == '\'':
			s, n, err := tpString(src[i:])
			if err != nil {
				return nil, err
			}
			// Adjacent literals are one value.
			if len(toks) > 0 && toks[len(toks)-1].kind == 's' {
				toks[len(toks)-1].text += s
			} else {
				toks = append(toks, tpToken{kind: 's', text: s})
			}
			i += n
		default:
			j := i
			for j < len(src) && (src[j] == '_' || src[j] == '.' || src[j] == '-' ||
				('a' <= src[j] && src[j] <= 'z') || ('A' <= src[j] && src[j] <= 'Z') || ('0' <= src[j] && src[j] <= '9')) {
				j++
			}
			if j == i {
				return nil, fmt.Errorf("unexpected byte %q at %d", c, i)
			}
			toks = append(toks, tpToken{kind: 'i', text: src[i:j]})
			i = j
		}
	}
	return toks, nil
}

// tpString decodes the quoted literal at the start of s and returns it and
// the number of bytes consumed.
func tpString(s string) (string, int, error) {
	q := s[0]
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		c := s[i]
		if c == q {
			return b.String(), i + 1, nil
		}
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		i++
		if i >= len(s) {
			break
		}
		switch e := s[i]; e {
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case '"', '\'', '\\', '?':
			b.WriteByte(e)
		case 'x', 'X':
			j := i + 1
			for j < len(s) && j < i+3 && isHex(s[j]) {
				j++
			}
			v, err := strconv.ParseUint(s[i+1:j], 16, 8)
			if err != nil {
				return "", 0, fmt.Errorf("bad \\x escape: %v", err)
			}
			b.WriteByte(byte(v))
			i = j - 1
		default:
			if '0' <= e && e <= '7' {
				j := i
				for j < len(s) && j < i+3 && '0' <= s[j] && s[j] <= '7' {
					j++
				}
				v, _ := strconv.ParseUint(s[i:j], 8, 8)
				b.WriteByte(byte(v))
				i = j - 1
				continue
			}
			return "", 0, fmt.Errorf("unknown escape \\%c", e)
		}
	}
	return "", 0, fmt.Errorf("unterminated string")
}

type tpParser struct {
	toks []tpToken
	pos  int
}

func (p *tpParser) peek() byte {
	if p.pos < len(p.toks) {
		return p.toks[p.pos].kind
	}
	return 0
}

func (p *tpParser) fields(end byte) (*tpMsg, error) {
	m := &tpMsg{fields: map[string][]tpValue{}}
	for {
		k := p.peek()
		if k == end {
			p.pos++
			return m, nil
		}
		if k == ',' {
			p.pos++
			continue
		}
		if k != 'i' {
			return nil, fmt.Errorf("token %d: want field name, got %q", p.pos, k)
		}
		name := p.toks[p.pos].text
		p.pos++
		if p.peek() == ':' {
			p.pos++
		}
		v, err := p.value()
		if err != nil {
			return nil, fmt.Errorf("field %s: %w", name, err)
		}
		m.fields[name] = append(m.fields[name], v)
	}
}

func (p *tpParser) value() (tpValue, error) {
	switch k := p.peek(); k {
	case 's', 'i':
		p.pos++
		return tpValue{str: p.toks[p.pos-1].text}, nil
	case '{':
		p.pos++
		m, err := p.fields('}')
		return tpValue{msg: m}, err
	case '[':
		p.pos++
		var list []tpValue
		for {
			switch p.peek() {
			case ']':
				p.pos++
				return tpValue{lst: list}, nil
			case ',':
				p.pos++
				continue
			case 0:
				return tpValue{}, fmt.Errorf("unterminated list")
			}
			v, err := p.value()
			if err != nil {
				return tpValue{}, err
			}
			list = append(list, v)
		}
	default:
		return tpValue{}, fmt.Errorf("token %d: unexpected %q", p.pos, k)
	}
}

func tpParse(src string) (*tpMsg, error) {
	toks, err := tpLex(src)
	if err != nil {
		return nil, err
	}
	p := &tpParser{toks: toks}
	return p.fields(0)
}

func TestTextprotoParser(t *testing.T) {
	m, err := tpParse(`# c
tests: [ { robotstxt: "a\xEF\x41" 'b\n' test_expectations: [ { testurl: "u" expected_outcome: ALLOWED } ] } ]`)
	if err != nil {
		t.Fatal(err)
	}
	tests := m.msgs("tests")
	if len(tests) != 1 || tests[0].get("robotstxt") != "a\xEFAb\n" {
		t.Fatalf("got %+v", tests)
	}
	ex := tests[0].msgs("test_expectations")
	if len(ex) != 1 || ex[0].get("testurl") != "u" || ex[0].get("expected_outcome") != "ALLOWED" {
		t.Fatalf("expectations %+v", ex)
	}
	if _, err := tpParse(`tests: [ { robotstxt: "unterminated } ]`); err == nil {
		t.Fatal("unterminated string accepted")
	}
}

// TestGoogleConformance runs every case of Google's robotstxt-spec-test
// correctness suite (RFC 9309 matching with Google's semantics, RB-10).
func TestGoogleConformance(t *testing.T) {
	files, err := filepath.Glob("testdata/robotstxt-spec-test/*.textproto")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 16 {
		t.Fatalf("found %d textproto files, want 16", len(files))
	}
	total := 0
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		m, err := tpParse(string(src))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		tests := m.msgs("tests")
		if len(tests) == 0 {
			t.Fatalf("%s: no tests", name)
		}
		for ti, tc := range tests {
			body := tc.get("robotstxt")
			f := ParseBytes([]byte(body))
			exps := tc.msgs("test_expectations")
			if len(exps) == 0 {
				t.Fatalf("%s: test %d has no expectations", name, ti)
			}
			for _, e := range exps {
				total++
				want := e.get("expected_outcome")
				if want != "ALLOWED" && want != "DISALLOWED" {
					t.Fatalf("%s: test %d: outcome %q", name, ti, want)
				}
				ua, u := e.get("useragent"), e.get("testurl")
				got := f.Allowed(ua, u)
				if got != (want == "ALLOWED") {
					t.Errorf("%s: test %d: Allowed(%q, %q) = %v, want %s\nrobots.txt:\n%s",
						filepath.Base(name), ti, ua, u, got, want, body)
				}
				// The merged Group gives the same verdict as File.Allowed.
				g := f.Group(ua)
				if g.Allowed(u) != got {
					t.Errorf("%s: test %d: Group(%q).Allowed(%q) = %v, File.Allowed = %v",
						filepath.Base(name), ti, ua, u, g.Allowed(u), got)
				}
			}
		}
	}
	if total < 100 {
		t.Errorf("only %d expectations checked", total)
	}
	t.Logf("%d expectations checked", total)
}
