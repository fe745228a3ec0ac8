package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/campuscms/panel/shared/tenants"
)

func init() {
	commands["user reset-2fa"] = command{
		usage: "  cmsctl user reset-2fa --tenant ID --username USER   (turns the user's two-factor sign-in off and ends their sessions; where required, they set it up again at the next sign-in)",
		run: func(ctx context.Context, e env, args []string, out io.Writer) error {
			fs := flag.NewFlagSet("user reset-2fa", flag.ContinueOnError)
			fs.SetOutput(io.Discard)
			tenant := fs.String("tenant", "", "tenant id")
			username := fs.String("username", "", "username")
			if err := fs.Parse(args); err != nil || *tenant == "" || *username == "" {
				return fmt.Errorf("usage:\n%s", commands["user reset-2fa"].usage)
			}
			if err := tenants.ResetTwoFactor(ctx, e.st, *tenant, *username); err != nil {
				return err
			}
			fmt.Fprintf(out, "two-factor sign-in of %s in %s is off; their sessions have ended\n", *username, *tenant)
			return nil
		},
	}
}
