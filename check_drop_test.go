package sitemap

import "testing"

// Drop removes what an EntryError is about, copying slices, and refuses
// errors about the entry as a whole.
func TestEntryErrorDrop(t *testing.T) {
	p := 5.0
	alts := []Alternate{{Hreflang: "english", Href: "https://www.example.com/a"}, {Hreflang: "de", Href: "https://www.example.com/de"}}
	u := URL{Loc: "https://www.example.com/a", Priority: &p, Alternates: alts,
		Videos: []Video{{Title: "T"}}, News: &News{Title: "x"}}
	o := EncoderOptions{Extensions: ExtAll}
	var dropped []string
	for range 10 {
		err := o.Check(&u)
		if err == nil {
			break
		}
		ee, ok := err.(*EntryError)
		if !ok {
			t.Fatalf("Check: %v", err)
		}
		what, ok := u.Drop(ee)
		if !ok {
			t.Fatalf("Drop(%v) refused", ee)
		}
		dropped = append(dropped, string(ee.Rule)+" "+what)
	}
	if err := o.Check(&u); err != nil || u.Priority != nil || len(u.Alternates) != 1 || u.Videos != nil || u.News != nil {
		t.Fatalf("after %v: %+v, %v", dropped, u, err)
	}
	if alts[0].Hreflang != "english" || len(alts) != 2 {
		t.Errorf("the caller's slice was changed: %v", alts)
	}
	if got := len(dropped); got != 4 {
		t.Errorf("dropped %v", dropped)
	}
	bad := URL{Loc: "/relative"}
	if ee, ok := o.Check(&bad).(*EntryError); !ok {
		t.Fatal("no EntryError for a relative loc")
	} else if _, ok := bad.Drop(ee); ok {
		t.Error("Drop accepted an error about the loc")
	}
}
