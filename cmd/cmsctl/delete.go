package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/campuscms/panel/shared/awsclient/s3client"
	"github.com/campuscms/panel/shared/tenants"
)

const deleteUsage = "  cmsctl tenant delete --id ID [--confirm ID] [--distribution ID]   (a dry run without --confirm: prints what would go; with it, removes every item, host lookup, media object and the CloudFront distribution tenant; safe to run again)"

func init() {
	commands["tenant delete"] = command{usage: deleteUsage, run: func(ctx context.Context, e env, args []string, out io.Writer) error {
		fs := flag.NewFlagSet("tenant delete", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		id := fs.String("id", "", "tenant id")
		confirm := fs.String("confirm", "", "the tenant id again, to delete for real")
		distribution := fs.String("distribution", os.Getenv("WEBSITE_DISTRIBUTION_ID"), "the websites' distribution")
		if err := fs.Parse(args); err != nil || *id == "" {
			return fmt.Errorf("usage:\n%s", deleteUsage)
		}
		d := tenants.Deletion{St: e.st, S3: s3client.New(e.aws), Bucket: e.cfg.MediaBucket, Tenant: *id}
		if *confirm == "" {
			fp, err := d.Survey(ctx)
			if err != nil {
				return err
			}
			fmt.Fprintf(out, "dry run: tenant %s would lose\n%s", *id, fp.Summary())
			if *distribution != "" {
				fmt.Fprintf(out, "CloudFront distribution tenant: %s\n", tenants.DistributionTenantName(*id))
			}
			fmt.Fprintf(out, "nothing was deleted; run again with --confirm %s to delete\n", *id)
			return nil
		}
		if *confirm != *id {
			return tenants.ErrConfirm
		}
		if *distribution != "" {
			websites := &tenants.Websites{API: cloudFront(e.aws), DistributionID: *distribution}
			state, err := websites.Sync(ctx, *id, nil)
			if err != nil {
				return fmt.Errorf("nothing was deleted: CloudFront: %w", err)
			}
			printWebsite(out, *id, state)
			if state.Action == tenants.WebsiteDisabled {
				return fmt.Errorf("the distribution tenant must finish disabling first: run the same command again in a few minutes")
			}
		}
		done, err := d.Run(ctx)
		if err != nil {
			return fmt.Errorf("%w\nstopped part way: run the same command again to finish", err)
		}
		fmt.Fprintf(out, "tenant %s deleted\n%s", *id, done.Summary())
		fmt.Fprintln(out, "its audit log went with it: keep this output as the record of the deletion")
		return nil
	}}
}
