package wpimport

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"

	"github.com/campuscms/panel/shared/app"
	"github.com/campuscms/panel/shared/auth"
	"github.com/campuscms/panel/shared/awsclient/s3rest"
	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/media"
	"github.com/campuscms/panel/shared/store"
)

// QueueEnv names the environment variable holding the import queue's URL (set in AWS, where the
// import function takes its messages).
const QueueEnv = "WPIMPORT_QUEUE_URL"

// Message is a queue message: the job to run.
type Message struct {
	Tenant string `json:"tenant"`
	ID     string `json:"id"`
}

// StarterOf is the process's Starter: the queue's where WPIMPORT_QUEUE_URL is set (AWS), else
// one that runs the job in this process (the local server, the tests).
func StarterOf(d *app.Deps) (Starter, error) {
	return app.Shared(d, StarterKey, func() (Starter, error) {
		if url := os.Getenv(QueueEnv); url != "" {
			return &QueueStarter{client: sqs.NewFromConfig(d.AWS), url: url}, nil
		}
		return &LocalStarter{deps: d}, nil
	})
}

// QueueStarter sends a job to the import queue.
type QueueStarter struct {
	client *sqs.Client
	url    string
}

func (q *QueueStarter) Start(ctx context.Context, tenant, id string) error {
	body, _ := json.Marshal(Message{Tenant: tenant, ID: id})
	_, err := q.client.SendMessage(ctx, &sqs.SendMessageInput{QueueUrl: aws.String(q.url), MessageBody: aws.String(string(body))})
	if err != nil {
		return fmt.Errorf("wpimport: queue the import: %w", err)
	}
	return nil
}

// LocalStarter runs a job in a goroutine of this process, a minute at a time as the function
// would, until it is done.
type LocalStarter struct {
	deps *app.Deps
}

func (l *LocalStarter) Start(_ context.Context, tenant, id string) error {
	svc, err := collections.BuiltService(l.deps)
	if err != nil {
		return err
	}
	rn := NewRunner(l.deps, svc, NewWeb())
	go func() {
		ctx := context.Background()
		for {
			more, err := rn.Run(ctx, tenant, id, time.Now().Add(time.Minute))
			if err != nil {
				rn.Log.Error("wordpress import", "tenant", tenant, "job", id, "err", err)
				return
			}
			if !more {
				return
			}
		}
	}()
	return nil
}

// NewRunner is a Runner over the process's services: the collections engine svc (linked with
// every collection's hooks), the media library in the media bucket, exports read from it.
func NewRunner(d *app.Deps, svc *collections.Service, files Files) *Runner {
	client := s3rest.New(d.AWS)
	lib := media.NewService(d.Store, client, d.Config.MediaBucket, d.Config.MediaUploadURL, d.Guard)
	if d.Config.DeriveImagesInBackground {
		lib.DeriveInBackground(media.NewDeriver(d.Store, client, d.Config.MediaBucket, d.Log), d.Log)
	}
	log := d.Log
	if log == nil {
		log = slog.Default()
	}
	return &Runner{
		Importer: &Importer{Svc: svc, Media: lib, MediaPrefix: d.Config.ObjectURLPrefix, Files: files},
		Store:    d.Store,
		Open: func(ctx context.Context, key string) (io.ReadCloser, error) {
			return client.Get(ctx, d.Config.MediaBucket, key, 0, -1)
		},
		Users: func(ctx context.Context, scope store.Scope, id string) (*auth.User, error) {
			var u auth.User
			if err := d.Store.Get(ctx, store.Key{PK: scope.Collection("users"), SK: id}, &u); err != nil {
				return nil, err
			}
			if !u.Status {
				return nil, errors.New("their account is disabled")
			}
			return &u, nil
		},
		Log: log,
	}
}
