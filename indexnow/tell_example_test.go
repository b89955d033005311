package indexnow_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/indexnow"
)

// A dry run told line by line, as sitemap submit prints it.
func ExampleOptions_Tell() {
	o := indexnow.Options{Key: "9f3c2a7e41b84d0c", Host: "www.example.com", DryRun: true}
	o.Tell(func(line string) { fmt.Println("indexnow:", line) })
	entries := func(ctx context.Context, yield func(*sitemap.URL) error) error {
		return yield(&sitemap.URL{Loc: "https://www.example.com/a"})
	}
	sum, _ := indexnow.Submit(context.Background(), entries, o)
	fmt.Println(sum)
	// Output:
	// indexnow: dry run: {"batch":1,"host":"www.example.com","key":"9f3c2a7e41b84d0c","urlList":["https://www.example.com/a"]}
	// 1 URL would be sent (dry run) in 1 batch (1 read)
}

func ExampleOptions_DryRunJSON() {
	o := indexnow.Options{Key: "9f3c2a7e41b84d0c", Host: "WWW.EXAMPLE.COM"}
	fmt.Printf("%s\n", o.DryRunJSON(indexnow.Batch{N: 3, URLs: []string{"https://www.example.com/a"}}))
	// Output:
	// {"batch":3,"host":"www.example.com","key":"9f3c2a7e41b84d0c","urlList":["https://www.example.com/a"]}
}

// A Queue of a server that logs what its rounds could not do.
func ExampleQueue_Tell() {
	q := indexnow.NewQueue(indexnow.Options{Key: "9f3c2a7e41b84d0c", Host: "www.example.com", DryRun: true}, time.Second)
	q.Tell(func(line string) { fmt.Println("indexnow:", line) })
	q.Sent(indexnow.Summary{}, errors.New("the endpoint answered 503"))
	// Output:
	// indexnow: the endpoint answered 503
}

// A started Queue catching up with what changed while no queue ran; the
// server's later changes go to Add.
func ExampleQueue_CatchUp() {
	q := indexnow.NewQueue(indexnow.Options{Key: "9f3c2a7e41b84d0c", Host: "www.example.com", DryRun: true}, time.Second)
	stop := q.Start(context.Background())
	done := make(chan struct{})
	entries := func(ctx context.Context, yield func(*sitemap.URL) error) error {
		return yield(&sitemap.URL{Loc: "https://www.example.com/a"})
	}
	q.CatchUp(entries, func(sum indexnow.Summary, err error) {
		fmt.Println("at start:", sum, err)
		close(done)
	})
	<-done
	stop()
	// Output:
	// at start: 1 URL would be sent (dry run) in 1 batch (1 read) <nil>
}
