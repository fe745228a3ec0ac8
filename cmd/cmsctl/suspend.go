package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/campuscms/panel/shared/tenants"
)

func init() {
	for _, c := range []struct {
		name, usage string
		suspend     bool
	}{
		{"tenant suspend", "  cmsctl tenant suspend --id ID   (the panel refuses sign-in and every token; the website and public API answer 503 with Retry-After; nothing is deleted)", true},
		{"tenant resume", "  cmsctl tenant resume --id ID    (undoes suspend)", false},
	} {
		commands[c.name] = command{usage: c.usage, run: func(ctx context.Context, e env, args []string, out io.Writer) error {
			fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
			fs.SetOutput(io.Discard)
			id := fs.String("id", "", "tenant id")
			if err := fs.Parse(args); err != nil || *id == "" {
				return fmt.Errorf("usage:\n%s", c.usage)
			}
			was, err := tenants.SetSuspended(ctx, e.st, *id, c.suspend)
			if err != nil {
				return err
			}
			state := map[bool]string{true: "suspended", false: "active"}
			if was == c.suspend {
				fmt.Fprintf(out, "tenant %s was already %s\n", *id, state[c.suspend])
				return nil
			}
			fmt.Fprintf(out, "tenant %s is %s\n", *id, state[c.suspend])
			return nil
		}}
	}
}
