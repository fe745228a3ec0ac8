package store

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/campuscms/panel/shared/awsclient"
)

// client is the SDK's DynamoDB client as guregu/dynamo sees it (its dynamodbiface.DynamoDBAPI):
// the operations it calls, each calling the client's own. guregu/dynamo takes the client as an
// interface; handing it the SDK's *dynamodb.Client itself would make that type one "used in an
// interface", and a program that may call methods by name through reflection (any that renders
// html/template: the website) then keeps every exported method of it, the other forty-odd
// DynamoDB operations with their serialisers and types (0.6 MB of the website's code, mapped at
// every cold start). This type has the client's fields, not its methods (a *client is never a
// *dynamodb.Client in an interface), so only these eighteen are linked.
type client dynamodb.Client

func (c *client) CreateTable(ctx context.Context, in *dynamodb.CreateTableInput, opts ...func(*dynamodb.Options)) (*dynamodb.CreateTableOutput, error) {
	return (*dynamodb.Client)(c).CreateTable(ctx, in, opts...)
}

func (c *client) ListTables(ctx context.Context, in *dynamodb.ListTablesInput, opts ...func(*dynamodb.Options)) (*dynamodb.ListTablesOutput, error) {
	return (*dynamodb.Client)(c).ListTables(ctx, in, opts...)
}

func (c *client) ListGlobalTables(ctx context.Context, in *dynamodb.ListGlobalTablesInput, opts ...func(*dynamodb.Options)) (*dynamodb.ListGlobalTablesOutput, error) {
	return (*dynamodb.Client)(c).ListGlobalTables(ctx, in, opts...)
}

func (c *client) DescribeTable(ctx context.Context, in *dynamodb.DescribeTableInput, opts ...func(*dynamodb.Options)) (*dynamodb.DescribeTableOutput, error) {
	return (*dynamodb.Client)(c).DescribeTable(ctx, in, opts...)
}

func (c *client) UpdateTable(ctx context.Context, in *dynamodb.UpdateTableInput, opts ...func(*dynamodb.Options)) (*dynamodb.UpdateTableOutput, error) {
	return (*dynamodb.Client)(c).UpdateTable(ctx, in, opts...)
}

func (c *client) TransactGetItems(ctx context.Context, in *dynamodb.TransactGetItemsInput, opts ...func(*dynamodb.Options)) (*dynamodb.TransactGetItemsOutput, error) {
	return (*dynamodb.Client)(c).TransactGetItems(ctx, in, opts...)
}

func (c *client) BatchGetItem(ctx context.Context, in *dynamodb.BatchGetItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.BatchGetItemOutput, error) {
	return (*dynamodb.Client)(c).BatchGetItem(ctx, in, opts...)
}

func (c *client) BatchWriteItem(ctx context.Context, in *dynamodb.BatchWriteItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error) {
	return (*dynamodb.Client)(c).BatchWriteItem(ctx, in, opts...)
}

func (c *client) GetItem(ctx context.Context, in *dynamodb.GetItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	return (*dynamodb.Client)(c).GetItem(ctx, in, opts...)
}

func (c *client) DeleteItem(ctx context.Context, in *dynamodb.DeleteItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.DeleteItemOutput, error) {
	return (*dynamodb.Client)(c).DeleteItem(ctx, in, opts...)
}

func (c *client) PutItem(ctx context.Context, in *dynamodb.PutItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error) {
	return (*dynamodb.Client)(c).PutItem(ctx, in, opts...)
}

func (c *client) UpdateItem(ctx context.Context, in *dynamodb.UpdateItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error) {
	return (*dynamodb.Client)(c).UpdateItem(ctx, in, opts...)
}

func (c *client) UpdateTimeToLive(ctx context.Context, in *dynamodb.UpdateTimeToLiveInput, opts ...func(*dynamodb.Options)) (*dynamodb.UpdateTimeToLiveOutput, error) {
	return (*dynamodb.Client)(c).UpdateTimeToLive(ctx, in, opts...)
}

func (c *client) DescribeTimeToLive(ctx context.Context, in *dynamodb.DescribeTimeToLiveInput, opts ...func(*dynamodb.Options)) (*dynamodb.DescribeTimeToLiveOutput, error) {
	return (*dynamodb.Client)(c).DescribeTimeToLive(ctx, in, opts...)
}

func (c *client) Query(ctx context.Context, in *dynamodb.QueryInput, opts ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	return (*dynamodb.Client)(c).Query(ctx, in, opts...)
}

func (c *client) Scan(ctx context.Context, in *dynamodb.ScanInput, opts ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error) {
	return (*dynamodb.Client)(c).Scan(ctx, in, opts...)
}

func (c *client) DeleteTable(ctx context.Context, in *dynamodb.DeleteTableInput, opts ...func(*dynamodb.Options)) (*dynamodb.DeleteTableOutput, error) {
	return (*dynamodb.Client)(c).DeleteTable(ctx, in, opts...)
}

// unansweredAsks is how many more times a transaction whose outcome is unknown is sent again.
const unansweredAsks = 2

// TransactWriteItems runs a transaction. When the SDK's last attempt went unanswered (a 5xx, a
// broken connection: DynamoDB may have applied it) and the transaction carries a
// ClientRequestToken (store.WriteTx), it is sent again with the same token, up to twice more:
// DynamoDB answers a token it applied in the last ten minutes with that success rather than
// applying it again, and applies one it never saw. Either way the caller learns the outcome,
// instead of reporting a failure for a write that was made (the user would redo it, and the audit
// log and history would hold a change nobody was told was saved).
func (c *client) TransactWriteItems(ctx context.Context, in *dynamodb.TransactWriteItemsInput, opts ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	out, err := (*dynamodb.Client)(c).TransactWriteItems(ctx, in, opts...)
	for ask := 0; ask < unansweredAsks && in.ClientRequestToken != nil && awsclient.Unanswered(err) && ctx.Err() == nil; ask++ {
		out, err = (*dynamodb.Client)(c).TransactWriteItems(ctx, in, opts...)
	}
	return out, err
}
