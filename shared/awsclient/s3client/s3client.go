// Package s3client builds the S3 client, apart from awsclient so that groups that never touch S3
// do not link (or initialise) the S3 SDK.
package s3client

import (
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/campuscms/panel/shared/awsclient"
)

// New returns an S3 client; against an emulator it uses path-style addressing.
func New(cfg aws.Config) *s3.Client {
	return s3.NewFromConfig(cfg, func(o *s3.Options) {
		if awsclient.Local() {
			// Emulators answer on one host (no virtual-hosted buckets) and do not return the
			// checksums newer SDKs validate by default.
			o.UsePathStyle = true
			o.ResponseChecksumValidation = aws.ResponseChecksumValidationWhenRequired
			o.RequestChecksumCalculation = aws.RequestChecksumCalculationWhenRequired
		}
	})
}
