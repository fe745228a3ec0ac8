// Package awsclient builds AWS SDK clients that work the same against AWS, LocalStack and moto.
package awsclient

import (
	"context"
	"errors"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/smithy-go/middleware"
)

// Local reports whether AWS_ENDPOINT_URL points the SDK at an emulator.
func Local() bool { return os.Getenv("AWS_ENDPOINT_URL") != "" }

// Load returns the SDK configuration from the environment, which is all a Lambda function has:
// AWS_REGION and the execution role's keys (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY,
// AWS_SESSION_TOKEN, fixed for the life of the sandbox), and AWS_ENDPOINT_URL for an emulator.
// It does not link the SDK's config package and its provider chain (shared files, SSO, STS,
// IMDS): that chain's packages cost every cold start about 1.5 ms, more than the whole
// hello-world init, to find what the environment already says. Tools that run with a
// developer's profile (cmsctl against AWS) use the full chain (cmd/cmsctl).
// Against an emulator, region and keys fall back to us-east-1 and static test keys.
func Load(ctx context.Context) (aws.Config, error) {
	cfg := aws.Config{Region: firstEnv("AWS_REGION", "AWS_DEFAULT_REGION")}
	key, secret := os.Getenv("AWS_ACCESS_KEY_ID"), os.Getenv("AWS_SECRET_ACCESS_KEY")
	if Local() {
		cfg.BaseEndpoint = aws.String(os.Getenv("AWS_ENDPOINT_URL"))
		if cfg.Region == "" {
			cfg.Region = "us-east-1"
		}
		if key == "" {
			key, secret = "test", "test"
		}
	}
	if cfg.Region == "" || key == "" || secret == "" {
		return aws.Config{}, errors.New("awsclient: AWS_REGION, AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY must be set (Lambda sets them), or AWS_ENDPOINT_URL for an emulator")
	}
	cfg.Credentials = aws.NewCredentialsCache(credentials.NewStaticCredentialsProvider(key, secret, os.Getenv("AWS_SESSION_TOKEN")))
	if rt, ok := ctx.Value(transportKey{}).(http.RoundTripper); ok {
		cfg.HTTPClient = &http.Client{Transport: rt}
	}
	return cfg, nil
}

func firstEnv(keys ...string) string {
	for _, k := range keys {
		if v := os.Getenv(k); v != "" {
			return v
		}
	}
	return ""
}

// DynamoOptions returns the DynamoDB client options: against an emulator, a middleware fills in
// the GSI IndexArn that moto leaves out of DescribeTable (guregu/dynamo reads it and would panic).
func DynamoOptions() []func(*dynamodb.Options) {
	return []func(*dynamodb.Options){func(o *dynamodb.Options) {
		// The SDK's service-specific endpoint variable, which its config package used to read:
		// DynamoDB on one emulator, S3 on another (bench/list.sh runs the lists on dynalite).
		if v := os.Getenv("AWS_ENDPOINT_URL_DYNAMODB"); v != "" {
			o.BaseEndpoint = aws.String(v)
		}
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

// Endpoint is where a service's calls go when it is not AWS's own: AWS_ENDPOINT_URL_{SERVICE}
// (the SDK's service-specific variable, e.g. AWS_ENDPOINT_URL_S3), else the configuration's base
// endpoint (AWS_ENDPOINT_URL), else "" (AWS's regional endpoint, which the caller knows).
func Endpoint(cfg aws.Config, service string) string {
	if v := os.Getenv("AWS_ENDPOINT_URL_" + service); v != "" {
		return strings.TrimRight(v, "/")
	}
	if cfg.BaseEndpoint != nil {
		return strings.TrimRight(*cfg.BaseEndpoint, "/")
	}
	return ""
}

// HTTPClient is the client the clients that speak a service's protocol themselves
// (secrets/kmssealer, s3rest) send with: the configuration's (the tests' fault injector) or one
// with a 10 s timeout (a Lambda's whole budget).
func HTTPClient(cfg aws.Config) *http.Client {
	if c, ok := cfg.HTTPClient.(*http.Client); ok && c != nil {
		return c
	}
	return &http.Client{Timeout: 10 * time.Second}
}
