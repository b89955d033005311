package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/sitemapkit/sitemap/diff"
	"github.com/sitemapkit/sitemap/input"
	"github.com/sitemapkit/sitemap/internal/version"
	"github.com/spf13/cobra"
)

// streams are the I/O a command uses, injected so tests run commands
// without a subprocess. Results go to Out, everything for people to Err.
type streams struct {
	In  io.Reader
	Out io.Writer
	Err io.Writer
	// ErrIsTerminal enables progress bars (only on a terminal, never in
	// pipes or tests).
	ErrIsTerminal bool
}

// Exit codes (docs/CONVENTIONS.md).
const (
	exitOK       = 0 // success
	exitProblems = 1 // the work ran but found problems
	exitUsage    = 2 // could not run: bad flags, unreadable input, unwritable output
)

// exitError carries an exit code out of a command's run function. A nil
// Err means the command has already told the user what happened.
type exitError struct {
	Code int
	Err  error
}

func (e *exitError) Error() string {
	if e.Err == nil {
		return fmt.Sprintf("exit status %d", e.Code)
	}
	return e.Err.Error()
}

func (e *exitError) Unwrap() error { return e.Err }

// cannotRun returns an exit-2 error: bad flags, unreadable input or
// unwritable output.
func cannotRun(format string, args ...any) error {
	return &exitError{Code: exitUsage, Err: fmt.Errorf(format, args...)}
}

// problemsFound returns an exit-1 error for a run that finished but found
// problems it has already reported.
func problemsFound() error { return &exitError{Code: exitProblems} }

// runOutcome maps the end of a library's run to the exit status: once
// ctx is done, ctx's error (interrupted); a problem the library found in
// the inputs (*input.EmptyError, *diff.SideError) exit 1 with its
// message; any other error exit 2; problems reported (found) exit 1.
func runOutcome(ctx context.Context, err error, found bool) error {
	switch {
	case err != nil && ctx.Err() != nil:
		return ctx.Err()
	case errors.As(err, new(*input.EmptyError)), errors.As(err, new(*diff.SideError)):
		return &exitError{Code: exitProblems, Err: err}
	case err != nil:
		return cannotRun("%v", err)
	case found:
		return problemsFound()
	}
	return nil
}

// subcommands are the commands under sitemap, by name, one line each.
// Building one costs start-up time (flags, help text), so a run builds
// only the one it names (see newRootCmd). Those marked streams read or
// write inputs of any size: main maps the first megabytes of the heap for
// them before they start (internal/prefault), and for no other command,
// where populating would cost more than the page faults it saves.
var subcommands = []struct {
	name    string
	build   func(*streams) *cobra.Command
	streams bool
}{
	{"version", newVersionCmd, false},
	{"robots", newRobotsCmd, false},
	{"generate", newGenerateCmd, true},
	{"index", newIndexCmd, false},
	{"crawl", newCrawlCmd, false},
	{"audit", newAuditCmd, false},
	{"validate", newValidateCmd, true},
	{"parse", newParseCmd, true},
	{"diff", newDiffCmd, true},
	{"submit", newSubmitCmd, false},
	{"indexnow", newIndexNowCmd, false},
	{"ping", newPingCmd, false},
	{"fetch", newFetchCmd, true},
	{"rules", newRulesCmd, false},
	{"explain", newExplainCmd, false},
	{"graph", newGraphCmd, true},
	{"serve", newServeCmd, false},
	{"html", newHTMLCmd, true},
}

// instant reports whether args name a command that only prints (version,
// help, the rule book) and cannot be left half done: an interrupt may end
// it where it is, so main catches no signals for it.
func instant(args []string) bool {
	if len(args) == 0 {
		return true // the root's help
	}
	switch args[0] {
	case "version", "rules", "explain", "help", "completion", "__complete", "--help", "-h", "--version", "-v":
		return true
	}
	return false
}

// streamsInput reports whether args name a subcommand marked streams.
func streamsInput(args []string) bool {
	if len(args) == 0 {
		return false
	}
	for _, sc := range subcommands {
		if sc.name == args[0] {
			return sc.streams
		}
	}
	return false
}

// newRootCmd builds the command tree for a run with args: when args
// start with the name of a subcommand, only that one (nothing else can
// run, and its help lists no siblings); otherwise (no arguments, a root
// flag first, help, completion, a misspelt name that cobra suggests a
// fix for) every subcommand.
func newRootCmd(s *streams, args []string) *cobra.Command {
	root := withHelp("sitemap", &cobra.Command{
		Use:           "sitemap",
		SilenceUsage:  true,
		SilenceErrors: true,
	})
	addHTTPFlags(root)
	root.SetIn(s.In)
	root.SetOut(s.Out)
	root.SetErr(s.Err)
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return &exitError{Code: exitUsage, Err: fmt.Errorf("%w\nrun '%s --help' for usage", err, c.CommandPath())}
	})
	only := ""
	if len(args) > 0 {
		for _, sc := range subcommands {
			if sc.name == args[0] {
				only = sc.name
			}
		}
	}
	if only == "" {
		// --version prints what `sitemap version` prints. The flag is
		// the root's own, so a run of a subcommand cannot use it and
		// does not read the build information (3 % of the instructions
		// of a start).
		root.Version = strings.TrimPrefix(version.Line(), "sitemap ")
		root.SetVersionTemplate("sitemap {{.Version}}\n")
	}
	for _, sc := range subcommands {
		if only == "" || sc.name == only {
			root.AddCommand(sc.build(s))
		}
	}
	if only == "" {
		root.AddCommand(helpTopics()...)
		root.SetHelpCommand(helpCmd())
	}
	return root
}

// helpCmd is `sitemap help [COMMAND|TOPIC]`: cobra's, except that a name
// that is neither is a usage error (exit 2), not the root's help and 0.
func helpCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "help [COMMAND|TOPIC]",
		Short: "Help about any command or topic",
		RunE: func(c *cobra.Command, args []string) error {
			cmd, rest, err := c.Root().Find(args)
			if err != nil || cmd == nil || len(rest) > 0 || len(args) > 0 && cmd == c.Root() {
				return cannotRun("no command or help topic %q: 'sitemap --help' lists them", strings.Join(args, " "))
			}
			cmd.InitDefaultHelpFlag()
			return cmd.Help()
		},
	}
}

// printsAsItReads are the commands that publish nothing but print as
// they read: interrupted, what they printed is incomplete.
var printsAsItReads = map[string]bool{"validate": true, "parse": true, "diff": true}

// execute runs the CLI with args and returns the process exit code.
func execute(ctx context.Context, s *streams, args []string) int {
	s = &streams{In: s.In, Out: &pipeOut{w: s.Out}, Err: s.Err, ErrIsTerminal: s.ErrIsTerminal}
	root := newRootCmd(s, args)
	root.SetArgs(args)
	c, err := root.ExecuteContextC(ctx)
	if readerGone(s.Out) {
		return exitPipe // quietly, as SIGPIPE ends other tools (and main this one)
	}
	if err == nil {
		return exitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.Err != nil {
			fmt.Fprintf(s.Err, "sitemap: %v\n", ee.Err)
		}
		return ee.Code
	}
	if errors.Is(err, context.Canceled) {
		msg := "interrupted; nothing partial was published"
		if c != nil && printsAsItReads[c.Name()] {
			msg = "interrupted; the output above is incomplete: it covers what was read before the stop"
		}
		fmt.Fprintln(s.Err, "sitemap: "+msg)
		return exitUsage
	}
	// Cobra's own errors (unknown command, wrong number of arguments) are
	// usage errors; like a bad flag, they say where the usage is.
	path, use := "sitemap", ""
	if c != nil {
		path = c.CommandPath()
		if c.HasParent() && c.Runnable() {
			use = " (" + c.UseLine() + ")" // what the arguments are
		}
	}
	fmt.Fprintf(s.Err, "sitemap: %s%s\nrun '%s --help' for usage\n", oneLine(err.Error()), use, path)
	return exitUsage
}

// oneLine puts cobra's suggestions for a misspelt command on the line of
// the error ("unknown command "vali" for "sitemap"; did you mean validate?").
func oneLine(msg string) string {
	head, sugg, ok := strings.Cut(strings.TrimRight(msg, "\n"), "\n\nDid you mean this?\n")
	if !ok {
		return strings.TrimRight(msg, "\n")
	}
	return head + "; did you mean " + strings.Join(strings.Fields(sugg), " or ") + "?"
}
