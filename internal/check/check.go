// Package check holds the value checks of the sitemap rules that both the
// encoder (package sitemap's EncoderOptions.Check) and the validator
// (package validate) apply: URL syntax (L-01, L-07, L-16), length (L-06),
// white space, scope (L-09, I-05, I-06), dates (M-01, M-04),
// changefreq, priority, hreflang codes, news languages, video country and
// platform lists and the other extension fields. Each check returns nil
// for a good value, else a [Problem] with the rule ID, what is wrong and
// what to do, so that every command says the same thing about the same
// value; the callers decide the severity (the encoder refuses, the
// validator reports) and name the value (a JSON field or an XML tag).
//
// The package works on strings and numbers only and imports nothing of
// this module, so package sitemap can import it.
package check

// Problem is what a check found wrong with a value. A check returns nil
// when the value passed (one pointer to return: the checks sit on the
// encoder's hot path).
type Problem struct {
	// Rule is the rule ID the value breaks, such as "L-07".
	Rule string
	// Message says what is wrong, written to follow the value:
	// `"https://bücher.example/" has a host with non-ASCII characters`.
	Message string
	// Fix says what to do, such as `write it in punycode:
	// "https://xn--bcher-kva.example/"`; empty when the message says it
	// all.
	Fix string
	// Suggest is a corrected value when one can be told (the punycode or
	// percent-encoded form of a URL, the language of "pt-br"); empty
	// otherwise. Nothing applies it automatically.
	Suggest string
}

// OK reports whether there is no problem (p is nil).
func (p *Problem) OK() bool { return p == nil }

// Text is the message followed by the fix: "has … ; write …".
func (p *Problem) Text() string {
	if p == nil {
		return ""
	}
	if p.Fix == "" {
		return p.Message
	}
	return p.Message + "; " + p.Fix
}

func problem(rule, msg, fix string) *Problem { return &Problem{Rule: rule, Message: msg, Fix: fix} }
