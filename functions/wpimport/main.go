// Command wpimport is the WordPress import's Lambda: the import queue's messages (each a job the
// panel's Import screen started) invoke it, and it runs the job through the collections engine,
// the media library and the menu as the staff member who started it (shared/wpimport), up to
// its time limit, then checkpoints and queues the rest. It serves no route.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-lambda-go/lambda"

	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/lambdamain"
	"github.com/campuscms/panel/shared/modules"
	"github.com/campuscms/panel/shared/wpimport"
)

func main() {
	deps, err := lambdamain.Deps(context.Background())
	if err != nil {
		fmt.Fprintln(os.Stderr, "wpimport:", err)
		os.Exit(1)
	}
	reg, err := collections.Load()
	if err != nil {
		fmt.Fprintln(os.Stderr, "wpimport:", err)
		os.Exit(1)
	}
	starter, err := wpimport.StarterOf(deps)
	if err != nil {
		fmt.Fprintln(os.Stderr, "wpimport:", err)
		os.Exit(1)
	}
	// Every collection's hooks: an import writes pages, notices and redirects as the panel does.
	rn := wpimport.NewRunner(deps, collections.NewService(deps.Store, deps.Guard, reg, modules.Linked()), wpimport.NewWeb())
	lambda.Start(func(ctx context.Context, batch events.SQSEvent) (events.SQSEventResponse, error) {
		return wpimport.HandleQueue(ctx, rn, starter, batch)
	})
}
