// Command imaging is the image-variant function's Lambda: the media bucket's "object created"
// events under media/ invoke it, and it makes the resized copies of each confirmed original
// (shared/media Deriver). It serves no route. An event for any other key (a variant it wrote
// itself, a file back from the trash) is ignored; running twice for one image is harmless.
package main

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-lambda-go/lambda"

	"github.com/campuscms/panel/shared/awsclient/s3rest"
	"github.com/campuscms/panel/shared/lambdamain"
	"github.com/campuscms/panel/shared/media"
)

func main() {
	deps, err := lambdamain.Deps(context.Background())
	if err != nil {
		fmt.Fprintln(os.Stderr, "imaging:", err)
		os.Exit(1)
	}
	d := media.NewDeriver(deps.Store, s3rest.New(deps.AWS), deps.Config.MediaBucket, deps.Log)
	lambda.Start(func(ctx context.Context, ev events.S3Event) error { return handle(ctx, d, ev) })
}

// handle derives every original an event names; an error makes Lambda retry the event.
func handle(ctx context.Context, d *media.Deriver, ev events.S3Event) error {
	var errs []error
	for _, rec := range ev.Records {
		// Event keys are URL-encoded (a space is "+").
		key, err := url.QueryUnescape(rec.S3.Object.Key)
		if err != nil {
			continue
		}
		if err := d.ObjectCreated(ctx, key); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", key, err))
		}
	}
	return errors.Join(errs...)
}
