package input

import "testing"

func TestCheckBase(t *testing.T) {
	for _, c := range []struct {
		base  string
		names []string
		ok    bool
	}{
		{"", []string{"https://a.example/s.xml"}, true},
		{"https://a.example/", nil, true},
		{"https://a.example/", []string{"s.xml"}, true},
		{"https://a.example/", []string{"https://a.example/s.xml", "-"}, true},
		{"https://a.example/", []string{"https://a.example/s.xml"}, false},
		{"https://a.example/", []string{"https://a.example/s.xml", "http://b.example/t.xml"}, false},
	} {
		if err := CheckBase(c.base, c.names); (err == nil) != c.ok {
			t.Errorf("CheckBase(%q, %q) = %v; want ok %v", c.base, c.names, err, c.ok)
		}
	}
}
