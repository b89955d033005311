package check

import (
	"strings"
	"testing"
)

func TestNormalize(t *testing.T) {
	for _, c := range []struct {
		in, want string
		ch       Changes
	}{
		{"https://www.example.com/a", "https://www.example.com/a", 0},
		{"https://www.example.com:8080/a?b=c", "https://www.example.com:8080/a?b=c", 0},
		{"https://www.example.com/caf%c3%a9", "https://www.example.com/caf%c3%a9", 0}, // escapes kept as written
		{"https://www.example.com/café", "https://www.example.com/caf%C3%A9", ChangedEncoded},
		{"https://www.example.com/a b<c>", "https://www.example.com/a%20b%3Cc%3E", ChangedEncoded},
		{"https://www.example.com/100%", "https://www.example.com/100%25", ChangedEncoded},
		{"https://www.example.com/?q=ü&x=1", "https://www.example.com/?q=%C3%BC&x=1", ChangedEncoded},
		{"HTTPS://WWW.EXAMPLE.COM/A", "https://www.example.com/A", ChangedScheme | ChangedHost},
		{"https://www.example.com:443/a", "https://www.example.com/a", ChangedPort},
		{"http://www.example.com:80/a", "http://www.example.com/a", ChangedPort},
		{"http://www.example.com:443/a", "http://www.example.com:443/a", 0},
		{"https://www.example.com:/a", "https://www.example.com/a", ChangedPort},
		{"https://www.example.com/a#top", "https://www.example.com/a", ChangedFragment},
		{"https://www.example.com/a#b#c d", "https://www.example.com/a", ChangedFragment},
		{"https://www.example.com", "https://www.example.com/", ChangedPath},
		{"https://www.example.com?q=1", "https://www.example.com/?q=1", ChangedPath},
		{" https://www.example.com/a\n", "https://www.example.com/a", ChangedTrim},
		{"https://Bücher.example/ä", "https://xn--bcher-kva.example/%C3%A4", ChangedIDNA | ChangedEncoded},
		{"https://[2001:DB8::1]:443/", "https://[2001:db8::1]/", ChangedHost | ChangedPort},
		{"https://www.example.com./a", "https://www.example.com./a", 0}, // another host: kept
	} {
		got, ch, pr := Normalize(c.in)
		if !pr.OK() || got != c.want || ch != c.ch {
			t.Errorf("Normalize(%q) = %q, %v (%b), %+v; want %q, %v", c.in, got, ch, ch, pr, c.want, c.ch)
		}
		if again, ch2, _ := Normalize(got); again != got || ch2 != 0 {
			t.Errorf("Normalize(%q) = %q, %v: not idempotent", got, again, ch2)
		}
	}
	for _, in := range []string{
		"", "/a", "www.example.com/a", "ftp://www.example.com/", "https://user@www.example.com/",
		"https://www.example.com:99999/", "https://www.exa mple.com/", "https://www.example.com/a\tb",
		"https://www.example.com/\xff", "https:///a", "https://\u00ad/", "mailto:a@b.c",
	} {
		if got, ch, pr := Normalize(in); pr.OK() || got != "" || ch != 0 {
			t.Errorf("Normalize(%q) = %q, %v, %+v; want a problem", in, got, ch, pr)
		}
	}
}

func TestNormalizeFastPathAllocs(t *testing.T) {
	s := strings.Repeat("https://www.example.com/products/shoes/red?size=42&colour=red", 1)
	if n := testing.AllocsPerRun(100, func() {
		if got, _, _ := Normalize(s); got != s {
			t.Fatal("changed")
		}
	}); n != 0 {
		t.Errorf("Normalize of a normal URL allocates %v times", n)
	}
}

func TestChangesString(t *testing.T) {
	if got := (ChangedEncoded | ChangedFragment).String(); got != "percent-encoded, fragment removed" {
		t.Errorf("got %q", got)
	}
}

func BenchmarkNormalize(b *testing.B) {
	for _, c := range []struct{ name, s string }{
		{"normal", "https://www.example.com/products/shoes/red-running-shoe-4711?size=42&colour=red"},
		{"port", "https://www.example.com:8443/products/shoes/red-running-shoe-4711"},
		{"upper", "HTTPS://WWW.EXAMPLE.COM/products/shoes/red-running-shoe-4711"},
		{"nonascii", "https://www.example.com/produkte/schuhe/rote-laufschuhe-größe-42"},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.s)))
			b.ReportAllocs()
			for b.Loop() {
				Normalize(c.s)
			}
		})
	}
}
