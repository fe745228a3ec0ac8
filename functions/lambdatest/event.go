package lambdatest

import (
	"encoding/json"
	"net/url"
	"strings"
)

// EventSpec describes a request as CloudFront forwards it to the HTTP API.
type EventSpec struct {
	Method   string
	BasePath string
	// Prefix is the route-table prefix; Rest is the path below it ("" for the bare prefix route).
	Prefix, Rest string
	Query        string
	Headers      map[string]string
	Body         string
}

// NewEvent renders an API Gateway HTTP API payload 2.0 event as the $default stage delivers it
// for route ANY {base}/{prefix} or ANY {base}/{prefix}/{proxy+} behind CloudFront.
func NewEvent(s EventSpec) ([]byte, error) {
	path := s.BasePath + "/" + s.Prefix
	route := "ANY " + path
	if s.Rest != "" {
		path += "/" + strings.TrimPrefix(s.Rest, "/")
		route += "/{proxy+}"
	}
	const host = "a1b2c3d4e5.execute-api.eu-west-1.amazonaws.com"
	headers := map[string]string{
		"accept":            "application/json",
		"accept-encoding":   "gzip",
		"host":              host,
		"user-agent":        "Amazon CloudFront",
		"via":               "2.0 3c1a2b4d5e6f7a8b9c0d1e2f3a4b5c6d.cloudfront.net (CloudFront)",
		"x-amz-cf-id":       "Zx8hN3b9hQ0pS1lM0r2ABCDEFGexampleID==",
		"x-amzn-trace-id":   "Root=1-67a1b2c3-0123456789abcdef01234567",
		"x-forwarded-for":   "198.51.100.7, 130.176.0.1",
		"x-forwarded-port":  "443",
		"x-forwarded-proto": "https",
	}
	for k, v := range s.Headers {
		headers[strings.ToLower(k)] = v
	}
	ev := map[string]any{
		"version":        "2.0",
		"routeKey":       route,
		"rawPath":        path,
		"rawQueryString": s.Query,
		"headers":        headers,
		"requestContext": map[string]any{
			"accountId": "123456789012", "apiId": "a1b2c3d4e5", "domainName": host, "domainPrefix": "a1b2c3d4e5",
			"http":      map[string]any{"method": s.Method, "path": path, "protocol": "HTTP/1.1", "sourceIp": "130.176.0.1", "userAgent": "Amazon CloudFront"},
			"requestId": "Fh3kMjHLoAMEV1g=", "routeKey": route, "stage": "$default",
			"time": "21/Nov/2025:17:31:05 +0000", "timeEpoch": 1763746265123,
		},
		"isBase64Encoded": false,
	}
	if s.Rest != "" {
		ev["pathParameters"] = map[string]string{"proxy": strings.TrimPrefix(s.Rest, "/")}
	}
	if s.Query != "" {
		q, err := url.ParseQuery(s.Query)
		if err != nil {
			return nil, err
		}
		params := map[string]string{}
		for k, v := range q {
			params[k] = strings.Join(v, ",")
		}
		ev["queryStringParameters"] = params
	}
	if s.Body != "" {
		ev["body"] = s.Body
	}
	out, err := json.MarshalIndent(ev, "", "  ")
	return append(out, '\n'), err
}
