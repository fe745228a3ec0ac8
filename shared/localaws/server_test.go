package localaws_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptrace"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"

	"github.com/campuscms/panel/shared/ids"
)

// These tests hold the emulator's own server (moto_http.py: connections kept open) and patches 6
// to 8 of moto_patches.py (an item measured once, update expressions parsed once, DynamoDB calls
// without Flask) to what moto answered before them.

// apiCode is the DynamoDB error code of err ("" if none), and its message.
func apiCode(err error) (string, string) {
	var api smithy.APIError
	if errors.As(err, &api) {
		return api.ErrorCode(), api.ErrorMessage()
	}
	return "", ""
}

// isCode says whether err is a DynamoDB error with that code.
func isCode(err error, code string) bool {
	got, _ := apiCode(err)
	return got == code
}

func TestTheItemSizeLimitHolds(t *testing.T) {
	table := newTable(t)
	ctx := context.Background()
	big := func(n int) types.AttributeValue { return s(strings.Repeat("x", n)) }
	fits := key("p", "fits")
	for i := range 4 {
		fits["a"+strconv.Itoa(i)] = big(90_000) // 360 KB
	}
	put(t, table, fits)

	over := key("p", "over")
	for i := range 5 {
		over["a"+strconv.Itoa(i)] = big(90_000) // 450 KB
	}
	_, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: over})
	if code, msg := apiCode(err); code != "ValidationException" || !strings.Contains(msg, "Item size has exceeded the maximum allowed size") {
		t.Fatalf("a 450 KB item: got %v, want moto's item size error", err)
	}
	if got := get(t, table, "p", "over"); got != nil {
		t.Fatalf("the refused item was stored: %d attributes", len(got))
	}

	// Growing a stored item past the limit is refused too, and leaves it as it was.
	_, err = db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName: aws.String(table), Key: key("p", "fits"),
		UpdateExpression:          aws.String("SET a9 = :v"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":v": big(60_000)},
	})
	if code, msg := apiCode(err); code != "ValidationException" || !strings.Contains(msg, "Item size to update has exceeded the maximum allowed size") {
		t.Fatalf("an update past the limit: got %v, want moto's update size error", err)
	}
	if got := get(t, table, "p", "fits"); len(got) != 6 {
		t.Fatalf("the item after a refused update has %d attributes, want 6", len(got))
	}
}

func TestOneUpdateExpressionOnManyItems(t *testing.T) {
	table := newTable(t)
	ctx := context.Background()
	// The same text each time (its parse is kept), each with its own values.
	for i, x := range []string{"one", "two", "three"} {
		_, err := db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
			TableName: aws.String(table), Key: key("p", x),
			UpdateExpression:          aws.String("SET #x = :x ADD n :n"),
			ExpressionAttributeNames:  map[string]string{"#x": "x"},
			ExpressionAttributeValues: map[string]types.AttributeValue{":x": s(x), ":n": &types.AttributeValueMemberN{Value: strconv.Itoa(i + 1)}},
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for i, x := range []string{"one", "two", "three"} {
		got := get(t, table, "p", x)
		n, _ := got["n"].(*types.AttributeValueMemberN)
		if str(got["x"]) != x || n == nil || n.Value != strconv.Itoa(i+1) {
			t.Fatalf("item %s: x=%s n=%v", x, str(got["x"]), got["n"])
		}
	}
	// A bad expression is refused every time (errors are not kept).
	for range 2 {
		_, err := db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
			TableName: aws.String(table), Key: key("p", "one"), UpdateExpression: aws.String("SET x = = :x"),
			ExpressionAttributeValues: map[string]types.AttributeValue{":x": s("y")},
		})
		if !isCode(err, "ValidationException") {
			t.Fatalf("a malformed update expression: got %v, want ValidationException", err)
		}
	}
}

// call sends one request to the emulator on client and says whether it went over a connection
// already used; it fails the test on a status other than want.
func call(t *testing.T, client *http.Client, method, path string, body io.Reader, header http.Header, want int) (reused bool, res *http.Response, data []byte) {
	t.Helper()
	req, err := http.NewRequest(method, strings.TrimRight(os.Getenv("AWS_ENDPOINT_URL"), "/")+path, body)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		req.Header[k] = v
	}
	req = req.WithContext(httptrace.WithClientTrace(req.Context(), &httptrace.ClientTrace{
		GotConn: func(info httptrace.GotConnInfo) { reused = info.Reused },
	}))
	res, err = client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if data, err = io.ReadAll(res.Body); err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != want {
		t.Fatalf("%s %s: status %d, want %d: %s", method, path, res.StatusCode, want, data)
	}
	return reused, res, data
}

func TestConnectionsAreKeptOpen(t *testing.T) {
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1}}
	defer client.CloseIdleConnections()
	dynamo := http.Header{"X-Amz-Target": {"DynamoDB_20120810.ListTables"}, "Content-Type": {"application/x-amz-json-1.0"}}
	if _, res, _ := call(t, client, "POST", "/", strings.NewReader("{}"), dynamo, 200); res.Close {
		t.Fatal("the emulator closed the connection after a response")
	}
	// A body sent in chunks, one announced with Expect: 100-continue, an S3 object written and read,
	// a HEAD (its length without a body) and an error: each leaves the connection usable.
	chunked := io.MultiReader(strings.NewReader(`{"Li`), strings.NewReader(`mit": 5}`)) // no length: sent chunked
	if reused, _, data := call(t, client, "POST", "/", chunked, dynamo, 200); !reused || !strings.Contains(string(data), "TableNames") {
		t.Fatalf("a chunked body: reused=%v, answer %s", reused, data)
	}
	expect := http.Header{"Expect": {"100-continue"}, "Content-Type": {"application/x-amz-json-1.0"}, "X-Amz-Target": dynamo["X-Amz-Target"]}
	if reused, _, _ := call(t, client, "POST", "/", strings.NewReader("{}"), expect, 200); !reused {
		t.Fatal("a request with Expect: 100-continue took a new connection")
	}
	bucket := "keepalive-" + strings.ToLower(ids.New())
	// moto answers an anonymous read of a private bucket 403, and checks no signature.
	s3 := http.Header{"Authorization": {"AWS4-HMAC-SHA256 Credential=test/20260101/us-east-1/s3/aws4_request, SignedHeaders=host, Signature=0"}}
	call(t, client, "PUT", "/"+bucket, nil, s3, 200)
	call(t, client, "PUT", "/"+bucket+"/a%20file.txt", strings.NewReader("hello, world"), s3, 200)
	reused, res, data := call(t, client, "HEAD", "/"+bucket+"/a%20file.txt", nil, s3, 200)
	if !reused || res.ContentLength != int64(len("hello, world")) || len(data) != 0 {
		t.Fatalf("HEAD: reused=%v, length %d, %d body bytes", reused, res.ContentLength, len(data))
	}
	if reused, _, data := call(t, client, "GET", "/"+bucket+"/a%20file.txt", nil, s3, 200); !reused || string(data) != "hello, world" {
		t.Fatalf("GET after HEAD: reused=%v, body %q", reused, data)
	}
	call(t, client, "GET", "/"+bucket+"/missing", nil, s3, 404)
	bad := http.Header{"X-Amz-Target": {"DynamoDB_20120810.GetItem"}, "Content-Type": {"application/x-amz-json-1.0"}}
	call(t, client, "POST", "/", strings.NewReader(`{"TableName": "no-such-table", "Key": {"PK": {"S": "x"}}}`), bad, 400)
	if reused, _, _ := call(t, client, "POST", "/", strings.NewReader("{}"), dynamo, 200); !reused {
		t.Fatal("the connection was not used again after an error")
	}
}
