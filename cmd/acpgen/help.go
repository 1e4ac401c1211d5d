package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

// A command is one of acpgen's subcommands.
type command struct {
	name    string
	args    string // the arguments after the name, as the usage line shows them
	summary string
	run     func(args []string, stdout io.Writer) error
}

// commands lists the subcommands in the order help shows them; generate
// is also what acpgen runs with no subcommand.
var commands []command

func init() {
	commands = []command{
		{"generate", "[-config file] [-schema dir] [-out dir] [-version v1|v2|all] [-package name] [-features all|none|list] [-bake] [-tests] [-check] [-prune]",
			"Generate the Go packages from the schema (the default: acpgen with no subcommand generates).", generate},
		{"diff", "[-json] [-exit-code] [-breaking] [-version v1|v2] [-features all|none|list] (pkgdir | old-schema-dir new-schema-dir)",
			"Print the unstable surface of a generated package, or what moving from one schema revision to another does to Go code and the wire.", diff},
		{"api", "[-out dir] [-readme file] pkgdir...",
			"Write the API surface of generated packages, one line per exported item tagged with its build tags.", apiFiles},
		{"fetch", "[-out dir] [-check] [-npm command] version",
			"Fetch a published schema revision of @agentclientprotocol/sdk with npm pack into a directory with its provenance.json, or check that the files still match it.", fetch},
		{"version", "", "Print the generator's module version.", printVersion},
		{"help", "[command]", "Print this help, or a command's arguments and flags.", help},
	}
}

// lookup returns the command called name.
func lookup(name string) (command, bool) {
	for _, c := range commands {
		if c.name == name {
			return c, true
		}
	}
	return command{}, false
}

// flagOutput is where usage messages go: standard error, or standard
// output when help asked for them.
var flagOutput io.Writer = os.Stderr

// newFlagSet returns the flag set of the command name, whose usage
// message is its usage line, summary and flags.
func newFlagSet(name string) *flag.FlagSet {
	fl := flag.NewFlagSet("acpgen "+name, flag.ContinueOnError)
	fl.SetOutput(flagOutput)
	fl.Usage = func() {
		c, _ := lookup(name)
		w := fl.Output()
		if name == "generate" {
			writeOverview(w)
			fmt.Fprintf(w, "\nacpgen [generate] flags:\n")
		} else {
			fmt.Fprintf(w, "usage: acpgen %s %s\n\n%s\n\nflags:\n", c.name, c.args, c.summary)
		}
		fl.PrintDefaults()
	}
	return fl
}

// parseFlags parses args with fl: -h prints the usage and ends with status
// 0, a bad flag with status 2.
func parseFlags(fl *flag.FlagSet, args []string) error {
	err := fl.Parse(args)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, flag.ErrHelp):
		return exitCode(0)
	}
	return exitCode(2)
}

// writeOverview writes the usage line of every command.
func writeOverview(w io.Writer) {
	fmt.Fprintln(w, "acpgen generates Go packages for the Agent Client Protocol from its JSON schema.")
	fmt.Fprintln(w, "\nusage:")
	for _, c := range commands {
		name := c.name
		if name == "generate" {
			name = "[generate]"
		}
		fmt.Fprintln(w, "  "+strings.TrimSpace("acpgen "+name+" "+c.args))
	}
	fmt.Fprintln(w, "\ncommands:")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-9s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nRun acpgen help <command> for a command's flags; docs/generator.md has the whole story.")
}

// help prints the overview, or the usage and flags of one command.
func help(args []string, stdout io.Writer) error {
	switch len(args) {
	case 0:
		writeOverview(stdout)
		return nil
	case 1:
		c, ok := lookup(args[0])
		if !ok {
			return usage(fmt.Errorf("help: no command %q; the commands are %s", args[0], commandNames()))
		}
		if c.name == "help" || c.name == "version" {
			fmt.Fprintf(stdout, "usage: acpgen %s %s\n\n%s\n", c.name, c.args, c.summary)
			return nil
		}
		flagOutput = stdout
		defer func() { flagOutput = os.Stderr }()
		if err := c.run([]string{"-h"}, stdout); err != exitCode(0) {
			return err
		}
		return nil
	}
	return usage(errors.New("help takes at most one command"))
}

func commandNames() string {
	var names []string
	for _, c := range commands {
		names = append(names, c.name)
	}
	return strings.Join(names, ", ")
}
