package serve_test

import (
	"context"
	"io"
	"net"
	"strings"
	"testing"

	"github.com/sitemapkit/sitemap/serve"
)

// TestRunAddrInUse: an --addr or --admin-addr that cannot be listened
// on is said before the first build (minutes at 10^8 rows), not once it
// is done: nothing of the build (here the row it leaves out) is in the
// log, and the error names the flag and what to do.
func TestRunAddrInUse(t *testing.T) {
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	addr := taken.Addr().String()
	path := sqliteTable(t, "https://www.example.com/a", "https://www.example.com/left out")
	for _, c := range []struct {
		addr, admin, want string
	}{
		{addr, "", "--addr " + addr + ": "},
		{"127.0.0.1:0", addr, "--admin-addr " + addr + ": "},
	} {
		s := serve.Settings{DB: serve.SQLSettings{DB: path, Table: "pages"}, Name: "sitemap", BaseURL: "https://www.example.com/",
			Addr: c.addr, AdminAddr: c.admin}
		var log syncBuffer
		err := serve.Run(context.Background(), s, io.Discard, &log)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) || !strings.HasSuffix(err.Error(), "; give another HOST:PORT") {
			t.Errorf("Run = %v, want %q…; give another HOST:PORT", err, c.want)
		}
		if strings.Contains(log.String(), "left out") {
			t.Errorf("%s: the pages were built before listening:\n%s", c.want, log.String())
		}
	}
}
