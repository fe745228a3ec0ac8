// Command hello is the baseline of the Lambda init benchmark: the smallest aws-lambda-go
// function, built with the same flags as every group's bootstrap, so bench/lambda-init.sh can
// print each group's init time and size as a ratio to what the runtime itself costs.
package main

import (
	"context"

	"github.com/aws/aws-lambda-go/lambda"
)

func main() {
	lambda.Start(func(ctx context.Context, event map[string]any) (string, error) { return "hello", nil })
}
