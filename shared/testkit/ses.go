package testkit

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sesv2"

	"github.com/campuscms/panel/shared/ids"
	"github.com/campuscms/panel/shared/mail/awsmail"
)

// SESRequest is one request as SES would receive it (SES v2's REST JSON), decoded: SendEmail,
// or one of the identity operations (Op names it).
type SESRequest struct {
	Method, Path string
	// Op is the operation: SendEmail, CreateEmailIdentity, GetEmailIdentity or
	// PutEmailIdentityConfigurationSetAttributes ("" for any other request, answered 404).
	Op     string
	Header http.Header
	Raw    []byte
	Body   struct {
		// EmailIdentity, Tags and DkimSigningAttributes are CreateEmailIdentity's;
		// ConfigurationSetName is also SendEmail's and PutEmailIdentityConfigurationSetAttributes'.
		EmailIdentity         string
		Tags                  []struct{ Key, Value string }
		DkimSigningAttributes *struct {
			NextSigningKeyLength                           string
			DomainSigningSelector, DomainSigningPrivateKey string
		}
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

// SESStandIn is a stand-in for SES's API: SendEmail, and the domain identities of
// CreateEmailIdentity, GetEmailIdentity and PutEmailIdentityConfigurationSetAttributes. It
// records what the SDK sends and answers as SES does, or with the error a test sets.
type SESStandIn struct {
	URL  string
	mu   sync.Mutex
	reqs []SESRequest
	// fail, when set, is the status and error code every request is answered with; failOp the
	// same for one operation.
	failStatus int
	failCode   string
	failOp     map[string]sesFailure
	identities map[string]*SESIdentity
}

type sesFailure struct {
	status int
	code   string
}

// SESIdentity is a domain identity the stand-in holds, as GetEmailIdentity reports it.
type SESIdentity struct {
	// Verified is VerifiedForSendingStatus; DKIMStatus DkimAttributes.Status (PENDING when new).
	Verified   bool
	DKIMStatus string
	// Tokens are Easy DKIM's three tokens (made up when the stand-in creates the identity).
	Tokens []string
	// ConfigurationSet is the identity's default configuration set.
	ConfigurationSet string
	Tags             map[string]string
	// MailFromDomain, MailFromStatus: a custom MAIL FROM domain, when set.
	MailFromDomain, MailFromStatus string
	// Type is the IdentityType (DOMAIN unless set).
	Type string
}

// SES starts a stand-in for SES's API for the test (closed when it ends).
func SES(t testing.TB) *SESStandIn {
	t.Helper()
	s := &SESStandIn{failOp: map[string]sesFailure{}, identities: map[string]*SESIdentity{}}
	srv := httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(srv.Close)
	s.URL = srv.URL
	return s
}

const identitiesPath = "/v2/email/identities"

// sesOp names the operation of a request and the identity it is about.
func sesOp(r *http.Request) (op, identity string) {
	p := r.URL.Path
	switch {
	case r.Method == http.MethodPost && p == "/v2/email/outbound-emails":
		return "SendEmail", ""
	case r.Method == http.MethodPost && p == identitiesPath:
		return "CreateEmailIdentity", ""
	case strings.HasPrefix(p, identitiesPath+"/"):
		rest := strings.TrimPrefix(p, identitiesPath+"/")
		name, sub, _ := strings.Cut(rest, "/")
		if name, err := url.PathUnescape(name); err == nil {
			switch {
			case r.Method == http.MethodGet && sub == "":
				return "GetEmailIdentity", name
			case r.Method == http.MethodPut && sub == "configuration-set":
				return "PutEmailIdentityConfigurationSetAttributes", name
			}
		}
	}
	return "", ""
}

func (s *SESStandIn) serve(w http.ResponseWriter, r *http.Request) {
	raw, _ := io.ReadAll(r.Body)
	op, name := sesOp(r)
	req := SESRequest{Method: r.Method, Path: r.URL.Path, Op: op, Header: r.Header.Clone(), Raw: raw}
	_ = json.Unmarshal(raw, &req.Body)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reqs = append(s.reqs, req)
	w.Header().Set("Content-Type", "application/json")
	fail := func(status int, code string) {
		w.Header().Set("X-Amzn-ErrorType", code)
		w.WriteHeader(status)
		fmt.Fprintf(w, `{"message":"stand-in: %s"}`, code)
	}
	if f, ok := s.failOp[op]; ok {
		fail(f.status, f.code)
		return
	}
	if s.failStatus != 0 {
		fail(s.failStatus, s.failCode)
		return
	}
	switch op {
	case "SendEmail":
		fmt.Fprintf(w, `{"MessageId":"%s"}`, "0100"+ids.New())
	case "CreateEmailIdentity":
		b := req.Body
		if _, ok := s.identities[b.EmailIdentity]; ok {
			fail(http.StatusBadRequest, "AlreadyExistsException")
			return
		}
		id := &SESIdentity{DKIMStatus: "PENDING", ConfigurationSet: b.ConfigurationSetName, Tags: map[string]string{}}
		for range 3 {
			id.Tokens = append(id.Tokens, strings.ToLower(ids.New()))
		}
		for _, t := range b.Tags {
			id.Tags[t.Key] = t.Value
		}
		s.identities[b.EmailIdentity] = id
		_ = json.NewEncoder(w).Encode(map[string]any{"IdentityType": "DOMAIN", "VerifiedForSendingStatus": false, "DkimAttributes": id.dkim()})
	case "GetEmailIdentity":
		id, ok := s.identities[name]
		if !ok {
			fail(http.StatusNotFound, "NotFoundException")
			return
		}
		out := map[string]any{"IdentityType": cmp.Or(id.Type, "DOMAIN"), "VerifiedForSendingStatus": id.Verified,
			"VerificationStatus": map[bool]string{true: "SUCCESS", false: "PENDING"}[id.Verified], "DkimAttributes": id.dkim()}
		if id.ConfigurationSet != "" {
			out["ConfigurationSetName"] = id.ConfigurationSet
		}
		var tags []map[string]string
		for k, v := range id.Tags {
			tags = append(tags, map[string]string{"Key": k, "Value": v})
		}
		out["Tags"] = tags
		if id.MailFromDomain != "" {
			out["MailFromAttributes"] = map[string]string{"MailFromDomain": id.MailFromDomain,
				"MailFromDomainStatus": cmp.Or(id.MailFromStatus, "PENDING"), "BehaviorOnMxFailure": "USE_DEFAULT_VALUE"}
		}
		_ = json.NewEncoder(w).Encode(out)
	case "PutEmailIdentityConfigurationSetAttributes":
		id, ok := s.identities[name]
		if !ok {
			fail(http.StatusNotFound, "NotFoundException")
			return
		}
		id.ConfigurationSet = req.Body.ConfigurationSetName
		fmt.Fprint(w, `{}`)
	default:
		fail(http.StatusNotFound, "NotFoundException")
	}
}

func (id *SESIdentity) dkim() map[string]any {
	return map[string]any{"SigningEnabled": true, "Status": id.DKIMStatus, "Tokens": id.Tokens,
		"SigningAttributesOrigin": "AWS_SES", "NextSigningKeyLength": "RSA_2048_BIT", "CurrentSigningKeyLength": "RSA_2048_BIT"}
}

// Identity returns a copy of the stand-in's identity of domain.
func (s *SESStandIn) Identity(domain string) (SESIdentity, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	id, ok := s.identities[domain]
	if !ok {
		return SESIdentity{}, false
	}
	return *id, true
}

// PutIdentity gives the stand-in an identity of domain, as if made elsewhere (nil tags and tokens
// are filled in).
func (s *SESStandIn) PutIdentity(domain string, id SESIdentity) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if id.Tags == nil {
		id.Tags = map[string]string{}
	}
	if id.Tokens == nil {
		for range 3 {
			id.Tokens = append(id.Tokens, strings.ToLower(ids.New()))
		}
	}
	id.DKIMStatus = cmp.Or(id.DKIMStatus, "PENDING")
	s.identities[domain] = &id
}

// Verify marks the identity of domain verified, as SES does once it finds the DKIM records.
func (s *SESStandIn) Verify(domain string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if id, ok := s.identities[domain]; ok {
		id.Verified, id.DKIMStatus = true, "SUCCESS"
	}
}

// Fail makes every later request fail with status and SES's error code (e.g. 400
// "MessageRejected", 429 "TooManyRequestsException"); 0 answers normally again.
func (s *SESStandIn) Fail(status int, code string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failStatus, s.failCode = status, code
}

// FailOp makes every later request of one operation (SESRequest.Op) fail with status and SES's
// error code; 0 answers normally again.
func (s *SESStandIn) FailOp(op string, status int, code string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if status == 0 {
		delete(s.failOp, op)
		return
	}
	s.failOp[op] = sesFailure{status, code}
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
