package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"

	"github.com/campuscms/panel/shared/awsclient/s3client"
	"github.com/campuscms/panel/shared/secrets"
	_ "github.com/campuscms/panel/shared/secrets/kmssealer" // KMS_KEY_ID: the deployed stack's sealer
	"github.com/campuscms/panel/shared/tenants"
)

const (
	exportUsage = "  cmsctl tenant export --id ID --out FILE   (every item and media object of the tenant into one tar with a manifest and checksums, signed with the deployment's key (KMS_KEY_ID or SECRETS_KEY, as the auth function's); run it again to resume)"
	importUsage = "  cmsctl tenant import --archive FILE --id NEWID [--trust-unsigned] [--max-entries N]\n" +
		"                                 (checks the archive, then writes it under a new tenant id, never over anything; counters recounted, two-factor keys resealed;\n" +
		"                                 domains and sessions not carried. An archive is untrusted: an item, index key or file of another tenant's, a host lookup,\n" +
		"                                 an entry over its size limit or more than N entries (default 200000) refuse it, and so does a signature missing or not\n" +
		"                                 made with this deployment's key, unless --trust-unsigned says you trust where it came from, e.g. another deployment)"
)

// archiveKey is the deployment's key that signs and checks archives, or nil and why not. Without
// KMS_KEY_ID or SECRETS_KEY, secrets.FromEnv falls back to the development key, which is in the
// source: anyone can sign with it, so against real AWS (no AWS_ENDPOINT_URL) it neither signs
// nor vouches for an archive.
func archiveKey(e env) (secrets.Sealer, string, error) {
	sealer, err := secrets.FromEnv(e.aws)
	if err != nil {
		return nil, "", err
	}
	if os.Getenv("KMS_KEY_ID") == "" && os.Getenv("SECRETS_KEY") == "" && os.Getenv("AWS_ENDPOINT_URL") == "" {
		return nil, "neither KMS_KEY_ID nor SECRETS_KEY is set (run with the auth function's)", nil
	}
	return sealer, "", nil
}

func init() {
	commands["tenant export"] = command{usage: exportUsage, run: func(ctx context.Context, e env, args []string, out io.Writer) error {
		fs := flag.NewFlagSet("tenant export", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		id := fs.String("id", "", "tenant id")
		file := fs.String("out", "", "archive file")
		if err := fs.Parse(args); err != nil || *id == "" || *file == "" {
			return fmt.Errorf("usage:\n%s", exportUsage)
		}
		key, why, err := archiveKey(e)
		if err != nil {
			return err
		}
		m, err := tenants.Export{St: e.st, S3: s3client.New(e.aws), Bucket: e.cfg.MediaBucket, Tenant: *id, Out: *file, Sealer: key}.Run(ctx)
		if err != nil {
			return fmt.Errorf("%w\nrun the same command again to resume", err)
		}
		fmt.Fprintf(out, "tenant %s exported to %s: %d items, %d media objects (%d bytes), %d entries with SHA-256 in manifest.json\n",
			*id, *file, m.Items, m.Objects, m.ObjectBytes, len(m.Entries))
		if key != nil {
			fmt.Fprintln(out, "the manifest is signed with this deployment's key (manifest.sig): an import here checks it")
		} else {
			fmt.Fprintf(out, "the archive is NOT signed: %s; importing it will need --trust-unsigned\n", why)
		}
		return nil
	}}
	commands["tenant import"] = command{usage: importUsage, run: func(ctx context.Context, e env, args []string, out io.Writer) error {
		fs := flag.NewFlagSet("tenant import", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		id := fs.String("id", "", "the new tenant id")
		file := fs.String("archive", "", "archive file")
		trust := fs.Bool("trust-unsigned", false, "import an archive this deployment did not sign: you trust where it came from")
		maxEntries := fs.Int("max-entries", tenants.DefaultMaxEntries, "the most entries an archive may have")
		if err := fs.Parse(args); err != nil || *id == "" || *file == "" || *maxEntries < 1 {
			return fmt.Errorf("usage:\n%s", importUsage)
		}
		// The deployment's key (KMS_KEY_ID or SECRETS_KEY, as the auth Lambda's) checks the
		// archive's signature and moves two-factor keys to the new tenant.
		key, why, err := archiveKey(e)
		if err != nil {
			return err
		}
		res, err := tenants.Import{St: e.st, S3: s3client.New(e.aws), Bucket: e.cfg.MediaBucket, Archive: *file, Tenant: *id, Sealer: key,
			TrustUnsigned: *trust, MaxEntries: *maxEntries}.Run(ctx)
		if err != nil {
			if why != "" {
				return fmt.Errorf("%w\n(no deployment key: %s)", err, why)
			}
			return err
		}
		fmt.Fprintf(out, "tenant %s imported from %s: %d items, %d media objects, %d counters recounted (%d as archived)\n",
			*id, res.From, res.Items, res.Objects, res.Counters, res.CountersCopied)
		if res.Signed {
			fmt.Fprintln(out, "its signature checked: the archive is as this deployment exported it")
		} else {
			fmt.Fprintf(out, "not signed by this deployment (%s): imported because of --trust-unsigned\n", res.Unsigned)
		}
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
