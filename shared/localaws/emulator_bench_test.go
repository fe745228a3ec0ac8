package localaws_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// BenchmarkEmulator measures the emulator's own cost, over HTTP, as the table grows: a 10-item
// transaction (record, counter, version, audit entry and words, as a save writes), a query of
// one partition and a query of one index key (25 items each), on tables of 100 and 5,000 items of
// about 300 bytes: 25 in the queried partition, the rest spread over 50 others. bench/emulator.sh runs it against moto as released and
// as patched (moto_patches.py) and prints the growth from 100 to 5,000.
func BenchmarkEmulator(b *testing.B) {
	for _, size := range []int{100, 5000} {
		table := seededTable(b, size)
		b.Run(fmt.Sprintf("transaction10/items=%d", size), func(b *testing.B) {
			for i := 0; b.Loop(); i++ {
				var items []types.TransactWriteItem
				for j := range 10 {
					// Overwrites existing items, so the table keeps its size.
					it := padded(fmt.Sprintf("P#%d", j), fmt.Sprintf("%05d", (i*10+j)%(size-25)/50), fmt.Sprint(i))
					items = append(items, types.TransactWriteItem{Put: &types.Put{Item: it}})
				}
				if err := transact(table, items...); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("query-partition/items=%d", size), func(b *testing.B) {
			for b.Loop() {
				out, err := db.Query(context.Background(), &dynamodb.QueryInput{TableName: aws.String(table), KeyConditionExpression: aws.String("PK = :p"),
					ExpressionAttributeValues: map[string]types.AttributeValue{":p": s("P#hot")}})
				if err != nil || len(out.Items) != 25 {
					b.Fatal(err, len(out.Items))
				}
			}
		})
		b.Run(fmt.Sprintf("query-index/items=%d", size), func(b *testing.B) {
			for b.Loop() {
				out, err := db.Query(context.Background(), &dynamodb.QueryInput{TableName: aws.String(table), IndexName: aws.String("GSI1"),
					KeyConditionExpression: aws.String("GSI1PK = :g"), ExpressionAttributeValues: map[string]types.AttributeValue{":g": s("ghot")}})
				if err != nil || len(out.Items) != 25 {
					b.Fatal(err, len(out.Items))
				}
			}
		})
	}
}

// padded is an item of about 300 bytes in partition pk, listed in GSI1 under the partition's
// index key.
func padded(pk, sk, x string) map[string]types.AttributeValue {
	it := item(pk, sk, x, "g"+strings.TrimPrefix(pk, "P#"))
	it["body"] = s(strings.Repeat("w", 220))
	return it
}

func seededTable(b *testing.B, size int) string {
	b.Helper()
	table := newTable(b)
	var batch []types.WriteRequest
	flush := func() {
		if len(batch) == 0 {
			return
		}
		if _, err := db.BatchWriteItem(context.Background(), &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{table: batch}}); err != nil {
			b.Fatal(err)
		}
		batch = nil
	}
	for i := range size {
		pk, sk := fmt.Sprintf("P#%d", i%50), fmt.Sprintf("%05d", i/50)
		if i >= size-25 {
			pk, sk = "P#hot", fmt.Sprintf("%05d", i)
		}
		batch = append(batch, types.WriteRequest{PutRequest: &types.PutRequest{Item: padded(pk, sk, "0")}})
		if len(batch) == 25 {
			flush()
		}
	}
	flush()
	return table
}
