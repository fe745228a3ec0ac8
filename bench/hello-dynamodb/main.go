// Command hello-dynamodb is the second baseline of the Lambda init benchmark: bench/hello plus a
// DynamoDB client built from the Lambda environment (no config package, as awsclient.Load does).
// It is the floor of any Go function that reads DynamoDB with aws-sdk-go-v2: what the SDK's
// DynamoDB package alone adds to the runtime's start (its schema tables and endpoint rules).
package main

import (
	"context"
	"os"

	"github.com/aws/aws-lambda-go/lambda"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

func main() {
	db := dynamodb.NewFromConfig(aws.Config{
		Region:      os.Getenv("AWS_REGION"),
		Credentials: credentials.NewStaticCredentialsProvider(os.Getenv("AWS_ACCESS_KEY_ID"), os.Getenv("AWS_SECRET_ACCESS_KEY"), os.Getenv("AWS_SESSION_TOKEN")),
	})
	lambda.Start(func(ctx context.Context, event map[string]any) (string, error) {
		_ = db
		return "hello", nil
	})
}
