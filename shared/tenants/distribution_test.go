package tenants_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/campuscms/panel/shared/tenants"
	"github.com/campuscms/panel/shared/tenants/distributiontest"
)

const distID = "EDFDVBD632BHDS5"

func newWebsites(t *testing.T) (*distributiontest.Server, tenants.Websites) {
	t.Helper()
	srv := distributiontest.New(t, distID)
	return srv, tenants.Websites{API: srv.Client(), DistributionID: distID, ConnectionGroupID: distributiontest.GroupID}
}

func syncHosts(t *testing.T, w tenants.Websites, hosts ...string) tenants.WebsiteState {
	t.Helper()
	s, err := w.Sync(context.Background(), "st-marys", hosts)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// writes are the requests that change something, in order.
func writes(srv *distributiontest.Server) []distributiontest.Request {
	var out []distributiontest.Request
	for _, r := range srv.Requests() {
		if r.Method != "GET" {
			out = append(out, r)
		}
	}
	return out
}

func TestSyncCreatesTheTenantWithAManagedCertificate(t *testing.T) {
	srv, w := newWebsites(t)
	s := syncHosts(t, w, "www.stmarys.example", "stmarys.example")

	if got, want := srv.Ops(), []string{"GetDistributionTenant", "CreateDistributionTenant", "GetConnectionGroup", "GetManagedCertificateDetails"}; !slices.Equal(got, want) {
		t.Fatalf("calls %v, want %v", got, want)
	}
	req := writes(srv)[0].Body
	if req.DistributionID != distID || req.Name != "campus-st-marys" || req.ConnectionGroupID != distributiontest.GroupID {
		t.Errorf("create names distribution %q, tenant %q, group %q", req.DistributionID, req.Name, req.ConnectionGroupID)
	}
	if !slices.Equal(req.Domains, []string{"www.stmarys.example", "stmarys.example"}) || req.Enabled == nil || !*req.Enabled {
		t.Errorf("create domains %v, enabled %v", req.Domains, req.Enabled)
	}
	if c := req.ManagedCertificateRequest; c == nil || c.ValidationTokenHost != "cloudfront" || c.PrimaryDomainName != "www.stmarys.example" {
		t.Errorf("certificate request %+v, want CloudFront-hosted validation for www.stmarys.example", c)
	}
	if s.Action != tenants.WebsiteCreated || s.ID == "" || s.RoutingEndpoint != distributiontest.GroupEndpoint {
		t.Errorf("state %+v", s)
	}
	if s.Certificate == nil || s.Certificate.Status != "pending-validation" || s.Certificate.ValidationTokenHost != "cloudfront" || len(s.Certificate.Tokens) != 2 {
		t.Fatalf("certificate %+v", s.Certificate)
	}
	if tok := s.Certificate.Tokens[1]; tok.Domain != "stmarys.example" || !strings.HasPrefix(tok.RedirectFrom, "stmarys.example/.well-known/pki-validation/") {
		t.Errorf("validation token %+v", tok)
	}
	want := []tenants.DNSRecord{
		{Name: "www.stmarys.example", Type: "CNAME", Value: distributiontest.GroupEndpoint},
		{Name: "stmarys.example", Type: "CNAME", Value: distributiontest.GroupEndpoint},
	}
	if got := s.DNSRecords(); !slices.Equal(got, want) {
		t.Errorf("DNS records %v, want %v", got, want)
	}
}

func TestSyncWithoutAConnectionGroupLeavesCloudFrontsDefault(t *testing.T) {
	srv, w := newWebsites(t)
	w.ConnectionGroupID = ""
	s := syncHosts(t, w, "www.stmarys.example")
	if got := writes(srv)[0].Body.ConnectionGroupID; got != "" {
		t.Errorf("create sent connection group %q", got)
	}
	if s.RoutingEndpoint != distributiontest.DefaultEndpoint {
		t.Errorf("routing endpoint %q, want the default group's %q", s.RoutingEndpoint, distributiontest.DefaultEndpoint)
	}
}

func TestSyncUpdatesWithTheETagItRead(t *testing.T) {
	cases := []struct {
		name     string
		before   func(*distributiontest.Server)
		hosts    []string
		wantCert bool // a new certificate is requested
	}{
		{"a domain added", nil, []string{"www.stmarys.example", "stmarys.example", "news.stmarys.example"}, true},
		{"a domain removed", nil, []string{"stmarys.example"}, true},
		{"the certificate timed out", func(s *distributiontest.Server) { s.SetCertificateStatus("campus-st-marys", "validation-timed-out") },
			[]string{"stmarys.example", "www.stmarys.example"}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv, w := newWebsites(t)
			syncHosts(t, w, "www.stmarys.example", "stmarys.example")
			if c.before != nil {
				c.before(srv)
			}
			before, _ := srv.Tenant("campus-st-marys")
			s := syncHosts(t, w, c.hosts...)
			ws := writes(srv)
			if s.Action != tenants.WebsiteUpdated || len(ws) != 2 || ws[1].Op != "UpdateDistributionTenant" {
				t.Fatalf("action %s, writes %+v", s.Action, ws)
			}
			up := ws[1]
			if up.IfMatch != before.ETag || up.Path != "/2020-05-31/distribution-tenant/"+before.ID {
				t.Errorf("update %s If-Match %q, want %s with %q", up.Path, up.IfMatch, before.ID, before.ETag)
			}
			if !slices.Equal(up.Body.Domains, c.hosts) || up.Body.Enabled == nil || !*up.Body.Enabled {
				t.Errorf("update domains %v enabled %v", up.Body.Domains, up.Body.Enabled)
			}
			if got := up.Body.ManagedCertificateRequest != nil; got != c.wantCert {
				t.Errorf("certificate requested: %v, want %v", got, c.wantCert)
			}
			after, _ := srv.Tenant("campus-st-marys")
			if !slices.Equal(after.Domains, c.hosts) || after.Certificate.Status != "pending-validation" {
				t.Errorf("tenant after: %+v", after)
			}
		})
	}
}

func TestSyncWithTheSameDomainsChangesNothing(t *testing.T) {
	srv, w := newWebsites(t)
	syncHosts(t, w, "www.stmarys.example", "stmarys.example")
	srv.SetCertificateStatus("campus-st-marys", "issued")
	s := syncHosts(t, w, "stmarys.example", "www.stmarys.example") // another order, the same set
	if s.Action != tenants.WebsiteUnchanged || len(writes(srv)) != 1 {
		t.Fatalf("action %s, writes %+v", s.Action, writes(srv))
	}
	if s.Certificate.Status != "issued" || len(s.DNSRecords()) != 2 {
		t.Errorf("state %+v", s)
	}
}

func TestSyncReenablesADisabledTenantWithoutANewCertificate(t *testing.T) {
	srv, w := newWebsites(t)
	srv.Put(distributiontest.Tenant{Name: "campus-st-marys", DistributionID: distID, ConnectionGroupID: distributiontest.GroupID,
		Domains: []string{"stmarys.example"}, Certificate: &distributiontest.Certificate{Domains: []string{"stmarys.example"}, Status: "issued"}})
	s := syncHosts(t, w, "stmarys.example")
	ws := writes(srv)
	if s.Action != tenants.WebsiteUpdated || len(ws) != 1 || ws[0].Body.ManagedCertificateRequest != nil {
		t.Fatalf("action %s, writes %+v", s.Action, ws)
	}
	if tn, _ := srv.Tenant("campus-st-marys"); !tn.Enabled {
		t.Error("still disabled")
	}
}

func TestSyncWithNoDomainsDisablesThenDeletes(t *testing.T) {
	srv, w := newWebsites(t)
	syncHosts(t, w, "stmarys.example")
	before, _ := srv.Tenant("campus-st-marys")
	s := syncHosts(t, w)
	ws := writes(srv)
	if s.Action != tenants.WebsiteDeleted || len(ws) != 3 {
		t.Fatalf("action %s, writes %+v", s.Action, ws)
	}
	disable, del := ws[1], ws[2]
	if disable.Op != "UpdateDistributionTenant" || disable.Body.Enabled == nil || *disable.Body.Enabled || disable.IfMatch != before.ETag {
		t.Errorf("disable: %+v", disable)
	}
	if del.Op != "DeleteDistributionTenant" || del.IfMatch == "" || del.IfMatch == before.ETag {
		t.Errorf("delete must carry the ETag the disable returned: %+v", del)
	}
	if _, ok := srv.Tenant("campus-st-marys"); ok {
		t.Error("the distribution tenant is still there")
	}
	// Nothing left: a second run has nothing to do.
	if s := syncHosts(t, w); s.Action != tenants.WebsiteAbsent || len(writes(srv)) != 3 {
		t.Errorf("second run: %s, writes %d", s.Action, len(writes(srv)))
	}
}

func TestSyncLeavesTheTenantDisabledWhenCloudFrontWillNotDeleteItYet(t *testing.T) {
	srv, w := newWebsites(t)
	syncHosts(t, w, "stmarys.example")
	srv.Fail("DeleteDistributionTenant", distributiontest.Failure{Status: 409, Code: "ResourceNotDisabled", Message: "not deployed yet"})
	s := syncHosts(t, w)
	if s.Action != tenants.WebsiteDisabled {
		t.Fatalf("action %s", s.Action)
	}
	if tn, ok := srv.Tenant("campus-st-marys"); !ok || tn.Enabled {
		t.Errorf("tenant %+v (present %v), want present and disabled", tn, ok)
	}
}

func TestSyncReportsCloudFrontFailuresClearly(t *testing.T) {
	cases := []struct {
		name    string
		setup   func(*testing.T, *distributiontest.Server, *tenants.Websites)
		hosts   []string
		wantErr []string
		lastOp  string // the failing call: nothing is sent after it
	}{
		{"a domain on another distribution", func(_ *testing.T, s *distributiontest.Server, _ *tenants.Websites) {
			s.Put(distributiontest.Tenant{Name: "someone-else", DistributionID: "EOTHER", Domains: []string{"stmarys.example"}})
		}, []string{"stmarys.example"}, []string{"create distribution tenant campus-st-marys", "CNAMEAlreadyExists", "remove it there first"}, "CreateDistributionTenant"},
		{"no right to read", func(_ *testing.T, s *distributiontest.Server, _ *tenants.Websites) {
			s.Fail("GetDistributionTenant", distributiontest.Failure{Status: 403, Code: "AccessDenied", Message: "User is not authorized"})
		}, []string{"stmarys.example"}, []string{"read distribution tenant campus-st-marys", "AccessDenied", "cloudfront:GetDistributionTenant"}, "GetDistributionTenant"},
		{"changed meanwhile", func(t *testing.T, s *distributiontest.Server, w *tenants.Websites) {
			syncHosts(t, *w, "stmarys.example")
			s.Fail("UpdateDistributionTenant", distributiontest.Failure{Status: 412, Code: "PreconditionFailed", Message: "etag"})
		}, []string{"www.stmarys.example"}, []string{"update distribution tenant campus-st-marys", "PreconditionFailed", "run the command again"}, "UpdateDistributionTenant"},
		{"the name taken on another distribution", func(_ *testing.T, s *distributiontest.Server, _ *tenants.Websites) {
			s.Put(distributiontest.Tenant{Name: "campus-st-marys", DistributionID: "EOTHER", Domains: []string{"old.example"}})
		}, []string{"stmarys.example"}, []string{"belongs to distribution EOTHER", "nothing changed"}, "GetDistributionTenant"},
		{"an unknown distribution id", func(_ *testing.T, _ *distributiontest.Server, w *tenants.Websites) { w.DistributionID = "ENOSUCH" },
			[]string{"stmarys.example"}, []string{"EntityNotFound", "check WEBSITE_DISTRIBUTION_ID"}, "CreateDistributionTenant"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv, w := newWebsites(t)
			c.setup(t, srv, &w)
			_, err := w.Sync(context.Background(), "st-marys", c.hosts)
			if err == nil {
				t.Fatal("no error")
			}
			for _, want := range c.wantErr {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q lacks %q", err, want)
				}
			}
			if ops := srv.Ops(); ops[len(ops)-1] != c.lastOp {
				t.Errorf("calls %v: want none after %s", ops, c.lastOp)
			}
		})
	}
}

func TestCheckReadsOnly(t *testing.T) {
	srv, w := newWebsites(t)
	if err := w.Check(context.Background(), "st-marys"); err != nil {
		t.Fatal(err)
	}
	srv.Put(distributiontest.Tenant{Name: "campus-st-marys", DistributionID: "EOTHER", Domains: []string{"old.example"}})
	if err := w.Check(context.Background(), "st-marys"); err == nil || !strings.Contains(err.Error(), "belongs to distribution EOTHER") {
		t.Errorf("check: %v", err)
	}
	if got := writes(srv); len(got) != 0 {
		t.Errorf("check wrote: %+v", got)
	}
}
