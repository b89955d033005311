package main

import (
	"database/sql"
	"path/filepath"
	"strings"
	"testing"
)

// TestDBTableAndQueryRefused: serve and generate refuse --table with
// --query, exit 2, in the words of their flags, before the database is
// opened (the message was the library's "serve: give a table or a query,
// not both or neither", in generate too).
func TestDBTableAndQueryRefused(t *testing.T) {
	db := filepath.Join(t.TempDir(), "none.db") // not there: the flags are refused first
	for _, args := range [][]string{
		{"serve", "--db", db, "--table", "pages", "--query", "SELECT loc FROM pages", "--addr", "127.0.0.1:0"},
		{"generate", "--base-url", "https://www.example.com/", "--out", t.TempDir(), "--db", db, "--table", "pages", "--query", "SELECT loc FROM pages"},
	} {
		code, out, errb := runCLI(t, "", args...)
		if code != exitUsage || out != "" || !strings.Contains(errb, "give --table or --query, not both") || strings.Contains(errb, "serve:") {
			t.Errorf("%s: exit %d, stdout %q, stderr %q", args[0], code, out, errb)
		}
	}
}

// TestDBNoSuchTable: a --table the database does not have is said in
// the words of generate as of serve, naming the flag, never "serve: …",
// with the tables the database has, exit 2.
func TestDBNoSuchTable(t *testing.T) {
	db := filepath.Join(t.TempDir(), "site.sqlite")
	d, err := sql.Open("sqlite", db)
	if err != nil {
		t.Fatal(err)
	}
	_, err = d.Exec(`CREATE TABLE pages (loc TEXT PRIMARY KEY); CREATE TABLE users (id INTEGER)`)
	d.Close()
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"serve", "--db", db, "--table", "nope", "--addr", "127.0.0.1:0"},
		{"generate", "--base-url", "https://www.example.com/", "--out", t.TempDir(), "--db", db, "--table", "nope"},
	} {
		code, out, errb := runCLI(t, "", args...)
		if code != exitUsage || out != "" || !strings.HasPrefix(errb, `sitemap: --table nope: the database has no table "nope"`) ||
			!strings.Contains(errb, "its tables are pages, users: check the name") {
			t.Errorf("%s: exit %d, stdout %q, stderr %q", args[0], code, out, errb)
		}
	}
}
