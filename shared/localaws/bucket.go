package localaws

import (
	"context"
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
)

// EnsureBucket creates the bucket if it is missing and allows browser POST uploads from origins
// (the local panel), as the CDK stack does for the CloudFront origin.
func EnsureBucket(ctx context.Context, client *s3.Client, name string, origins []string) error {
	_, err := client.HeadBucket(ctx, &s3.HeadBucketInput{Bucket: aws.String(name)})
	if err != nil {
		var notFound *types.NotFound
		if !errors.As(err, &notFound) {
			return fmt.Errorf("localaws: head bucket %s: %w", name, err)
		}
		if _, err := client.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: aws.String(name)}); err != nil {
			return fmt.Errorf("localaws: create bucket %s: %w", name, err)
		}
	}
	if len(origins) == 0 {
		return nil
	}
	_, err = client.PutBucketCors(ctx, &s3.PutBucketCorsInput{Bucket: aws.String(name), CORSConfiguration: &types.CORSConfiguration{
		CORSRules: []types.CORSRule{{AllowedMethods: []string{"POST"}, AllowedOrigins: origins, AllowedHeaders: []string{"*"}, MaxAgeSeconds: aws.Int32(600)}},
	}})
	if err != nil {
		return fmt.Errorf("localaws: bucket cors %s: %w", name, err)
	}
	return nil
}
