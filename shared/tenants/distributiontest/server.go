// Package distributiontest is a stand-in for the CloudFront API's distribution tenant calls, for
// tests: an httptest server speaking CloudFront's REST-XML protocol (paths under /2020-05-31/,
// XML bodies, ETag and If-Match headers, <ErrorResponse> errors) that the real SDK client talks
// to through BaseEndpoint. It keeps tenants in memory and enforces the rules the code under test
// relies on: If-Match must carry the current ETag, names and domains are unique, only disabled
// tenants are deleted, and changed domains need a certificate that covers them.
package distributiontest

import (
	"encoding/xml"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/cloudfront"
)

// The connection groups the server knows: the stack's own and the account's default one.
const (
	GroupID         = "cg-websites"
	GroupEndpoint   = "d111111abcdef8.cloudfront.net"
	DefaultGroupID  = "cg-default"
	DefaultEndpoint = "d222222abcdef8.cloudfront.net"
)

// Tenant is a distribution tenant as the server holds it.
type Tenant struct {
	ID, Name, DistributionID, ConnectionGroupID string
	Domains                                     []string
	Enabled                                     bool
	ETag                                        string
	// Certificate is the managed certificate; nil when none was requested.
	Certificate *Certificate
}

// Certificate is a managed certificate: the domains it covers and ACM's status.
type Certificate struct {
	Domains             []string
	Status, TokenHost   string
	PrimaryDomainName   string
	TransparencyLogging string
}

// Request is one call the server received, with the body of a create or update.
type Request struct {
	Op, Method, Path, IfMatch string
	Body                      TenantRequest
}

// TenantRequest is the XML body of CreateDistributionTenant and UpdateDistributionTenant.
type TenantRequest struct {
	DistributionID            string              `xml:"DistributionId"`
	Name                      string              `xml:"Name"`
	Domains                   []string            `xml:"Domains>member>Domain"`
	Enabled                   *bool               `xml:"Enabled"`
	ConnectionGroupID         string              `xml:"ConnectionGroupId"`
	ManagedCertificateRequest *CertificateRequest `xml:"ManagedCertificateRequest"`
}

// CertificateRequest is a ManagedCertificateRequest as sent.
type CertificateRequest struct {
	ValidationTokenHost                      string `xml:"ValidationTokenHost"`
	PrimaryDomainName                        string `xml:"PrimaryDomainName"`
	CertificateTransparencyLoggingPreference string `xml:"CertificateTransparencyLoggingPreference"`
}

// Failure is an error the server answers with, as CloudFront would.
type Failure struct {
	Status        int
	Code, Message string
}

// Server is the stand-in; URL is its address for BaseEndpoint.
type Server struct {
	URL            string
	distributionID string
	mu             sync.Mutex
	tenants        []*Tenant
	requests       []Request
	failures       map[string]Failure
	etags          int
}

// New starts a server that knows one multi-tenant distribution, distributionID, and stops it
// when the test ends.
func New(t testing.TB, distributionID string) *Server {
	s := &Server{distributionID: distributionID, failures: map[string]Failure{}}
	hs := httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(hs.Close)
	s.URL = hs.URL
	return s
}

// Client is an SDK client pointed at the server, as cmsctl builds one for AWS.
func (s *Server) Client() *cloudfront.Client {
	return cloudfront.New(cloudfront.Options{
		BaseEndpoint: aws.String(s.URL),
		Region:       "us-east-1",
		Credentials:  credentials.NewStaticCredentialsProvider("test", "test", ""),
	})
}

// Fail makes every later call of op (e.g. "CreateDistributionTenant") answer f.
func (s *Server) Fail(op string, f Failure) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failures[op] = f
}

// Clear drops the failures set by Fail: every call is answered normally again.
func (s *Server) Clear() {
	s.mu.Lock()
	defer s.mu.Unlock()
	clear(s.failures)
}

// Requests are the calls received so far, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.requests)
}

// Ops are the operation names of the calls received so far, in order.
func (s *Server) Ops() []string {
	var out []string
	for _, r := range s.Requests() {
		out = append(out, r.Op)
	}
	return out
}

// Tenant returns a copy of the distribution tenant with that name.
func (s *Server) Tenant(name string) (Tenant, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if t := s.find(name); t != nil {
		return *t, true
	}
	return Tenant{}, false
}

// Put stores a distribution tenant as if made elsewhere (another stack, by hand); it gets an
// id and an ETag when they are empty.
func (s *Server) Put(t Tenant) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if t.ID == "" {
		t.ID = fmt.Sprintf("dt_%d", len(s.tenants)+1)
	}
	if t.ETag == "" {
		t.ETag = s.nextETag()
	}
	s.tenants = append(s.tenants, &t)
}

// SetCertificateStatus changes the named tenant's certificate status (ACM issuing it, or giving up).
func (s *Server) SetCertificateStatus(name, status string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if t := s.find(name); t != nil && t.Certificate != nil {
		t.Certificate.Status = status
	}
}

const api = "/2020-05-31/"

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	rest, _ := strings.CutPrefix(r.URL.Path, api)
	kind, ident, _ := strings.Cut(rest, "/")
	op := operation(r.Method, kind, ident)
	req := Request{Op: op, Method: r.Method, Path: r.URL.Path, IfMatch: r.Header.Get("If-Match")}
	if r.Method == http.MethodPost || r.Method == http.MethodPut {
		body, _ := io.ReadAll(r.Body)
		if err := xml.Unmarshal(body, &req.Body); err != nil {
			fail(w, Failure{400, "MalformedXML", err.Error()})
			return
		}
	}
	s.requests = append(s.requests, req)
	if f, ok := s.failures[op]; ok {
		fail(w, f)
		return
	}
	switch op {
	case "CreateDistributionTenant":
		s.create(w, req.Body)
	case "GetDistributionTenant":
		if t := s.find(ident); t != nil {
			s.answer(w, http.StatusOK, t)
			return
		}
		fail(w, Failure{404, "EntityNotFound", "The specified distribution tenant does not exist."})
	case "UpdateDistributionTenant":
		s.update(w, ident, req)
	case "DeleteDistributionTenant":
		s.delete(w, ident, req.IfMatch)
	case "GetConnectionGroup":
		s.connectionGroup(w, ident)
	case "GetManagedCertificateDetails":
		s.certificate(w, ident)
	default:
		fail(w, Failure{400, "InvalidAction", r.Method + " " + r.URL.Path + " is not an operation this stand-in knows"})
	}
}

func operation(method, kind, ident string) string {
	switch {
	case kind == "distribution-tenant" && ident == "" && method == http.MethodPost:
		return "CreateDistributionTenant"
	case kind == "distribution-tenant" && ident != "":
		return map[string]string{"GET": "GetDistributionTenant", "PUT": "UpdateDistributionTenant", "DELETE": "DeleteDistributionTenant"}[method]
	case kind == "connection-group" && method == http.MethodGet:
		return "GetConnectionGroup"
	case kind == "managed-certificate" && method == http.MethodGet:
		return "GetManagedCertificateDetails"
	}
	return ""
}

func (s *Server) create(w http.ResponseWriter, in TenantRequest) {
	switch {
	case in.DistributionID != s.distributionID:
		fail(w, Failure{404, "EntityNotFound", "The specified distribution does not exist."})
		return
	case in.Name == "" || len(in.Domains) == 0:
		fail(w, Failure{400, "InvalidArgument", "Name and at least one domain are required."})
		return
	case s.find(in.Name) != nil:
		fail(w, Failure{409, "EntityAlreadyExists", "A distribution tenant with this name already exists."})
		return
	}
	group := in.ConnectionGroupID
	if group == "" {
		group = DefaultGroupID
	}
	if endpoint(group) == "" {
		fail(w, Failure{404, "EntityNotFound", "The specified connection group does not exist."})
		return
	}
	t := &Tenant{ID: fmt.Sprintf("dt_%d", len(s.tenants)+1), Name: in.Name, DistributionID: in.DistributionID, ConnectionGroupID: group, Enabled: in.Enabled == nil || *in.Enabled}
	if !s.setDomains(w, t, in.Domains, in.ManagedCertificateRequest) {
		return
	}
	t.ETag = s.nextETag()
	s.tenants = append(s.tenants, t)
	s.answer(w, http.StatusCreated, t)
}

func (s *Server) update(w http.ResponseWriter, id string, req Request) {
	t := s.byID(id)
	if t == nil {
		fail(w, Failure{404, "EntityNotFound", "The specified distribution tenant does not exist."})
		return
	}
	if !ifMatch(w, t, req.IfMatch) {
		return
	}
	in := req.Body
	if in.ConnectionGroupID != "" {
		if endpoint(in.ConnectionGroupID) == "" {
			fail(w, Failure{404, "EntityNotFound", "The specified connection group does not exist."})
			return
		}
		t.ConnectionGroupID = in.ConnectionGroupID
	}
	if len(in.Domains) > 0 && !s.setDomains(w, t, in.Domains, in.ManagedCertificateRequest) {
		return
	}
	if in.Enabled != nil {
		t.Enabled = *in.Enabled
	}
	t.ETag = s.nextETag()
	s.answer(w, http.StatusOK, t)
}

// setDomains gives t the domains, refusing one another tenant holds and one no certificate
// covers (the existing one or the one requested).
func (s *Server) setDomains(w http.ResponseWriter, t *Tenant, domains []string, cert *CertificateRequest) bool {
	for _, d := range domains {
		for _, o := range s.tenants {
			if o != t && slices.Contains(o.Domains, d) {
				fail(w, Failure{409, "CNAMEAlreadyExists", "One or more of the CNAMEs you provided are already associated with a different resource."})
				return false
			}
		}
		if cert == nil && (t.Certificate == nil || !slices.Contains(t.Certificate.Domains, d)) {
			fail(w, Failure{400, "InvalidArgument", "The domain " + d + " is not covered by a certificate."})
			return false
		}
	}
	if cert != nil {
		t.Certificate = &Certificate{Domains: slices.Clone(domains), Status: "pending-validation", TokenHost: cert.ValidationTokenHost,
			PrimaryDomainName: cert.PrimaryDomainName, TransparencyLogging: cert.CertificateTransparencyLoggingPreference}
	}
	t.Domains = slices.Clone(domains)
	return true
}

func (s *Server) delete(w http.ResponseWriter, id, match string) {
	t := s.byID(id)
	if t == nil {
		fail(w, Failure{404, "EntityNotFound", "The specified distribution tenant does not exist."})
		return
	}
	if !ifMatch(w, t, match) {
		return
	}
	if t.Enabled {
		fail(w, Failure{409, "ResourceNotDisabled", "The distribution tenant must be disabled before it is deleted."})
		return
	}
	s.tenants = slices.DeleteFunc(s.tenants, func(o *Tenant) bool { return o == t })
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) connectionGroup(w http.ResponseWriter, id string) {
	e := endpoint(id)
	if e == "" {
		fail(w, Failure{404, "EntityNotFound", "The specified connection group does not exist."})
		return
	}
	w.Header().Set("ETag", "G1")
	write(w, http.StatusOK, struct {
		XMLName         xml.Name `xml:"ConnectionGroup"`
		ID              string   `xml:"Id"`
		RoutingEndpoint string   `xml:"RoutingEndpoint"`
		Enabled         bool     `xml:"Enabled"`
		IsDefault       bool     `xml:"IsDefault"`
	}{ID: id, RoutingEndpoint: e, Enabled: true, IsDefault: id == DefaultGroupID})
}

func (s *Server) certificate(w http.ResponseWriter, ident string) {
	t := s.find(ident)
	if t == nil || t.Certificate == nil {
		fail(w, Failure{404, "EntityNotFound", "The distribution tenant has no managed certificate."})
		return
	}
	type token struct {
		Domain       string `xml:"Domain"`
		RedirectFrom string `xml:"RedirectFrom"`
		RedirectTo   string `xml:"RedirectTo"`
	}
	var tokens []token
	for i, d := range t.Certificate.Domains {
		file := fmt.Sprintf("%032x.txt", i+1)
		tokens = append(tokens, token{d, d + "/.well-known/pki-validation/" + file, "validation.us-east-1.acm-validations.aws/123456789012/.well-known/pki-validation/" + file})
	}
	write(w, http.StatusOK, struct {
		XMLName             xml.Name `xml:"ManagedCertificateDetails"`
		CertificateArn      string   `xml:"CertificateArn"`
		CertificateStatus   string   `xml:"CertificateStatus"`
		ValidationTokenHost string   `xml:"ValidationTokenHost"`
		Tokens              []token  `xml:"ValidationTokenDetails>member"`
	}{CertificateArn: "arn:aws:acm:us-east-1:123456789012:certificate/" + t.ID, CertificateStatus: t.Certificate.Status,
		ValidationTokenHost: t.Certificate.TokenHost, Tokens: tokens})
}

func (s *Server) answer(w http.ResponseWriter, status int, t *Tenant) {
	type domain struct {
		Domain string `xml:"Domain"`
		Status string `xml:"Status"`
	}
	var domains []domain
	for _, d := range t.Domains {
		st := "inactive"
		if t.Enabled {
			st = "active"
		}
		domains = append(domains, domain{d, st})
	}
	w.Header().Set("ETag", t.ETag)
	write(w, status, struct {
		XMLName           xml.Name `xml:"DistributionTenant"`
		ID                string   `xml:"Id"`
		DistributionID    string   `xml:"DistributionId"`
		Name              string   `xml:"Name"`
		Arn               string   `xml:"Arn"`
		Domains           []domain `xml:"Domains>member"`
		ConnectionGroupID string   `xml:"ConnectionGroupId"`
		Enabled           bool     `xml:"Enabled"`
		Status            string   `xml:"Status"`
	}{ID: t.ID, DistributionID: t.DistributionID, Name: t.Name, Arn: "arn:aws:cloudfront::123456789012:distribution-tenant/" + t.ID,
		Domains: domains, ConnectionGroupID: t.ConnectionGroupID, Enabled: t.Enabled, Status: "InProgress"})
}

func ifMatch(w http.ResponseWriter, t *Tenant, match string) bool {
	switch match {
	case "":
		fail(w, Failure{400, "InvalidIfMatchVersion", "The If-Match version is missing or not valid for the resource."})
		return false
	case t.ETag:
		return true
	}
	fail(w, Failure{412, "PreconditionFailed", "The precondition given in one or more of the request header fields evaluated to false."})
	return false
}

func (s *Server) find(ident string) *Tenant {
	for _, t := range s.tenants {
		if t.ID == ident || t.Name == ident {
			return t
		}
	}
	return nil
}

func (s *Server) byID(id string) *Tenant {
	if t := s.find(id); t != nil && t.ID == id {
		return t
	}
	return nil
}

func (s *Server) nextETag() string {
	s.etags++
	return fmt.Sprintf("E%dETAG", s.etags)
}

func endpoint(group string) string {
	return map[string]string{GroupID: GroupEndpoint, DefaultGroupID: DefaultEndpoint}[group]
}

func fail(w http.ResponseWriter, f Failure) {
	kind := "Sender"
	if f.Status >= 500 {
		kind = "Receiver"
	}
	write(w, f.Status, struct {
		XMLName   xml.Name `xml:"ErrorResponse"`
		Type      string   `xml:"Error>Type"`
		Code      string   `xml:"Error>Code"`
		Message   string   `xml:"Error>Message"`
		RequestID string   `xml:"RequestId"`
	}{Type: kind, Code: f.Code, Message: f.Message, RequestID: "fake-request"})
}

func write(w http.ResponseWriter, status int, v any) {
	body, err := xml.Marshal(v)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/xml")
	w.WriteHeader(status)
	_, _ = w.Write(append([]byte(xml.Header), body...))
}
