package testkit

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sesv2"

	"github.com/campuscms/panel/shared/ids"
	"github.com/campuscms/panel/shared/mail/awsmail"
)

// SESRequest is one SendEmail request as SES would receive it (SES v2's REST JSON), decoded.
type SESRequest struct {
	Method, Path string
	Header       http.Header
	Raw          []byte
	Body         struct {
		FromEmailAddress     string
		ConfigurationSetName string
		ReplyToAddresses     []string
		Destination          struct{ ToAddresses, CcAddresses, BccAddresses []string }
		Content              struct {
			Simple *struct {
				Subject struct{ Data, Charset string }
				Body    struct {
					Text *struct{ Data, Charset string }
					Html *struct{ Data, Charset string }
				}
				Headers []struct{ Name, Value string }
			}
			Raw *struct{ Data []byte }
		}
		EmailTags []struct{ Name, Value string }
	}
}

// MessageHeader returns the value of a header of the Simple content; "" when absent.
func (r SESRequest) MessageHeader(name string) string {
	if r.Body.Content.Simple == nil {
		return ""
	}
	for _, h := range r.Body.Content.Simple.Headers {
		if h.Name == name {
			return h.Value
		}
	}
	return ""
}

// Tag returns the value of an email tag; "" when absent.
func (r SESRequest) Tag(name string) string {
	for _, t := range r.Body.EmailTags {
		if t.Name == name {
			return t.Value
		}
	}
	return ""
}

// SESStandIn is a stand-in for SES's API (SendEmail only): it records what the SDK sends and
// answers as SES does, or with the error a test sets.
type SESStandIn struct {
	URL  string
	mu   sync.Mutex
	reqs []SESRequest
	// fail, when set, is the status and error code every request is answered with.
	failStatus int
	failCode   string
}

// SES starts a stand-in for SES's API for the test (closed when it ends).
func SES(t testing.TB) *SESStandIn {
	t.Helper()
	s := &SESStandIn{}
	srv := httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(srv.Close)
	s.URL = srv.URL
	return s
}

func (s *SESStandIn) serve(w http.ResponseWriter, r *http.Request) {
	raw, _ := io.ReadAll(r.Body)
	req := SESRequest{Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone(), Raw: raw}
	_ = json.Unmarshal(raw, &req.Body)
	s.mu.Lock()
	s.reqs = append(s.reqs, req)
	status, code := s.failStatus, s.failCode
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	if r.Method != http.MethodPost || r.URL.Path != "/v2/email/outbound-emails" {
		status, code = http.StatusNotFound, "NotFoundException"
	}
	if status != 0 {
		w.Header().Set("X-Amzn-ErrorType", code)
		w.WriteHeader(status)
		fmt.Fprintf(w, `{"message":"stand-in: %s"}`, code)
		return
	}
	fmt.Fprintf(w, `{"MessageId":"%s"}`, "0100"+ids.New())
}

// Fail makes every later request fail with status and SES's error code (e.g. 400
// "MessageRejected", 429 "TooManyRequestsException"); 0 answers normally again.
func (s *SESStandIn) Fail(status int, code string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failStatus, s.failCode = status, code
}

// Requests returns what the stand-in received so far.
func (s *SESStandIn) Requests() []SESRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]SESRequest(nil), s.reqs...)
}

// Sender is the SES sender of the test binary's AWS configuration (its keys and region),
// pointed at the stand-in, sending through configSet; the SDK does not retry, so each send is
// one request.
func (s *SESStandIn) Sender(t testing.TB, configSet string) *awsmail.SES {
	t.Helper()
	return awsmail.NewSES(Deps(t).AWS, configSet, func(o *sesv2.Options) {
		o.BaseEndpoint = aws.String(s.URL)
		o.RetryMaxAttempts = 1
	})
}
