package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
)

// runGroup is the RunE of a command that only groups subcommands (robots,
// indexnow): without arguments it prints its help; with one it is a
// misspelt subcommand, a usage error (exit 2) with the closest names, as
// the root says of a misspelt command. Cobra itself would print the help
// and exit 0, so a script's typo would pass for success.
func runGroup(c *cobra.Command, args []string) error {
	if len(args) == 0 {
		return c.Help()
	}
	msg := fmt.Sprintf("unknown command %q for %q", args[0], c.CommandPath())
	if c.SuggestionsMinimumDistance <= 0 {
		c.SuggestionsMinimumDistance = 2 // cobra's default for the root
	}
	if sugg := c.SuggestionsFor(args[0]); len(sugg) > 0 {
		msg += "; did you mean " + strings.Join(sugg, " or ") + "?"
	} else {
		var names []string
		for _, sc := range c.Commands() {
			if sc.IsAvailableCommand() {
				names = append(names, sc.Name())
			}
		}
		msg += "; its commands are " + strings.Join(names, ", ")
	}
	return fmt.Errorf("%s", msg)
}
