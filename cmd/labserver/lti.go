package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"strings"
	"time"

	"ratelab/internal/class"
	"ratelab/internal/lti"
	"ratelab/internal/store"
)

// ltiUsage is runLTI's usage.
const ltiUsage = `usage: labserver lti add-platform [flags]   register a learning platform (Canvas, Moodle, ...)
       labserver lti register-url --url URL   make a dynamic registration URL (one platform, 7 days)
       labserver lti config --url URL         print what to type into Canvas and Moodle
       labserver lti list [--db PATH|URL]     list the platforms registered
       labserver lti rotate-key [--db ...]    make a new signing key (the old one stays published)`

// runLTI is `labserver lti add-platform|config|list|rotate-key`.
func runLTI(args []string) error {
	if len(args) == 0 {
		fmt.Fprintln(os.Stderr, ltiUsage)
		return exitError{2}
	}
	switch args[0] {
	case "add-platform":
		return runLTIAdd(args[1:], os.Stdout)
	case "config":
		return runLTIConfig(args[1:], os.Stdout)
	case "register-url":
		return runLTIRegisterURL(args[1:], os.Stdout)
	case "list":
		return runLTIList(args[1:], os.Stdout)
	case "rotate-key":
		return runLTIRotate(args[1:], os.Stdout)
	}
	fmt.Fprintln(os.Stderr, ltiUsage)
	return exitError{2}
}

// ltiFlags are serve's LTI flag: the class's public address turns LTI on.
type ltiFlags struct {
	publicURL string
}

func (f *ltiFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.publicURL, "public-url", "", "class mode: the class's address as learners' browsers and learning platforms reach it (https://lab.example.edu); serves LTI 1.3 at /lti/... (see labserver lti)")
}

// start starts LTI for a class when --public-url is set: the tool, and its
// poster of scores until ctx ends (stop waits for it). nil without it.
func (f *ltiFlags) start(ctx context.Context, st *store.Store, cl *class.Class, log *slog.Logger) (*lti.Tool, func(), error) {
	if f.publicURL == "" {
		return nil, func() {}, nil
	}
	tool, err := lti.New(ctx, lti.Config{Store: st, Clock: wallClock{}, URL: f.publicURL, Log: log})
	if err != nil {
		return nil, nil, fmt.Errorf("--public-url: %w", err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		tool.Run(ctx, cl)
	}()
	return tool, func() { <-done }, nil
}

// urlList is a repeatable flag of values.
type urlList []string

func (l *urlList) String() string     { return strings.Join(*l, ",") }
func (l *urlList) Set(v string) error { *l = append(*l, v); return nil }

func runLTIAdd(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("lti add-platform", flag.ContinueOnError)
	db := fs.String("db", dbDefault(), dbUsage+" (created if missing)")
	var p store.LTIPlatform
	var deployments urlList
	publicURL := fs.String("url", "", "the class's public address (serve's --public-url), to print the tool's side of the registration")
	fs.StringVar(&p.Name, "name", "", "what the class's pages call the platform, e.g. \"Canvas\"")
	fs.StringVar(&p.Issuer, "issuer", "", "the platform's issuer (Canvas: https://canvas.instructure.com; Moodle: its Platform ID, the site's address)")
	fs.StringVar(&p.ClientID, "client-id", "", "the class's client id on the platform (Canvas: the developer key's id; Moodle: the tool's Client ID)")
	fs.Var(&deployments, "deployment", "a deployment id of the class on the platform (repeatable)")
	fs.StringVar(&p.AuthLoginURL, "login-url", "", "the platform's OIDC authentication request URL (Moodle: .../mod/lti/auth.php)")
	fs.StringVar(&p.TokenURL, "token-url", "", "the platform's access token URL (Moodle: .../mod/lti/token.php)")
	fs.StringVar(&p.JWKSURL, "jwks-url", "", "the platform's public keyset URL (Moodle: .../mod/lti/certs.php)")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: labserver lti add-platform [flags]\n\nRegisters a learning platform with the class: its launches are then taken (LTI 1.3), scores go\nto its gradebook and its rosters show on /class/lti. Registering the same issuer and client id\nagain adds the deployments given. docs/instructors.md's \"Learning platforms\" section says where Canvas\nand Moodle show each value.\n\nflags:")
		fs.PrintDefaults()
	}
	if done, err := parseFlags(fs, args); done {
		return err
	}
	p.Deployments = deployments
	problems := lti.Problems(p)
	if fs.NArg() > 0 {
		problems = append(problems, fmt.Sprintf("unexpected argument %q (flags start with --)", fs.Arg(0)))
	}
	if len(problems) > 0 {
		return errors.New(strings.Join(problems, "; ") + " (labserver lti add-platform --help)")
	}
	return withClassStore(*db, func(ctx context.Context, st *store.Store) error {
		added, err := lti.AddPlatform(ctx, st, p)
		switch {
		case err != nil:
			return err
		case added:
			fmt.Fprintf(out, "registered %s (client id %s, deployments %s) (database %s)\n", p.Issuer, p.ClientID, strings.Join(p.Deployments, ", "), store.Redact(*db))
		default:
			fmt.Fprintf(out, "%s (client id %s) was registered already: deployments %s added\n", p.Issuer, p.ClientID, strings.Join(p.Deployments, ", "))
		}
		if *publicURL != "" {
			return printToolConfig(out, *publicURL)
		}
		return nil
	})
}

func runLTIRegisterURL(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("lti register-url", flag.ContinueOnError)
	db := fs.String("db", dbDefault(), dbUsage+" (created if missing)")
	publicURL := fs.String("url", "", "the class's public address (serve's --public-url), e.g. https://lab.example.edu")
	valid := fs.Duration("valid", 7*24*time.Hour, "how long the URL may be used")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: labserver lti register-url --url URL [flags]\n\nMakes a registration URL for LTI Dynamic Registration: paste it into the platform (Canvas:\nDeveloper Keys, + LTI Registration; Moodle: Manage tools, Tool URL) and the platform registers\nthe class by itself. Each URL registers one platform, within --valid.\n\nflags:")
		fs.PrintDefaults()
	}
	if done, err := parseFlags(fs, args); done {
		return err
	}
	if *publicURL == "" || *valid <= 0 {
		fs.Usage()
		return exitError{2}
	}
	return withClassStore(*db, func(ctx context.Context, st *store.Store) error {
		tool, err := lti.New(ctx, lti.Config{Store: st, Clock: wallClock{}, URL: *publicURL})
		if err != nil {
			return fmt.Errorf("--url: %w", err)
		}
		u, err := tool.RegistrationURL(ctx, *valid)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "%s\n(registers one platform, until %s)\n", u, time.Now().Add(*valid).Format(time.DateTime))
		return nil
	})
}

func runLTIConfig(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("lti config", flag.ContinueOnError)
	publicURL := fs.String("url", "", "the class's public address (serve's --public-url), e.g. https://lab.example.edu")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: labserver lti config --url URL\n\nPrints the class's side of an LTI 1.3 registration: its URLs, the JSON of a Canvas developer\nkey and the fields of Moodle's manual tool configuration.\n\nflags:")
		fs.PrintDefaults()
	}
	if done, err := parseFlags(fs, args); done {
		return err
	}
	if *publicURL == "" {
		fs.Usage()
		return exitError{2}
	}
	return printToolConfig(out, *publicURL)
}

// printToolConfig prints what a platform's administrator types in.
func printToolConfig(out io.Writer, base string) error {
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || strings.Trim(u.Path, "/") != "" {
		return fmt.Errorf("--url %q: want the class's address, such as https://lab.example.edu", base)
	}
	base = u.Scheme + "://" + u.Host
	key, err := lti.CanvasKey(base)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "\nThe class's LTI 1.3 addresses:\n  OIDC login initiation  %s\n  redirect URI (launch)  %s\n  public keyset (JWKS)   %s\n",
		base+lti.LoginPath, base+lti.LaunchPath, base+lti.JWKSPath)
	fmt.Fprintf(out, "\nCanvas (Admin > Developer Keys > + LTI Key > Method: Paste JSON):\n%s\n\nMoodle (Site administration > Plugins > Activity modules > External tool > Manage tools > configure a tool manually):\n", key)
	for _, f := range lti.MoodleFields(base) {
		fmt.Fprintf(out, "  %-46s %s\n", f[0], f[1])
	}
	return nil
}

// onStore runs an lti subcommand that takes only --db: fn with the store.
func onStore(name string, args []string, fn func(context.Context, *store.Store) error) error {
	fs := flag.NewFlagSet("lti "+name, flag.ContinueOnError)
	db := fs.String("db", dbDefault(), dbUsage)
	if done, err := parseFlags(fs, args); done {
		return err
	}
	return withClassStore(*db, fn)
}

func runLTIList(args []string, out io.Writer) error {
	return onStore("list", args, func(ctx context.Context, st *store.Store) error {
		ps, err := st.LTIPlatforms(ctx)
		if err != nil {
			return err
		}
		if len(ps) == 0 {
			fmt.Fprintln(out, "no platform registered (labserver lti add-platform registers one)")
		}
		for _, p := range ps {
			fmt.Fprintf(out, "%d %s issuer=%s client-id=%s deployments=%s login=%s token=%s jwks=%s\n",
				p.ID, p.Name, p.Issuer, p.ClientID, strings.Join(p.Deployments, ","), p.AuthLoginURL, p.TokenURL, p.JWKSURL)
		}
		return nil
	})
}

func runLTIRotate(args []string, out io.Writer) error {
	return onStore("rotate-key", args, func(ctx context.Context, st *store.Store) error {
		// The address is not needed to make a key: any valid one will do.
		tool, err := lti.New(ctx, lti.Config{Store: st, Clock: wallClock{}, URL: "https://localhost"})
		if err != nil {
			return err
		}
		if _, err := tool.Rotate(ctx); err != nil {
			return err
		}
		set, err := tool.JWKS(ctx)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "the class now signs with key %s; %d keys are published at %s\n", set.Keys[0].KeyID, len(set.Keys), lti.JWKSPath)
		return nil
	})
}
