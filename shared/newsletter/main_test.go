package newsletter_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/campuscms/panel/shared/auth"
	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/mail"
	"github.com/campuscms/panel/shared/modules"
	"github.com/campuscms/panel/shared/newsletter"
	"github.com/campuscms/panel/shared/schedule"
	"github.com/campuscms/panel/shared/store"
	"github.com/campuscms/panel/shared/testkit"
	"github.com/campuscms/panel/shared/website"
)

func TestMain(m *testing.M) { testkit.Main(m) }

var server struct {
	once sync.Once
	h    http.Handler
	err  error
}

// site is the website handler (the signup, confirmation and unsubscribe pages).
func site(t *testing.T) http.Handler {
	t.Helper()
	server.once.Do(func() { server.h, server.err = website.Build(testkit.Deps(t), website.Options{LocalHosts: true}) })
	if server.err != nil {
		t.Fatal(server.err)
	}
	return server.h
}

type page struct {
	status int
	body   string
}

// visit requests target (a path, or a full http://{tenant}.localhost:8080 address) on the
// tenant's website.
func visit(t *testing.T, method, tenant, target string, form url.Values) page {
	t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	if u, err := url.Parse(target); err == nil && u.Host != "" {
		target = u.RequestURI()
	}
	r := httptest.NewRequest(method, target, body)
	r.Host = tenant + ".localhost:8080"
	r.RemoteAddr = "192.0.2.10:1234"
	if form != nil {
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	w := httptest.NewRecorder()
	site(t).ServeHTTP(w, r)
	return page{status: w.Code, body: w.Body.String()}
}

func must(t *testing.T, p page, status int, contains ...string) {
	t.Helper()
	if p.status != status {
		t.Fatalf("status %d, want %d: %.800s", p.status, status, p.body)
	}
	for _, c := range contains {
		if !strings.Contains(p.body, c) {
			t.Fatalf("page lacks %q: %.1500s", c, p.body)
		}
	}
}

func scopeOf(t *testing.T, tenant string) store.Scope {
	t.Helper()
	s, err := store.NewScope(tenant)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func service(t *testing.T) *collections.Service {
	t.Helper()
	svc, err := collections.SharedService(testkit.Deps(t), modules.Linked())
	if err != nil {
		t.Fatal(err)
	}
	return svc
}

// subscribe signs email up through the website's footer form.
func subscribe(t *testing.T, tenant, email string) {
	t.Helper()
	must(t, visit(t, "POST", tenant, "/newsletter", url.Values{"email": {email}}), http.StatusOK, "Thanks for subscribing!")
}

// mailsTo are the tenant's outbox mails to address of kind.
func mailsTo(t *testing.T, tenant, address, kind string) []mail.Entry {
	t.Helper()
	var out []mail.Entry
	for _, e := range testkit.Outbox(t, tenant) {
		if strings.EqualFold(e.To, address) && e.Kind == kind {
			out = append(out, e)
		}
	}
	return out
}

var linkRE = regexp.MustCompile(`https?://[^\s"<>]+/newsletter/(?:confirm|unsubscribe)\?token=[A-Za-z0-9_%-]+`)

// linkIn is the confirmation or unsubscribe link of a mail's text part.
func linkIn(t *testing.T, text string) string {
	t.Helper()
	l := linkRE.FindString(text)
	if l == "" {
		t.Fatalf("no link in %q", text)
	}
	return l
}

func tokenOf(t *testing.T, link string) string {
	t.Helper()
	u, err := url.Parse(link)
	if err != nil {
		t.Fatal(err)
	}
	return u.Query().Get("token")
}

// signupsBy lists the tenant's signups in the panel: email → subscription.
func signupsBy(t *testing.T, tn testkit.Tenant) map[string]string {
	t.Helper()
	res := testkit.Call(t, testkit.Request{Method: "GET", Path: "/newsletter-signups?limit=100", Tenant: tn.ID, Token: tn.AdminToken})
	testkit.Expect(t, res, http.StatusOK, "")
	out := map[string]string{}
	for _, r := range res.Get("result").([]any) {
		m := r.(map[string]any)
		s, _ := m["subscription"].(string)
		out[strings.ToLower(m["email"].(string))] = s
	}
	return out
}

func dashboardCount(t *testing.T, tn testkit.Tenant) float64 {
	t.Helper()
	res := testkit.Call(t, testkit.Request{Method: "GET", Path: "/misc/masters", Tenant: tn.ID, Token: tn.AdminToken})
	testkit.Expect(t, res, http.StatusOK, "")
	n, _ := res.Get("result.dashboardStats.newsletterSignupCount").(float64)
	return n
}

// addConfirmed adds confirmed signups (as an imported list would be).
func addConfirmed(t *testing.T, tenant string, emails ...string) {
	t.Helper()
	svc := service(t)
	caller := &auth.Caller{Scope: scopeOf(t, tenant)}
	for _, e := range emails {
		if _, err := newsletter.AddConfirmed(context.Background(), svc, caller, e); err != nil {
			t.Fatal(err)
		}
	}
}

// runJobs runs the schedule job over the tenant until its jobs are done (at most n runs) and
// returns the runs' error count.
func runJobs(t *testing.T, tenant string, n int) (errs int) {
	t.Helper()
	job := schedule.New(service(t), nil).Only(tenant)
	for range n {
		res, err := job.Run(context.Background())
		if err != nil {
			errs++
			continue
		}
		if res.Done > 0 && res.Working == 0 {
			return errs
		}
	}
	return errs
}

// step takes one step (only: newsletter.OneStep) of newsletter id's sending job directly (as the schedule job does, without
// its backoff after a failure); more is false when there is no job (left).
func step(t *testing.T, tenant, id string) (more bool, err error) {
	t.Helper()
	svc := service(t)
	var d collections.DueItem
	err = svc.Store().Get(context.Background(), collections.JobDueKey(scopeOf(t, tenant), newsletter.NewslettersKind, id), &d)
	if store.IsNotFound(err) {
		return false, nil
	} else if err != nil {
		t.Fatal(err)
	}
	more, err = svc.RunJob(newsletter.OneStep(context.Background()), d, time.Now())
	return more || err != nil, err
}

// newNewsletter creates a draft in the panel and returns its id.
func newNewsletter(t *testing.T, tn testkit.Tenant, subject string) string {
	t.Helper()
	testkit.SetDomains(t, tn.ID, tn.ID+".example.org") // the mails' links go to the website
	res := testkit.Call(t, testkit.Request{Method: "POST", Path: "/newsletters", Tenant: tn.ID, Token: tn.AdminToken,
		Body: map[string]any{"subject": subject, "content": "<p>Hello <strong>readers</strong>!</p><script>alert(1)</script>"}})
	testkit.Expect(t, res, http.StatusCreated, "")
	return res.Get("result.id").(string)
}

func send(t *testing.T, tn testkit.Tenant, id string) testkit.Response {
	t.Helper()
	return testkit.Call(t, testkit.Request{Method: "POST", Path: "/newsletters/" + id + "/send", Tenant: tn.ID, Token: tn.AdminToken})
}

func newsletterRecord(t *testing.T, tn testkit.Tenant, id string) testkit.Response {
	t.Helper()
	res := testkit.Call(t, testkit.Request{Method: "GET", Path: "/newsletters/" + id, Tenant: tn.ID, Token: tn.AdminToken})
	testkit.Expect(t, res, http.StatusOK, "")
	return res
}
