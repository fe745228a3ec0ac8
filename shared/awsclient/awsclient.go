// Package awsclient builds AWS SDK clients that work the same against AWS, LocalStack and moto.
package awsclient

import (
	"context"
	"fmt"
	"net/http"
	"os"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsconfig "github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/smithy-go/middleware"
)

// Local reports whether AWS_ENDPOINT_URL points the SDK at an emulator.
func Local() bool { return os.Getenv("AWS_ENDPOINT_URL") != "" }

// Load returns the SDK configuration. Against an emulator (AWS_ENDPOINT_URL set) it falls back to
// region us-east-1 and static test credentials so no AWS account is needed.
func Load(ctx context.Context) (aws.Config, error) {
	var opts []func(*awsconfig.LoadOptions) error
	if Local() {
		if os.Getenv("AWS_REGION") == "" && os.Getenv("AWS_DEFAULT_REGION") == "" {
			opts = append(opts, awsconfig.WithRegion("us-east-1"))
		}
		if os.Getenv("AWS_ACCESS_KEY_ID") == "" {
			opts = append(opts, awsconfig.WithCredentialsProvider(credentials.NewStaticCredentialsProvider("test", "test", "")))
		}
		os.Setenv("AWS_EC2_METADATA_DISABLED", "true")
	}
	cfg, err := awsconfig.LoadDefaultConfig(ctx, opts...)
	if err != nil {
		return aws.Config{}, fmt.Errorf("awsclient: load config: %w", err)
	}
	if rt, ok := ctx.Value(transportKey{}).(http.RoundTripper); ok {
		cfg.HTTPClient = &http.Client{Transport: rt}
	}
	return cfg, nil
}

// DynamoOptions returns the DynamoDB client options: against an emulator, a middleware fills in
// the GSI IndexArn that moto leaves out of DescribeTable (guregu/dynamo reads it and would panic).
func DynamoOptions() []func(*dynamodb.Options) {
	return []func(*dynamodb.Options){func(o *dynamodb.Options) {
		if Local() {
			// moto's CRC32 header does not always match the body it sends.
			o.DisableValidateResponseChecksum = true
		}
		o.Retryer = newDynamoRetryer()
		o.APIOptions = append(o.APIOptions, func(stack *middleware.Stack) error {
			if err := stack.Initialize.Add(countCalls, middleware.Before); err != nil {
				return err
			}
			return stack.Initialize.Add(fillIndexArn, middleware.After)
		})
	}}
}

var fillIndexArn = middleware.InitializeMiddlewareFunc("FillIndexArn",
	func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
		out, md, err := next.HandleInitialize(ctx, in)
		if desc, ok := out.Result.(*dynamodb.DescribeTableOutput); ok && desc.Table != nil && desc.Table.TableArn != nil {
			for i, gsi := range desc.Table.GlobalSecondaryIndexes {
				if gsi.IndexArn == nil && gsi.IndexName != nil {
					desc.Table.GlobalSecondaryIndexes[i].IndexArn = aws.String(*desc.Table.TableArn + "/index/" + *gsi.IndexName)
				}
			}
		}
		return out, md, err
	})
