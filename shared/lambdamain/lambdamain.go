// Package lambdamain is what every functions/<group>/main.go runs: config from the environment,
// the group's http.Handler, and the API Gateway v2 adapter in front of it.
package lambdamain

import (
	"context"
	"fmt"
	"net/http"
	"os"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-lambda-go/lambda"
	"github.com/awslabs/aws-lambda-go-api-proxy/httpadapter"

	"github.com/campuscms/panel/shared/app"
	"github.com/campuscms/panel/shared/config"
)

// Handler is a Lambda handler for HTTP API (payload v2) events.
type Handler func(context.Context, events.APIGatewayV2HTTPRequest) (events.APIGatewayV2HTTPResponse, error)

// New builds the Lambda handler of a group; the tests call it to drive real events through the
// same adapter the deployed function uses.
func New(ctx context.Context, group string, mods ...app.Module) (Handler, error) {
	return NewWith(ctx, func(d *app.Deps) (http.Handler, error) { return app.NewGroup(group, d, mods...) })
}

// Deps are a function's dependencies, from its environment (config.FromEnv): what every Lambda of
// the stack, API group or not (the schedule job), starts from.
func Deps(ctx context.Context) (*app.Deps, error) {
	cfg, err := config.FromEnv()
	if err != nil {
		return nil, err
	}
	return app.NewDeps(ctx, cfg)
}

// NewWith builds the Lambda handler of a group whose handler is not made of API modules (the
// website).
func NewWith(ctx context.Context, build func(*app.Deps) (http.Handler, error)) (Handler, error) {
	deps, err := Deps(ctx)
	if err != nil {
		return nil, err
	}
	h, err := build(deps)
	if err != nil {
		return nil, err
	}
	return httpadapter.NewV2(h).ProxyWithContext, nil
}

// StartWith is Start for a group built by build.
func StartWith(group string, build func(*app.Deps) (http.Handler, error)) {
	h, err := NewWith(context.Background(), build)
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", group, err)
		os.Exit(1)
	}
	lambda.Start(h)
}

// Start builds the group's handler once (at init, outside any invocation) and serves Lambda
// invocations with it. A configuration error ends the process with a clear message.
func Start(group string, mods ...app.Module) {
	h, err := New(context.Background(), group, mods...)
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", group, err)
		os.Exit(1)
	}
	lambda.Start(h)
}
