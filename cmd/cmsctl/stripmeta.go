package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/campuscms/panel/shared/awsclient/s3rest"
	"github.com/campuscms/panel/shared/media"
	"github.com/campuscms/panel/shared/store"
	"github.com/campuscms/panel/shared/tenants"
)

const stripUsage = "  cmsctl media strip-metadata --tenant ID | --all   (one-off: strips EXIF/GPS, XMP, IPTC, comments and text chunks from image originals uploaded before confirmation did, in place; safe to stop and run again)"

func init() {
	commands["media strip-metadata"] = command{usage: stripUsage, run: func(ctx context.Context, e env, args []string, out io.Writer) error {
		fs := flag.NewFlagSet("media strip-metadata", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		tenant := fs.String("tenant", "", "tenant id")
		all := fs.Bool("all", false, "every tenant")
		if err := fs.Parse(args); err != nil || (*tenant == "") == !*all {
			return fmt.Errorf("usage:\n%s", stripUsage)
		}
		ids := []string{*tenant}
		if *all {
			list, err := tenants.List(ctx, e.st)
			if err != nil {
				return err
			}
			ids = ids[:0]
			for _, t := range list {
				ids = append(ids, t.ID)
			}
		}
		stripper := media.NewStripper(e.st, s3rest.New(e.aws), e.cfg.MediaBucket)
		for _, id := range ids {
			scope, err := store.NewScope(id)
			if err != nil {
				return err
			}
			rep, err := stripper.Tenant(ctx, scope, func(r media.StripReport) {
				if r.Images > 0 {
					fmt.Fprintf(out, "tenant %s: %d images so far\n", id, r.Images)
				}
			})
			if err != nil {
				return fmt.Errorf("tenant %s: %w\nstopped part way: run the same command again to go on", id, err)
			}
			fmt.Fprintf(out, "tenant %s: %d images checked, %d originals stripped (%d bytes less), %d unreadable and %d missing left as they are\n",
				id, rep.Images, rep.Stripped, rep.Saved, rep.Unreadable, rep.Missing)
		}
		return nil
	}}
}
