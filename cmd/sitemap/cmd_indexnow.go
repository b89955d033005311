package main

import (
	"fmt"
	"net/url"

	"github.com/spf13/cobra"

	"github.com/sitemapkit/sitemap/indexnow"
	"github.com/sitemapkit/sitemap/internal/check"
)

// indexnowKeyOptions are the flags of `sitemap indexnow key`.
type indexnowKeyOptions struct {
	Out string
	Key string // an existing key to write the file of (default: a new one)
}

func newIndexNowCmd(s *streams) *cobra.Command {
	c := withHelp("indexnow", &cobra.Command{
		Use:  "indexnow",
		RunE: runGroup,
	})
	o := &indexnowKeyOptions{}
	key := withHelp("indexnow-key", &cobra.Command{
		Use:  "key",
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			return runIndexNowKey(o, s)
		},
	})
	key.Flags().StringVar(&o.Out, "out", ".", "`DIR` to write the key file into; - writes none")
	key.Flags().StringVar(&o.Key, "key", "", "write the file of this `KEY` instead of making a new one")
	c.AddCommand(key)
	return c
}

func runIndexNowKey(o *indexnowKeyOptions, s *streams) error {
	if o.Out == "" {
		return errEmptyOut
	}
	k := o.Key
	if k == "" {
		var err error
		if k, err = indexnow.NewKey(); err != nil {
			return cannotRun("%v", err)
		}
	}
	if o.Out == "-" {
		// The key file holds the key and nothing else: standard output
		// is its content.
		if err := indexnow.ValidKey(k); err != nil {
			return cannotRun("%v", err)
		}
		if _, err := fmt.Fprintln(s.Out, k); err != nil {
			return outputError(err)
		}
		fmt.Fprintf(s.Err, "no key file written (--out -): save it as %s, holding the key alone, and publish it at https://HOST/%[1]s (IN-04)\n", indexnow.KeyFileName(k))
		return nil
	}
	p, err := indexnow.WriteKeyFile(o.Out, k)
	if err != nil {
		return cannotRun("%v", err)
	}
	if _, err := fmt.Fprintln(s.Out, k); err != nil {
		// The key file holds the key: say where, since it was not shown.
		return cannotRun("writing output: %v; the key is in the key file %s", err, p)
	}
	fmt.Fprintf(s.Err, "key file: %s\npublish it at https://HOST/%s (IN-04), then: sitemap submit --key-file %s --host HOST URLS…\n", p, indexnow.KeyFileName(k), p)
	return nil
}

func newPingCmd(s *streams) *cobra.Command {
	return withHelp("ping", &cobra.Command{
		Use:  "ping [SITEMAP_URL]",
		Args: cobra.MaximumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			u, host := "https://www.example.com/sitemap.xml", "HOST"
			if len(args) == 1 {
				u = check.EscapeControls(args[0])
				pu, err := url.Parse(args[0])
				if err != nil || (pu.Scheme != "http" && pu.Scheme != "https") || pu.Host == "" {
					return cannotRun("%q is not an absolute http(s) URL: give the sitemap's full URL, such as https://www.example.com/sitemap.xml (RB-05)", u)
				}
				host = pu.Host
			}
			fmt.Fprintf(s.Err, `sitemap: nothing pinged: Google and Bing retired their sitemap ping endpoints (SB-02, SB-03; Google answers 404, Bing 410).
Instead:
  1. list the sitemap in robots.txt, which every engine reads:
       sitemap robots add robots.txt %s
  2. tell IndexNow engines (Bing, Yandex, Seznam, Naver, …) which URLs changed:
       sitemap indexnow key --out public/
       sitemap submit --key-file public/KEY.txt --host %s changed.txt
`, u, host)
			return problemsFound()
		},
	})
}
