package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"sort"

	"github.com/campuscms/panel/shared/awsclient/s3client"
	"github.com/campuscms/panel/shared/secrets"
	_ "github.com/campuscms/panel/shared/secrets/kmssealer" // KMS_KEY_ID: the deployed stack's sealer
	"github.com/campuscms/panel/shared/tenants"
)

const (
	exportUsage = "  cmsctl tenant export --id ID --out FILE   (every item and media object of the tenant into one tar with a manifest and checksums; run it again to resume)"
	importUsage = "  cmsctl tenant import --archive FILE --id NEWID   (checks the archive, then writes it under a new tenant id; counters recounted, two-factor keys resealed; domains and sessions not carried)"
)

func init() {
	commands["tenant export"] = command{usage: exportUsage, run: func(ctx context.Context, e env, args []string, out io.Writer) error {
		fs := flag.NewFlagSet("tenant export", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		id := fs.String("id", "", "tenant id")
		file := fs.String("out", "", "archive file")
		if err := fs.Parse(args); err != nil || *id == "" || *file == "" {
			return fmt.Errorf("usage:\n%s", exportUsage)
		}
		m, err := tenants.Export{St: e.st, S3: s3client.New(e.aws), Bucket: e.cfg.MediaBucket, Tenant: *id, Out: *file}.Run(ctx)
		if err != nil {
			return fmt.Errorf("%w\nrun the same command again to resume", err)
		}
		fmt.Fprintf(out, "tenant %s exported to %s: %d items, %d media objects (%d bytes), %d entries with SHA-256 in manifest.json\n",
			*id, *file, m.Items, m.Objects, m.ObjectBytes, len(m.Entries))
		return nil
	}}
	commands["tenant import"] = command{usage: importUsage, run: func(ctx context.Context, e env, args []string, out io.Writer) error {
		fs := flag.NewFlagSet("tenant import", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		id := fs.String("id", "", "the new tenant id")
		file := fs.String("archive", "", "archive file")
		if err := fs.Parse(args); err != nil || *id == "" || *file == "" {
			return fmt.Errorf("usage:\n%s", importUsage)
		}
		// The deployment's sealer (KMS_KEY_ID or SECRETS_KEY, as the auth Lambda's) moves
		// two-factor keys to the new tenant.
		sealer, err := secrets.FromEnv(e.aws)
		if err != nil {
			return err
		}
		res, err := tenants.Import{St: e.st, S3: s3client.New(e.aws), Bucket: e.cfg.MediaBucket, Archive: *file, Tenant: *id, Sealer: sealer}.Run(ctx)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "tenant %s imported from %s: %d items, %d media objects, %d counters recounted (%d as archived)\n",
			*id, res.From, res.Items, res.Objects, res.Counters, res.CountersCopied)
		kinds := make([]string, 0, len(res.Skipped))
		for k := range res.Skipped {
			kinds = append(kinds, k)
		}
		sort.Strings(kinds)
		for _, k := range kinds {
			fmt.Fprintf(out, "not carried over: %d %s items\n", res.Skipped[k], k)
		}
		if res.TwoFactorMoved > 0 {
			fmt.Fprintf(out, "%d users keep two-factor sign-in (their keys were resealed for %s)\n", res.TwoFactorMoved, *id)
		}
		if res.TwoFactorResets > 0 {
			fmt.Fprintf(out, "%d users set up two-factor sign-in again (their keys did not open: run the import with the auth function's KMS_KEY_ID or SECRETS_KEY to keep them)\n", res.TwoFactorResets)
		}
		fmt.Fprintf(out, "its website domains were not carried over: attach them with cmsctl tenant set-domains --id %s\n", *id)
		return nil
	}}
}
