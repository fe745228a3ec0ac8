package localaws_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/campuscms/panel/shared/awsclient"
	"github.com/campuscms/panel/shared/ids"
	"github.com/campuscms/panel/shared/localaws"
)

// These tests hold the emulator's patched DynamoDB (moto_patches.py) to moto's own semantics:
// what a failed transaction leaves, the reasons it gives, the limits it enforces, and what a query
// on the table or an index finds after every kind of write.

var db *dynamodb.Client

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	ctx := context.Background()
	if os.Getenv("AWS_ENDPOINT_URL") == "" {
		emu, err := localaws.Start(ctx, 0)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		defer emu.Stop()
		emu.UseEndpoint()
	}
	cfg, err := awsclient.Load(ctx)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	db = dynamodb.NewFromConfig(cfg, awsclient.DynamoOptions()...)
	return m.Run()
}

// newTable makes a table shaped as ours (PK/SK, GSI1 on GSI1PK/GSI1SK), unique to the caller.
func newTable(t testing.TB) string {
	t.Helper()
	name := "emu-" + ids.New()
	str := types.ScalarAttributeTypeS
	_, err := db.CreateTable(context.Background(), &dynamodb.CreateTableInput{
		TableName:   aws.String(name),
		BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String("PK"), AttributeType: str}, {AttributeName: aws.String("SK"), AttributeType: str},
			{AttributeName: aws.String("GSI1PK"), AttributeType: str}, {AttributeName: aws.String("GSI1SK"), AttributeType: str},
		},
		KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("SK"), KeyType: types.KeyTypeRange}},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{
			IndexName:  aws.String("GSI1"),
			KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("GSI1PK"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("GSI1SK"), KeyType: types.KeyTypeRange}},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll},
		}},
	})
	if err != nil {
		t.Fatal(err)
	}
	return name
}

func s(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }

func key(pk, sk string) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{"PK": s(pk), "SK": s(sk)}
}

// item is a record with a value x and, when gsi is set, an entry in GSI1 under gsi.
func item(pk, sk, x, gsi string) map[string]types.AttributeValue {
	it := key(pk, sk)
	it["x"] = s(x)
	if gsi != "" {
		it["GSI1PK"], it["GSI1SK"] = s(gsi), s(pk+"#"+sk)
	}
	return it
}

func put(t testing.TB, table string, items ...map[string]types.AttributeValue) {
	t.Helper()
	for _, it := range items {
		if _, err := db.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String(table), Item: it}); err != nil {
			t.Fatal(err)
		}
	}
}

func get(t *testing.T, table, pk, sk string) map[string]types.AttributeValue {
	t.Helper()
	out, err := db.GetItem(context.Background(), &dynamodb.GetItemInput{TableName: aws.String(table), Key: key(pk, sk), ConsistentRead: aws.Bool(true)})
	if err != nil {
		t.Fatal(err)
	}
	return out.Item
}

// xs lists "PK/SK=x" for each item, in the order given.
func xs(items []map[string]types.AttributeValue) []string {
	var out []string
	for _, it := range items {
		out = append(out, fmt.Sprintf("%s/%s=%s", str(it["PK"]), str(it["SK"]), str(it["x"])))
	}
	return out
}

func str(v types.AttributeValue) string {
	if sv, ok := v.(*types.AttributeValueMemberS); ok {
		return sv.Value
	}
	return "<none>"
}

func queryTable(t *testing.T, table, pk string) []string {
	t.Helper()
	out, err := db.Query(context.Background(), &dynamodb.QueryInput{
		TableName: aws.String(table), KeyConditionExpression: aws.String("PK = :p"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":p": s(pk)},
	})
	if err != nil {
		t.Fatal(err)
	}
	return xs(out.Items)
}

// queryIndex reads GSI1 under gsi a page of limit at a time (0: one page), to the end.
func queryIndex(t *testing.T, table, gsi string, limit int32) []string {
	t.Helper()
	var all []map[string]types.AttributeValue
	var start map[string]types.AttributeValue
	for {
		in := &dynamodb.QueryInput{
			TableName: aws.String(table), IndexName: aws.String("GSI1"), KeyConditionExpression: aws.String("GSI1PK = :g"),
			ExpressionAttributeValues: map[string]types.AttributeValue{":g": s(gsi)}, ExclusiveStartKey: start,
		}
		if limit > 0 {
			in.Limit = aws.Int32(limit)
		}
		out, err := db.Query(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, out.Items...)
		if start = out.LastEvaluatedKey; start == nil {
			return xs(all)
		}
	}
}

func equal(t *testing.T, what string, got []string, want ...string) {
	t.Helper()
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("%s: got %v, want %v", what, got, want)
	}
}

func transact(table string, items ...types.TransactWriteItem) error {
	for i := range items {
		for _, name := range []**string{tableOf(&items[i])} {
			*name = aws.String(table)
		}
	}
	_, err := db.TransactWriteItems(context.Background(), &dynamodb.TransactWriteItemsInput{TransactItems: items})
	return err
}

func tableOf(it *types.TransactWriteItem) **string {
	switch {
	case it.Put != nil:
		return &it.Put.TableName
	case it.Update != nil:
		return &it.Update.TableName
	case it.Delete != nil:
		return &it.Delete.TableName
	default:
		return &it.ConditionCheck.TableName
	}
}

func reasons(t *testing.T, err error) []string {
	t.Helper()
	var canceled *types.TransactionCanceledException
	if !errors.As(err, &canceled) {
		t.Fatalf("want a TransactionCanceledException, got %v", err)
	}
	var codes []string
	for _, r := range canceled.CancellationReasons {
		codes = append(codes, aws.ToString(r.Code))
	}
	return codes
}

func TestFailedTransactionLeavesEveryItemAsItWas(t *testing.T) {
	table := newTable(t)
	put(t, table, item("P#1", "a", "1", "g1"), item("P#1", "b", "1", "g1"), item("P#2", "c", "1", ""))
	before := []map[string]types.AttributeValue{get(t, table, "P#1", "a"), get(t, table, "P#1", "b"), get(t, table, "P#2", "c")}

	err := transact(table,
		// Moves a to another index key and changes it.
		types.TransactWriteItem{Update: &types.Update{Key: key("P#1", "a"), UpdateExpression: aws.String("SET x = :x, GSI1PK = :g"),
			ExpressionAttributeValues: map[string]types.AttributeValue{":x": s("2"), ":g": s("g2")}}},
		types.TransactWriteItem{Put: &types.Put{Item: item("P#1", "new", "1", "g1")}},
		types.TransactWriteItem{Delete: &types.Delete{Key: key("P#1", "b")}},
		// Puts c into the index, then the last check fails.
		types.TransactWriteItem{Put: &types.Put{Item: item("P#2", "c", "2", "g2")}},
		types.TransactWriteItem{Update: &types.Update{Key: key("P#3", "created-by-update"), UpdateExpression: aws.String("SET x = :x"),
			ExpressionAttributeValues: map[string]types.AttributeValue{":x": s("1")}}},
		types.TransactWriteItem{ConditionCheck: &types.ConditionCheck{Key: key("P#9", "missing"), ConditionExpression: aws.String("attribute_exists(PK)")}},
	)
	equal(t, "reasons", reasons(t, err), "None", "None", "None", "None", "None", "ConditionalCheckFailed")

	for i, k := range [][2]string{{"P#1", "a"}, {"P#1", "b"}, {"P#2", "c"}} {
		equal(t, k[0]+"/"+k[1], xs([]map[string]types.AttributeValue{get(t, table, k[0], k[1])}), xs(before[i:i+1])...)
		if got := get(t, table, k[0], k[1]); fmt.Sprint(got["GSI1PK"]) != fmt.Sprint(before[i]["GSI1PK"]) {
			t.Errorf("%v: index attribute %v, want %v", k, got["GSI1PK"], before[i]["GSI1PK"])
		}
	}
	if get(t, table, "P#1", "new") != nil || get(t, table, "P#3", "created-by-update") != nil {
		t.Error("an item the failed transaction created is still there")
	}
	equal(t, "partition P#1", queryTable(t, table, "P#1"), "P#1/a=1", "P#1/b=1")
	equal(t, "index g1", queryIndex(t, table, "g1", 0), "P#1/a=1", "P#1/b=1")
	equal(t, "index g2", queryIndex(t, table, "g2", 0))
}

func TestConditionFailureReturnsTheItemWhenAsked(t *testing.T) {
	table := newTable(t)
	put(t, table, item("P#1", "a", "1", ""))
	err := transact(table,
		types.TransactWriteItem{Put: &types.Put{Item: item("P#1", "b", "1", "")}},
		types.TransactWriteItem{Update: &types.Update{Key: key("P#1", "a"), UpdateExpression: aws.String("SET x = :x"), ConditionExpression: aws.String("x = :old"),
			ExpressionAttributeValues:           map[string]types.AttributeValue{":x": s("3"), ":old": s("2")},
			ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld}},
	)
	equal(t, "reasons", reasons(t, err), "None", "ConditionalCheckFailed")
	var canceled *types.TransactionCanceledException
	errors.As(err, &canceled)
	equal(t, "item in the reason", xs([]map[string]types.AttributeValue{canceled.CancellationReasons[1].Item}), "P#1/a=1")
	if get(t, table, "P#1", "b") != nil {
		t.Error("the put before the failed condition was kept")
	}
}

func TestTwoOperationsOnOneItemAreRefused(t *testing.T) {
	table := newTable(t)
	put(t, table, item("P#1", "a", "1", "g1"))
	err := transact(table,
		types.TransactWriteItem{Put: &types.Put{Item: item("P#1", "b", "1", "g1")}},
		types.TransactWriteItem{Update: &types.Update{Key: key("P#1", "a"), UpdateExpression: aws.String("SET x = :x"),
			ExpressionAttributeValues: map[string]types.AttributeValue{":x": s("2")}}},
		types.TransactWriteItem{Delete: &types.Delete{Key: key("P#1", "a")}},
	)
	if !isCode(err, "ValidationException") {
		t.Fatalf("want a ValidationException, got %v", err)
	}
	equal(t, "partition", queryTable(t, table, "P#1"), "P#1/a=1")
	equal(t, "index g1", queryIndex(t, table, "g1", 0), "P#1/a=1")
}

func TestAnInvalidUpdateUndoesWhatCameBefore(t *testing.T) {
	table := newTable(t)
	err := transact(table,
		types.TransactWriteItem{Put: &types.Put{Item: item("P#1", "a", "1", "g1")}},
		// Adds a number to a string: refused while the update runs, after the put was applied.
		types.TransactWriteItem{Update: &types.Update{Key: key("P#1", "b"), UpdateExpression: aws.String("SET x = :x ADD y :s"),
			ExpressionAttributeValues: map[string]types.AttributeValue{":x": s("1"), ":s": s("text")}}},
	)
	if err == nil {
		t.Fatal("an invalid update was accepted")
	}
	equal(t, "partition", queryTable(t, table, "P#1"))
	equal(t, "index g1", queryIndex(t, table, "g1", 0))
}

func TestAHundredItemsAtMost(t *testing.T) {
	table := newTable(t)
	build := func(n int) []types.TransactWriteItem {
		var items []types.TransactWriteItem
		for i := range n {
			items = append(items, types.TransactWriteItem{Put: &types.Put{Item: item("P#1", fmt.Sprintf("%03d", i), "1", "g1")}})
		}
		return items
	}
	if err := transact(table, build(101)...); !isCode(err, "ValidationException") {
		t.Fatalf("101 items: want a ValidationException, got %v", err)
	}
	if got := queryIndex(t, table, "g1", 0); len(got) != 0 {
		t.Fatalf("101 items: %d written", len(got))
	}
	if err := transact(table, build(100)...); err != nil {
		t.Fatalf("100 items: %v", err)
	}
	if got := queryIndex(t, table, "g1", 7); len(got) != 100 {
		t.Fatalf("100 items: the index holds %d", len(got))
	}
}

func TestQueriesFindWhatEachWriteLeft(t *testing.T) {
	table := newTable(t)
	// Neighbouring partitions and index keys that must not leak into each other.
	put(t, table, item("P#1", "a", "1", "g1"), item("P#1", "b", "1", "g2"), item("P#10", "a", "1", "g1"), item("P#2", "a", "1", "g10"))
	equal(t, "P#1", queryTable(t, table, "P#1"), "P#1/a=1", "P#1/b=1")
	equal(t, "g1", queryIndex(t, table, "g1", 0), "P#1/a=1", "P#10/a=1")

	// Overwrite with another index key, an update moving one, a delete, a batch write.
	put(t, table, item("P#10", "a", "2", "g2"))
	if _, err := db.UpdateItem(context.Background(), &dynamodb.UpdateItemInput{TableName: aws.String(table), Key: key("P#1", "b"),
		UpdateExpression: aws.String("SET x = :x, GSI1PK = :g"), ExpressionAttributeValues: map[string]types.AttributeValue{":x": s("3"), ":g": s("g1")}}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.UpdateItem(context.Background(), &dynamodb.UpdateItemInput{TableName: aws.String(table), Key: key("P#2", "a"),
		UpdateExpression: aws.String("REMOVE GSI1PK")}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.DeleteItem(context.Background(), &dynamodb.DeleteItemInput{TableName: aws.String(table), Key: key("P#1", "a")}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.BatchWriteItem(context.Background(), &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{table: {
		{PutRequest: &types.PutRequest{Item: item("P#3", "a", "1", "g1")}},
		{DeleteRequest: &types.DeleteRequest{Key: key("P#10", "a")}},
	}}}); err != nil {
		t.Fatal(err)
	}
	// A committed transaction that moves one item between index keys.
	if err := transact(table, types.TransactWriteItem{Put: &types.Put{Item: item("P#3", "a", "2", "g2")}},
		types.TransactWriteItem{Put: &types.Put{Item: item("P#3", "b", "1", "g1")}}); err != nil {
		t.Fatal(err)
	}

	equal(t, "P#1", queryTable(t, table, "P#1"), "P#1/b=3")
	equal(t, "P#10", queryTable(t, table, "P#10"))
	equal(t, "g1", queryIndex(t, table, "g1", 1), "P#1/b=3", "P#3/b=1")
	equal(t, "g2", queryIndex(t, table, "g2", 1), "P#3/a=2")
	equal(t, "g10", queryIndex(t, table, "g10", 0))
}

func TestEveryAttributeTypeReadsBackAsWritten(t *testing.T) {
	table := newTable(t)
	it := key("P#1", "types")
	it["s"] = s("text é")
	it["n"] = &types.AttributeValueMemberN{Value: "12.5"}
	it["b"] = &types.AttributeValueMemberB{Value: []byte{0, 1, 2, 255}}
	it["bool"] = &types.AttributeValueMemberBOOL{Value: true}
	it["null"] = &types.AttributeValueMemberNULL{Value: true}
	it["ss"] = &types.AttributeValueMemberSS{Value: []string{"a", "b"}}
	it["ns"] = &types.AttributeValueMemberNS{Value: []string{"1", "2"}}
	it["bs"] = &types.AttributeValueMemberBS{Value: [][]byte{{1}, {2, 3}}}
	it["m"] = &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{
		"l": &types.AttributeValueMemberL{Value: []types.AttributeValue{s("x"), &types.AttributeValueMemberB{Value: []byte("gz")}, &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{}}}},
	}}
	put(t, table, it)
	want := describe(&types.AttributeValueMemberM{Value: it})
	for _, read := range []func() map[string]types.AttributeValue{
		func() map[string]types.AttributeValue { return get(t, table, "P#1", "types") },
		func() map[string]types.AttributeValue {
			out, err := db.Query(context.Background(), &dynamodb.QueryInput{TableName: aws.String(table), KeyConditionExpression: aws.String("PK = :p"),
				ExpressionAttributeValues: map[string]types.AttributeValue{":p": s("P#1")}})
			if err != nil || len(out.Items) != 1 {
				t.Fatal(err)
			}
			return out.Items[0]
		},
	} {
		if got := describe(&types.AttributeValueMemberM{Value: read()}); got != want {
			t.Errorf("read back:\n%s\nwant\n%s", got, want)
		}
	}
}

// describe writes an attribute value out, map keys sorted, so that two can be compared.
func describe(v types.AttributeValue) string {
	switch v := v.(type) {
	case *types.AttributeValueMemberM:
		keys := make([]string, 0, len(v.Value))
		for k := range v.Value {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var b strings.Builder
		b.WriteString("{")
		for _, k := range keys {
			fmt.Fprintf(&b, "%q:%s,", k, describe(v.Value[k]))
		}
		return b.String() + "}"
	case *types.AttributeValueMemberL:
		var parts []string
		for _, e := range v.Value {
			parts = append(parts, describe(e))
		}
		return "[" + strings.Join(parts, ",") + "]"
	default:
		return fmt.Sprintf("%T%+v", v, v)
	}
}
