// Command schedule is the scheduled-publishing job's Lambda: an EventBridge rule invokes it once
// a minute and it moves the stored schedule state of every tenant's due records, and purges what
// expired trash entries held back (shared/schedule). It serves no route.
package main

import (
	"context"
	"fmt"
	"github.com/campuscms/panel/shared/a11ycheck"
	"maps"
	"os"
	"time"

	"github.com/aws/aws-lambda-go/lambda"

	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/forms"
	"github.com/campuscms/panel/shared/lambdamain"
	"github.com/campuscms/panel/shared/newsletter"
	"github.com/campuscms/panel/shared/pages"
	"github.com/campuscms/panel/shared/richtext"
	"github.com/campuscms/panel/shared/schedule"
)

func main() {
	job, links, err := build(context.Background())
	if err != nil {
		fmt.Fprintln(os.Stderr, "schedule:", err)
		os.Exit(1)
	}
	lambda.Start(func(ctx context.Context) (schedule.Result, error) {
		res, err := job.Run(ctx)
		fmt.Println(res)
		// Then the accessibility report's link check, within what is left of the run's time
		// (a few addresses per tenant; what is not reached is still due at the next run).
		lctx, cancel := context.WithTimeout(ctx, linkCheckBudget)
		lres, lerr := links.Run(lctx)
		cancel()
		fmt.Println(lres)
		if lerr != nil {
			fmt.Fprintln(os.Stderr, "link check:", lerr)
		}
		return res, err
	})
}

// linkCheckBudget bounds the link check of one run (the Lambda's timeout is 50 s; each address
// is given at most 10 s).
const linkCheckBudget = 20 * time.Second

// build reads the config once and links the hooks of the scheduled collections (pages' rules and
// the rich-text sanitiser a page's content needs) and of the forms, whose submissions the job
// purges when a form's trash entry expires, and of the newsletters, whose sending it runs; and
// the accessibility report's link check over the same table.
func build(ctx context.Context) (*schedule.Job, *a11ycheck.LinkChecker, error) {
	deps, err := lambdamain.Deps(ctx)
	if err != nil {
		return nil, nil, err
	}
	hooks := pages.Hooks()
	maps.Copy(hooks, forms.Hooks())
	maps.Copy(hooks, newsletter.Hooks()) // a newsletter's sending is one of the job's jobs
	job, err := schedule.FromDeps(deps, collections.Linked{Hooks: hooks, RichText: richtext.Sanitize, Observers: []collections.Observer{a11ycheck.Observe}})
	return job, a11ycheck.NewLinkChecker(deps.Store), err
}
