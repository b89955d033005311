package sitemap

import (
	"bytes"
	"fmt"
	"go/format"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/htmlindex"
	"golang.org/x/text/encoding/ianaindex"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/korean"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/traditionalchinese"
	"golang.org/x/text/encoding/unicode"
)

// charsetExprs names every encoding x/text's indexes can return, as the Go
// expression the generated table uses.
var charsetExprs = []struct {
	expr string
	enc  encoding.Encoding
}{
	{"charmap.CodePage037", charmap.CodePage037}, {"charmap.CodePage1047", charmap.CodePage1047},
	{"charmap.CodePage1140", charmap.CodePage1140}, {"charmap.CodePage437", charmap.CodePage437},
	{"charmap.CodePage850", charmap.CodePage850}, {"charmap.CodePage852", charmap.CodePage852},
	{"charmap.CodePage855", charmap.CodePage855}, {"charmap.CodePage858", charmap.CodePage858},
	{"charmap.CodePage860", charmap.CodePage860}, {"charmap.CodePage862", charmap.CodePage862},
	{"charmap.CodePage863", charmap.CodePage863}, {"charmap.CodePage865", charmap.CodePage865},
	{"charmap.CodePage866", charmap.CodePage866}, {"charmap.ISO8859_1", charmap.ISO8859_1},
	{"charmap.ISO8859_2", charmap.ISO8859_2}, {"charmap.ISO8859_3", charmap.ISO8859_3},
	{"charmap.ISO8859_4", charmap.ISO8859_4}, {"charmap.ISO8859_5", charmap.ISO8859_5},
	{"charmap.ISO8859_6", charmap.ISO8859_6}, {"charmap.ISO8859_6E", charmap.ISO8859_6E},
	{"charmap.ISO8859_6I", charmap.ISO8859_6I}, {"charmap.ISO8859_7", charmap.ISO8859_7},
	{"charmap.ISO8859_8", charmap.ISO8859_8}, {"charmap.ISO8859_8E", charmap.ISO8859_8E},
	{"charmap.ISO8859_8I", charmap.ISO8859_8I}, {"charmap.ISO8859_9", charmap.ISO8859_9},
	{"charmap.ISO8859_10", charmap.ISO8859_10}, {"charmap.ISO8859_13", charmap.ISO8859_13},
	{"charmap.ISO8859_14", charmap.ISO8859_14}, {"charmap.ISO8859_15", charmap.ISO8859_15},
	{"charmap.ISO8859_16", charmap.ISO8859_16}, {"charmap.KOI8R", charmap.KOI8R},
	{"charmap.KOI8U", charmap.KOI8U}, {"charmap.Macintosh", charmap.Macintosh},
	{"charmap.MacintoshCyrillic", charmap.MacintoshCyrillic}, {"charmap.Windows874", charmap.Windows874},
	{"charmap.Windows1250", charmap.Windows1250}, {"charmap.Windows1251", charmap.Windows1251},
	{"charmap.Windows1252", charmap.Windows1252}, {"charmap.Windows1253", charmap.Windows1253},
	{"charmap.Windows1254", charmap.Windows1254}, {"charmap.Windows1255", charmap.Windows1255},
	{"charmap.Windows1256", charmap.Windows1256}, {"charmap.Windows1257", charmap.Windows1257},
	{"charmap.Windows1258", charmap.Windows1258}, {"charmap.XUserDefined", charmap.XUserDefined},
	{"japanese.EUCJP", japanese.EUCJP}, {"japanese.ISO2022JP", japanese.ISO2022JP},
	{"japanese.ShiftJIS", japanese.ShiftJIS}, {"korean.EUCKR", korean.EUCKR},
	{"simplifiedchinese.GBK", simplifiedchinese.GBK}, {"simplifiedchinese.GB18030", simplifiedchinese.GB18030},
	{"simplifiedchinese.HZGB2312", simplifiedchinese.HZGB2312}, {"traditionalchinese.Big5", traditionalchinese.Big5},
	{"unicode.UTF8", unicode.UTF8}, {"encoding.Replacement", encoding.Replacement},
	{"unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM)", unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM)},
	{"unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM)", unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM)},
	{"unicode.UTF16(unicode.BigEndian, unicode.UseBOM)", unicode.UTF16(unicode.BigEndian, unicode.UseBOM)},
	{"unicode.UTF16(unicode.LittleEndian, unicode.UseBOM)", unicode.UTF16(unicode.LittleEndian, unicode.UseBOM)},
	{"unicode.UTF16(unicode.BigEndian, unicode.ExpectBOM)", unicode.UTF16(unicode.BigEndian, unicode.ExpectBOM)},
}

const utf8Expr = 54 // charsetExprs[utf8Expr] is unicode.UTF8

// xtextCharset is what x/text's indexes give for a declared name: the IANA
// index first, then the WHATWG labels (htmlindex), as the decoder did
// before it carried its own table (importing the two indexes cost every
// command a few hundred microseconds of package initialisation).
func xtextCharset(name string) encoding.Encoding {
	if e, err := ianaindex.IANA.Encoding(name); err == nil && e != nil {
		return e
	}
	if e, err := htmlindex.Get(name); err == nil && e != nil {
		return e
	}
	return nil
}

// charsetLabels reads the names x/text's two indexes know from their
// sources in the module cache.
func charsetLabels(t *testing.T) []string {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "golang.org/x/text").Output()
	if err != nil {
		t.Skipf("go list golang.org/x/text: %v", err)
	}
	dir := strings.TrimSpace(string(out))
	key := regexp.MustCompile(`(?m)^\s*"([^"]+)":`)
	seen := map[string]bool{}
	var names []string
	for _, f := range []string{"encoding/ianaindex/tables.go", "encoding/htmlindex/tables.go"} {
		src, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Skipf("x/text sources: %v", err)
		}
		for _, m := range key.FindAllSubmatch(src, -1) {
			n := strings.ToLower(string(m[1]))
			if !seen[n] {
				seen[n] = true
				names = append(names, n)
			}
		}
	}
	if len(names) < 300 {
		t.Fatalf("only %d names read from x/text", len(names))
	}
	sort.Strings(names)
	return names
}

// TestCharsetTable: decode_charset_table.go gives, for every name x/text's
// IANA and WHATWG indexes know, the encoding they give. Regenerate with
// SITEMAP_GEN_CHARSETS=1 go test -run TestCharsetTable .
func TestCharsetTable(t *testing.T) {
	names := charsetLabels(t)
	if charsetExprs[utf8Expr].enc != unicode.UTF8 {
		t.Fatal("utf8Expr does not index unicode.UTF8")
	}
	var b bytes.Buffer
	b.WriteString("// Code generated by TestCharsetTable (SITEMAP_GEN_CHARSETS=1 go test -run TestCharsetTable .) from golang.org/x/text's IANA and WHATWG indexes. DO NOT EDIT.\n\npackage sitemap\n\n")
	b.WriteString("import (\n\t\"golang.org/x/text/encoding\"\n\t\"golang.org/x/text/encoding/charmap\"\n\t\"golang.org/x/text/encoding/japanese\"\n\t\"golang.org/x/text/encoding/korean\"\n\t\"golang.org/x/text/encoding/simplifiedchinese\"\n\t\"golang.org/x/text/encoding/traditionalchinese\"\n\t\"golang.org/x/text/encoding/unicode\"\n)\n\n")
	b.WriteString("// charsetNames lists the lower-case encoding names and labels x/text knows, sorted, each with its index in charsetEncoding.\nvar charsetNames = [...]struct {\n\tname string\n\tenc  uint8\n}{\n")
	used := 0
	for _, n := range names {
		e := xtextCharset(n)
		if e == nil {
			continue
		}
		i := -1
		for k, c := range charsetExprs {
			if c.enc == e {
				i = k
			}
		}
		if name, _ := ianaindex.IANA.Name(e); i < 0 && name == "US-ASCII" {
			// x/text's ASCII decoder (not exported) replaces bytes above
			// 0x7F; the decoder reads such a document as UTF-8 instead, as
			// it does one declared "us-ascii".
			i = utf8Expr
		}
		if i < 0 {
			t.Fatalf("%q: x/text gives %v, which charsetExprs does not name", n, e)
		}
		fmt.Fprintf(&b, "\t{%q, %d},\n", n, i)
		used++
	}
	b.WriteString("}\n\n// charsetEncoding returns the encoding at index i of charsetNames.\nfunc charsetEncoding(i uint8) encoding.Encoding {\n\tswitch i {\n")
	for k, c := range charsetExprs {
		fmt.Fprintf(&b, "\tcase %d:\n\t\treturn %s\n", k, c.expr)
	}
	b.WriteString("\t}\n\treturn nil\n}\n")
	src, err := format.Source(b.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if os.Getenv("SITEMAP_GEN_CHARSETS") != "" {
		if err := os.WriteFile("decode_charset_table.go", src, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	cur, err := os.ReadFile("decode_charset_table.go")
	if err != nil || !bytes.Equal(cur, src) {
		t.Fatalf("decode_charset_table.go is stale (%d names); run SITEMAP_GEN_CHARSETS=1 go test -run TestCharsetTable .", used)
	}
	for _, n := range names {
		want := xtextCharset(n)
		if name, _ := ianaindex.IANA.Name(want); name == "US-ASCII" {
			want = unicode.UTF8
		}
		if got := lookupCharset(n); got != want {
			t.Errorf("lookupCharset(%q) = %v, x/text gives %v", n, got, want)
		}
		if got := lookupCharset(" " + strings.ToUpper(n) + " "); got != want {
			t.Errorf("lookupCharset(%q upper-cased, spaced) = %v, x/text gives %v", n, got, want)
		}
	}
	for _, n := range []string{"", "utf-9", "latin-1x", "\x00"} {
		if got := lookupCharset(n); got != xtextCharset(n) {
			t.Errorf("lookupCharset(%q) = %v, want %v", n, got, xtextCharset(n))
		}
	}
}
