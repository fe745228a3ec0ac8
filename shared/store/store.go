// Package store is the single-table DynamoDB access shared by every group, built on guregu/dynamo.
package store

import (
	"context"
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/guregu/dynamo/v2"

	"github.com/campuscms/panel/shared/awsclient"
)

// ErrNotFound is returned when a record does not exist (in the caller's tenant).
var ErrNotFound = errors.New("store: not found")

// ErrConflict is returned when a condition failed: a unique value is taken or a version is stale.
var ErrConflict = errors.New("store: conflict")

// ErrBusy is returned when DynamoDB stayed too busy (throttling, transaction conflicts) through
// every retry: the caller may try again; nothing was written.
var ErrBusy = errors.New("store: busy")

// Store is the table handle every group shares.
type Store struct {
	DB    *dynamo.DB
	Table dynamo.Table
	// eventual makes the reads that ask Consistent (Get, GetMany, and the queries other packages
	// build with it) eventually consistent: see Eventual.
	eventual bool
}

// Eventual returns a handle on the same table whose reads are eventually consistent: half the
// read capacity of a strongly consistent read, and a write shows in them within about a second.
// The public website's reads take it (they sit behind a 30-second cache, so they never promise a
// write shows at once); the panel's own reads, which follow its writes, keep strong consistency.
func (s *Store) Eventual() *Store {
	c := *s
	c.eventual = true
	return &c
}

// Consistent reports whether reads through s are strongly consistent, for the queries a package
// builds itself (Query's Consistent(st.Consistent())).
func (s *Store) Consistent() bool { return !s.eventual }

// New opens the table named name with the given SDK configuration.
func New(cfg aws.Config, name string) *Store {
	db := dynamo.NewFromIface((*client)(dynamodb.NewFromConfig(cfg, awsclient.DynamoOptions()...)))
	return &Store{DB: db, Table: db.Table(name)}
}

// Get reads one item by key into out, strongly consistent unless s is Eventual; ErrNotFound if
// it does not exist.
func (s *Store) Get(ctx context.Context, k Key, out any) error {
	err := s.Table.Get("PK", k.PK).Range("SK", dynamo.Equal, k.SK).Consistent(s.Consistent()).One(ctx, out)
	return Wrap("get "+k.PK+" "+k.SK, err)
}

// Wrap maps guregu/dynamo's errors to the store's sentinels, with context.
func Wrap(op string, err error) error {
	switch {
	case err == nil:
		return nil
	case IsBusy(err):
		return fmt.Errorf("store: %s: %w: %w", op, ErrBusy, err)
	case errors.Is(err, dynamo.ErrNotFound):
		return fmt.Errorf("store: %s: %w", op, ErrNotFound)
	case dynamo.IsCondCheckFailed(err):
		// The cause stays in the chain: CondFailedAt reads which item's condition failed.
		return fmt.Errorf("store: %s: %w (%w)", op, ErrConflict, err)
	default:
		return fmt.Errorf("store: %s: %w", op, err)
	}
}

// Indexes are the table's global secondary indexes, each keyed {name}PK/{name}SK (strings) and
// projecting every attribute: GSI1 lists by updatedAt, GSI2 by name (and prefix search), GSI3 is
// the sparse facet index (unread notifications, media by type). See shared/listing and the
// README's key layout. infra/lib/data.ts declares the same three.
var Indexes = []string{"GSI1", "GSI2", "GSI3"}

// EnsureTable creates the table (PK/SK, the Indexes, TTL on expiresAt, on-demand) if it is missing.
// It is for local runs and ops tooling; in the cloud the CDK stack owns the table.
func (s *Store) EnsureTable(ctx context.Context) error {
	client := s.DB.Client()
	name := s.Table.Name()
	_, err := client.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)})
	if err == nil {
		return nil
	}
	var missing *types.ResourceNotFoundException
	if !errors.As(err, &missing) {
		return fmt.Errorf("store: describe table %s: %w", name, err)
	}
	str := types.ScalarAttributeTypeS
	attrs := []types.AttributeDefinition{
		{AttributeName: aws.String("PK"), AttributeType: str},
		{AttributeName: aws.String("SK"), AttributeType: str},
	}
	var gsis []types.GlobalSecondaryIndex
	for _, ix := range Indexes {
		attrs = append(attrs,
			types.AttributeDefinition{AttributeName: aws.String(ix + "PK"), AttributeType: str},
			types.AttributeDefinition{AttributeName: aws.String(ix + "SK"), AttributeType: str})
		gsis = append(gsis, types.GlobalSecondaryIndex{
			IndexName: aws.String(ix),
			KeySchema: []types.KeySchemaElement{
				{AttributeName: aws.String(ix + "PK"), KeyType: types.KeyTypeHash},
				{AttributeName: aws.String(ix + "SK"), KeyType: types.KeyTypeRange},
			},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll},
		})
	}
	_, err = client.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:            aws.String(name),
		BillingMode:          types.BillingModePayPerRequest,
		AttributeDefinitions: attrs,
		KeySchema: []types.KeySchemaElement{
			{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash},
			{AttributeName: aws.String("SK"), KeyType: types.KeyTypeRange},
		},
		GlobalSecondaryIndexes: gsis,
	})
	if err != nil {
		return fmt.Errorf("store: create table %s: %w", name, err)
	}
	if err := s.Table.Wait(ctx); err != nil {
		return fmt.Errorf("store: wait for table %s: %w", name, err)
	}
	_, err = client.UpdateTimeToLive(ctx, &dynamodb.UpdateTimeToLiveInput{
		TableName:               aws.String(name),
		TimeToLiveSpecification: &types.TimeToLiveSpecification{AttributeName: aws.String("expiresAt"), Enabled: aws.Bool(true)},
	})
	if err != nil {
		return fmt.Errorf("store: enable ttl on %s: %w", name, err)
	}
	return nil
}

// MaxTransactionItems is DynamoDB's limit on the actions of one transaction.
const MaxTransactionItems = 100

// WriteTx starts a write transaction carrying its own ClientRequestToken. The SDK fills one in per
// call too, but one per transaction value means that running the same transaction again after
// an unclear failure (a timeout after DynamoDB applied it) is answered with its success instead
// of being judged again: its own conditions would fail and a write that happened would read as
// a conflict.
func (s *Store) WriteTx() *dynamo.WriteTx { return s.DB.WriteTx().Idempotent(true) }

// IsBusy reports whether err means DynamoDB was too busy to answer (after the SDK's retries):
// throttling or a transaction conflict. The API answers it 503, never 500.
func IsBusy(err error) bool { return errors.Is(err, ErrBusy) || awsclient.IsBusy(err) }

// IsNotFound reports whether err is (or wraps) ErrNotFound.
func IsNotFound(err error) bool { return errors.Is(err, ErrNotFound) }

// CondFailedAt reports whether the write transaction failed because the condition of its
// index-th item (0-based, in the order the items were added) did not hold.
func CondFailedAt(err error, index int) bool {
	var txe *types.TransactionCanceledException
	if !errors.As(err, &txe) || index >= len(txe.CancellationReasons) {
		return false
	}
	code := txe.CancellationReasons[index].Code
	return code != nil && *code == "ConditionalCheckFailed"
}
