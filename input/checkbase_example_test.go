package input_test

import (
	"errors"
	"fmt"

	"github.com/sitemapkit/sitemap/input"
)

// CheckBase refuses a --base that every input would ignore: a URL is
// served at itself.
func ExampleCheckBase() {
	fmt.Println(input.CheckBase("https://www.example.com/", []string{"public/sitemap.xml"}))
	fmt.Println(input.CheckBase("https://www.example.com/", []string{"https://www.example.com/sitemap.xml"}))
	// Output:
	// <nil>
	// --base is for local files (where they are served); https://www.example.com/sitemap.xml is a URL, served at itself: leave --base out
}

// An EmptyError is a problem found (the inputs listed nothing), told
// apart from a failure to run with errors.As.
func ExampleEmptyError() {
	var err error = &input.EmptyError{Names: []string{"a.xml", "b.xml"}, What: "nothing to draw"}
	fmt.Println(err, errors.As(err, new(*input.EmptyError)))
	// Output: no URL read from a.xml, b.xml: nothing to draw true
}
