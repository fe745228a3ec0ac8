package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/campuscms/panel/shared/app"
	"github.com/campuscms/panel/shared/auth"
	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/modules"
	"github.com/campuscms/panel/shared/wpimport"
)

const importWordPressUsage = `  cmsctl tenant import-wordpress --id ID --file export.xml [--media-dir DIR] [--dry-run]
                                 (a WordPress export (Tools → Export → All content): published pages, posts as notices,
                                 attachments, the menu, a redirect from every old address; files fetched from the old
                                 site, or read from DIR, a copy of wp-content/uploads; run it again to resume or update)`

func init() {
	commands["tenant import-wordpress"] = command{usage: importWordPressUsage, run: importWordPress}
}

func importWordPress(ctx context.Context, e env, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("tenant import-wordpress", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	id := fs.String("id", "", "tenant id")
	file := fs.String("file", "", "the WordPress export (.xml)")
	mediaDir := fs.String("media-dir", "", "a copy of the site's wp-content/uploads")
	dryRun := fs.Bool("dry-run", false, "write nothing; print the report")
	if err := fs.Parse(args); err != nil || *id == "" || *file == "" {
		return fmt.Errorf("usage:\n%s", importWordPressUsage)
	}
	var files wpimport.Files = wpimport.NewWeb()
	if *mediaDir != "" {
		dir, err := wpimport.NewDir(*mediaDir)
		if err != nil {
			return err
		}
		files = dir
	}
	reg, err := collections.Load()
	if err != nil {
		return err
	}
	deps := &app.Deps{Config: e.cfg, AWS: e.aws, Store: e.st, Guard: auth.NewGuard(e.st), Log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	rn := wpimport.NewRunner(deps, collections.NewService(e.st, nil, reg, modules.Linked()), files)
	start, last := time.Now(), time.Time{}
	rn.Told = func(p wpimport.Progress) {
		if time.Since(last) >= time.Second || p.Done == p.Total {
			last = time.Now()
			fmt.Fprintf(out, "%-9s %d/%d\n", p.Phase, p.Done, p.Total)
		}
	}
	rep, err := rn.RunFile(ctx, *id, *file, *dryRun)
	if rep != nil {
		fmt.Fprint(out, rep.Text())
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "done in %s\n", time.Since(start).Round(time.Millisecond))
	return nil
}
