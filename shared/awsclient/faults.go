package awsclient

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
)

// Faults is an http.RoundTripper for tests that stands between the SDK clients and the emulator
// and answers chosen calls the way AWS does when it is busy or refuses: throttling, transaction
// conflicts and cancellations, S3 403s. moto never produces these, so without it the code paths
// that handle them would go untested. It is activated only through WithTransport, which only
// tests call; production clients never see it.
//
// It also emulates DynamoDB's idempotency tokens, which moto ignores: a TransactWriteItems that
// repeats a ClientRequestToken already answered with success gets that success again without
// being applied twice (DynamoDB keeps tokens for 10 minutes).
type Faults struct {
	next   http.RoundTripper
	mu     sync.Mutex
	faults []*Fault
	calls  []Call
	done   map[string]cachedResponse
	// quiet stops keeping calls (a long load run would keep every body).
	quiet bool
}

// Quiet stops the injector from keeping the calls it sees (Count and Calls then see nothing new).
func (f *Faults) Quiet(quiet bool) {
	f.mu.Lock()
	f.quiet = quiet
	f.mu.Unlock()
}

// Fault is one injected answer. It applies to calls of Service ("dynamodb" or "s3") and Op (the
// DynamoDB action such as "TransactWriteItems", or for S3 "HeadObject", "GetObject",
// "CopyObject", "DeleteObject"; empty: any) whose DynamoDB body or S3 path contains Match (a
// tenant id scopes a fault to one test).
type Fault struct {
	Service, Op, Match string
	// Times is how many matching calls get the fault; 0 means every one.
	Times int
	// Status and Code are the HTTP status and AWS error code answered (e.g. 400
	// "ProvisionedThroughputExceededException", 403 "AccessDenied").
	Status int
	Code   string
	// Reasons are the cancellation reasons of a TransactionCanceledException, one per item.
	Reasons []string
	// LoseResponse forwards the call, then answers 500 as if the response had been lost on the
	// way back: the write happened, the caller does not know it.
	LoseResponse bool
	// Rate, when above 0, is the share of matching calls that get the fault, at random (the load
	// benchmark's throttling and conflicts); 0 means every matching call.
	Rate float64
	hits int
}

// Call is one request the transport saw.
type Call struct {
	Service, Op, Token string
	Body               string
}

type cachedResponse struct {
	status int
	header http.Header
	body   []byte
}

type transportKey struct{}

// WithTransport returns a context that makes Load build clients sending every request through rt.
// Only tests use it (with a *Faults).
func WithTransport(ctx context.Context, rt http.RoundTripper) context.Context {
	return context.WithValue(ctx, transportKey{}, rt)
}

// NewFaults returns a fault injector forwarding to next (http.DefaultTransport if nil).
func NewFaults(next http.RoundTripper) *Faults {
	if next == nil {
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.MaxIdleConnsPerHost = 64
		next = t
	}
	return &Faults{next: next, done: map[string]cachedResponse{}}
}

// Inject adds a fault and returns the function that removes it.
func (f *Faults) Inject(ft Fault) (remove func()) {
	p := &ft
	f.mu.Lock()
	f.faults = append(f.faults, p)
	f.mu.Unlock()
	return func() {
		f.mu.Lock()
		defer f.mu.Unlock()
		for i, x := range f.faults {
			if x == p {
				f.faults = append(f.faults[:i], f.faults[i+1:]...)
				return
			}
		}
	}
}

// Count returns how many calls of service and op (empty: any) mentioning match were seen.
func (f *Faults) Count(service, op, match string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := 0
	for _, c := range f.calls {
		if c.Service == service && (op == "" || c.Op == op) && strings.Contains(c.Body, match) {
			n++
		}
	}
	return n
}

// Calls returns the calls seen that mention match.
func (f *Faults) Calls(match string) []Call {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []Call
	for _, c := range f.calls {
		if strings.Contains(c.Body, match) {
			out = append(out, c)
		}
	}
	return out
}

// RoundTrip implements http.RoundTripper.
func (f *Faults) RoundTrip(req *http.Request) (*http.Response, error) {
	call, err := describe(req)
	if err != nil {
		return nil, err
	}
	f.mu.Lock()
	if !f.quiet {
		f.calls = append(f.calls, call)
	}
	var hit *Fault
	for _, ft := range f.faults {
		if ft.Service == call.Service && (ft.Op == "" || ft.Op == call.Op) && strings.Contains(call.Body, ft.Match) &&
			(ft.Times == 0 || ft.hits < ft.Times) && (ft.Rate <= 0 || rand.Float64() < ft.Rate) {
			ft.hits++
			hit = ft
			break
		}
	}
	cached, replay := f.done[call.Token]
	f.mu.Unlock()
	if replay && call.Token != "" {
		return cached.response(req), nil
	}
	if hit != nil && !hit.LoseResponse {
		return hit.response(req), nil
	}
	res, err := f.next.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	if call.Token != "" && res.StatusCode == http.StatusOK {
		body, err := io.ReadAll(res.Body)
		res.Body.Close()
		if err != nil {
			return nil, err
		}
		f.mu.Lock()
		f.done[call.Token] = cachedResponse{status: res.StatusCode, header: res.Header.Clone(), body: body}
		f.mu.Unlock()
		res.Body = io.NopCloser(bytes.NewReader(body))
	}
	if hit != nil { // LoseResponse: the write is done, the answer never arrives
		res.Body.Close()
		return (&Fault{Service: call.Service, Status: http.StatusInternalServerError, Code: "InternalServerError"}).response(req), nil
	}
	return res, nil
}

// describe reads what a request is: its service, operation, body (DynamoDB) or path (S3), and
// its idempotency token.
func describe(req *http.Request) (Call, error) {
	if target := req.Header.Get("X-Amz-Target"); strings.HasPrefix(target, "DynamoDB_") {
		var body []byte
		if req.Body != nil {
			var err error
			if body, err = io.ReadAll(req.Body); err != nil {
				return Call{}, err
			}
			req.Body.Close()
			req.Body = io.NopCloser(bytes.NewReader(body))
		}
		c := Call{Service: "dynamodb", Op: target[strings.IndexByte(target, '.')+1:], Body: string(body)}
		if c.Op == "TransactWriteItems" {
			var in struct{ ClientRequestToken string }
			_ = json.Unmarshal(body, &in)
			c.Token = in.ClientRequestToken
		}
		return c, nil
	}
	op := map[string]string{http.MethodHead: "HeadObject", http.MethodGet: "GetObject", http.MethodDelete: "DeleteObject", http.MethodPut: "PutObject"}[req.Method]
	if req.Header.Get("X-Amz-Copy-Source") != "" {
		op = "CopyObject"
	}
	return Call{Service: "s3", Op: op, Body: req.URL.Path}, nil
}

func (c cachedResponse) response(req *http.Request) *http.Response {
	return &http.Response{StatusCode: c.status, Status: http.StatusText(c.status), Header: c.header.Clone(),
		Body: io.NopCloser(bytes.NewReader(c.body)), ContentLength: int64(len(c.body)), Request: req,
		Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1}
}

// response builds the error answer AWS would send: JSON for DynamoDB, XML for S3 (no body for
// HEAD, as S3 sends none).
func (ft *Fault) response(req *http.Request) *http.Response {
	h := http.Header{}
	var body []byte
	if ft.Service == "dynamodb" {
		h.Set("Content-Type", "application/x-amz-json-1.0")
		e := map[string]any{"__type": "com.amazonaws.dynamodb.v20120810#" + ft.Code, "message": "injected: " + ft.Code}
		if len(ft.Reasons) > 0 {
			reasons := make([]map[string]string, len(ft.Reasons))
			for i, r := range ft.Reasons {
				reasons[i] = map[string]string{"Code": r}
			}
			e["CancellationReasons"] = reasons
			e["Message"] = fmt.Sprintf("Transaction cancelled, please refer cancellation reasons for specific reasons %v", ft.Reasons)
			delete(e, "message")
		}
		body, _ = json.Marshal(e)
	} else if req.Method != http.MethodHead {
		h.Set("Content-Type", "application/xml")
		body = []byte(fmt.Sprintf(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>%s</Code><Message>injected</Message><RequestId>fault</RequestId></Error>`, ft.Code))
	}
	return cachedResponse{status: ft.Status, header: h, body: body}.response(req)
}
