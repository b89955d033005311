package pgfeed

import (
	"bufio"
	"context"
	"fmt"
	"os"
	osexec "os/exec"
	"testing"
	"time"
)

// childEnv, when set to a connection URL, makes the test binary a process
// that follows table pages there (Watch, with Create) and says "started" once
// the slot exists, until it is killed.
const childEnv = "PGFEED_TEST_CHILD"

func child(dsn string) int {
	err := Watch(context.Background(), Options{ConnString: dsn, Table: "pages", Key: "id", Create: true}, func(c Change) {
		if c.All {
			fmt.Println("started")
		}
	})
	fmt.Fprintln(os.Stderr, err)
	return 1
}

// kill -9 of the process that runs Watch leaves no replication slot holding
// WAL: the server drops the temporary slot when the connection ends. The
// publication it created stays, marked as a feed's, and the next Watch with
// Create drops it when it ends.
func TestKilledWatchLeavesNoSlot(t *testing.T) {
	t.Parallel()
	db, dsn := openDB(t)
	needLogical(t, db)
	exec(t, db, `CREATE TABLE pages (id int PRIMARY KEY)`)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := osexec.Command(self)
	cmd.Env = append(os.Environ(), childEnv+"="+dsn)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	started := make(chan bool, 1)
	go func() {
		s := bufio.NewScanner(out)
		started <- s.Scan() && s.Text() == "started"
	}()
	select {
	case ok := <-started:
		if !ok {
			t.Fatal("the child did not start its feed")
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the child did not start its feed within 20s")
	}
	slots := `SELECT count(*) FROM pg_replication_slots WHERE database = current_database()`
	if n := count(t, db, slots); n != 1 {
		t.Fatalf("%d slots while the child runs, want 1", n)
	}
	if err := cmd.Process.Kill(); err != nil { // SIGKILL
		t.Fatal(err)
	}
	cmd.Wait()
	deadline := time.Now().Add(10 * time.Second)
	for count(t, db, slots) > 0 {
		if time.Now().After(deadline) {
			t.Fatal("the slot of a killed feed is still there 10s later")
		}
		time.Sleep(20 * time.Millisecond)
	}
	pubs := `SELECT count(*) FROM pg_publication WHERE pubname = 'sitemap_pages'`
	if n := count(t, db, pubs); n != 1 {
		t.Fatalf("%d publications after the kill, want the one the child created", n)
	}
	r := follow(t, logicalFeed, Options{ConnString: dsn, Table: "pages", Key: "id", Create: true})
	r.expect(t, all)
	if err := r.stop(t); err != nil {
		t.Fatal(err)
	}
	if n := count(t, db, pubs); n != 0 {
		t.Error("the next feed with Create left the publication a killed one created")
	}
}
