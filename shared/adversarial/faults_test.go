package adversarial_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/campuscms/panel/shared/awsclient"
	"github.com/campuscms/panel/shared/store"
	"github.com/campuscms/panel/shared/tenants"
	"github.com/campuscms/panel/shared/testkit"
)

const busyMessage = "The service is busy, please try again."

// TestFaultsNeverMakeA500 injects the answers AWS gives when it is busy or refuses, and checks
// each becomes a retry (the write then succeeds once) or a clear 4xx/503, never a 500, with
// nothing half-written.
func TestFaultsNeverMakeA500(t *testing.T) {
	t.Parallel()
	faults := testkit.Faults(t)
	cases := []struct {
		name  string
		fault awsclient.Fault
		// status of the create; 201 means the retries got through
		status int
	}{
		{"throttled once, retried", awsclient.Fault{Service: "dynamodb", Op: "TransactWriteItems", Times: 1, Status: 400, Code: "ProvisionedThroughputExceededException"}, 201},
		{"throttled throughout", awsclient.Fault{Service: "dynamodb", Op: "TransactWriteItems", Status: 400, Code: "ProvisionedThroughputExceededException"}, 503},
		{"ThrottlingException throughout", awsclient.Fault{Service: "dynamodb", Op: "TransactWriteItems", Status: 400, Code: "ThrottlingException"}, 503},
		{"RequestLimitExceeded throughout", awsclient.Fault{Service: "dynamodb", Op: "TransactWriteItems", Status: 400, Code: "RequestLimitExceeded"}, 503},
		{"TransactionConflictException throughout", awsclient.Fault{Service: "dynamodb", Op: "TransactWriteItems", Status: 400, Code: "TransactionConflictException"}, 503},
		{"cancelled by a conflict once, retried", awsclient.Fault{Service: "dynamodb", Op: "TransactWriteItems", Times: 1, Status: 400,
			Code: "TransactionCanceledException", Reasons: []string{"TransactionConflict", "None"}}, 201},
		{"cancelled by conflicts throughout", awsclient.Fault{Service: "dynamodb", Op: "TransactWriteItems", Status: 400,
			Code: "TransactionCanceledException", Reasons: []string{"None", "TransactionConflict"}}, 503},
		{"cancelled by a failed condition", awsclient.Fault{Service: "dynamodb", Op: "TransactWriteItems", Status: 400,
			Code: "TransactionCanceledException", Reasons: []string{"ConditionalCheckFailed", "None"}}, 409},
		{"response lost after the write", awsclient.Fault{Service: "dynamodb", Op: "TransactWriteItems", Times: 1, LoseResponse: true}, 201},
		{"reads throttled throughout", awsclient.Fault{Service: "dynamodb", Op: "BatchGetItem", Status: 400, Code: "ProvisionedThroughputExceededException"}, 503},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tn := testkit.NewTenant(t)
			list := func() testkit.Response {
				return send(t, call{Method: "GET", Path: "/newsletter-signups", Tenant: tn.ID, Token: tn.AdminToken})
			}
			counters := func() any {
				return send(t, call{Method: "GET", Path: "/misc/masters", Tenant: tn.ID, Token: tn.AdminToken}).Get("result.dashboardStats.newsletterSignupCount")
			}
			before, beforeCount := list().Get("totalCount"), counters()
			c.fault.Match = tn.ID
			attemptsBefore := faults.Count("dynamodb", c.fault.Op, tn.ID)
			remove := faults.Inject(c.fault)
			res := sendUnderFault(t, call{Method: "POST", Path: "/newsletter-signups", Tenant: tn.ID, Token: tn.AdminToken,
				// Confirmed: the dashboard counts confirmed signups (a staff member may add one so).
				Body: map[string]any{"email": "someone@example.org", "subscription": "confirmed"}})
			remove()
			if res.Status != c.status {
				t.Fatalf("%d %s, want %d", res.Status, res.Raw, c.status)
			}
			after, afterCount := list().Get("totalCount"), counters()
			switch c.status {
			case 201:
				// Written exactly once, counter included, retries or not.
				if after != float64(1) || afterCount != float64(1) {
					t.Fatalf("after a create answered 201: %v records, counter %v; want 1, 1", after, afterCount)
				}
			default:
				if c.status != 503 {
					refused(t, c.name, res, c.status)
				}
				if c.status == 503 && res.Message() != busyMessage {
					t.Fatalf("message %q, want %q", res.Message(), busyMessage)
				}
				if after != before || afterCount != beforeCount {
					t.Fatalf("a refused create changed the data: %v → %v records, counter %v → %v", before, after, beforeCount, afterCount)
				}
			}
			if strings.Contains(c.name, "retried") || strings.Contains(c.name, "throughout") {
				op := c.fault.Op
				if n := faults.Count("dynamodb", op, tn.ID) - attemptsBefore; n < 2 {
					t.Fatalf("%s was tried %d times, want a retry", op, n)
				}
			}
		})
	}
}

// TestRetriedTransactionKeepsItsToken: every attempt of one transaction carries the same
// ClientRequestToken, so DynamoDB answers a retry of a transaction it already applied with its
// success rather than judging it again (its conditions would now fail: a 409 for a write that
// happened).
func TestRetriedTransactionKeepsItsToken(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	faults := testkit.Faults(t)
	defer faults.Inject(awsclient.Fault{Service: "dynamodb", Op: "TransactWriteItems", Match: tn.ID, Times: 2, Status: 400, Code: "ThrottlingException"})()
	res := send(t, call{Method: "POST", Path: "/faqs", Tenant: tn.ID, Token: tn.AdminToken, Body: map[string]any{"question": "Q?", "answer": "A."}})
	if res.Status != http.StatusCreated {
		t.Fatalf("%d %s", res.Status, res.Raw)
	}
	var tokens []string
	for _, c := range faults.Calls(tn.ID) {
		if c.Op == "TransactWriteItems" && strings.Contains(c.Body, "Q?") {
			tokens = append(tokens, c.Token)
		}
	}
	if len(tokens) != 3 || tokens[0] == "" || tokens[0] != tokens[1] || tokens[1] != tokens[2] {
		t.Fatalf("tokens of the three attempts: %q", tokens)
	}
}

// TestTenantCreateIsAllOrNothing: cmsctl tenant create writes the tenant, its role, its admin
// and the admin's username in one transaction. A lost response is retried into a success, not
// a "conflict" for a tenant it created; a refused write leaves no half-made tenant behind, so
// running the command again works.
func TestTenantCreateIsAllOrNothing(t *testing.T) {
	t.Parallel()
	st := testkit.Deps(t).Store
	faults := testkit.Faults(t)
	ctx := context.Background()
	newID := func() string { return "f-" + strings.ToLower(testkit.NewTenant(t).ID[2:]) }

	id := newID()
	remove := faults.Inject(awsclient.Fault{Service: "dynamodb", Op: "TransactWriteItems", Match: "T#" + id, Times: 1, LoseResponse: true})
	_, err := tenants.Create(ctx, st, tenants.NewTenant{ID: id, Name: "Lost", AdminUsername: "admin", AdminPassword: "admin-pass-1"})
	remove()
	if err != nil {
		t.Fatalf("create with a lost response: %v", err)
	}
	testkit.Login(t, id, "admin", "admin-pass-1")

	// Throttled throughout, and throttled only where the admin's username is written (which used
	// to be a second transaction, after the tenant's).
	for _, match := range []string{"", "#USERNAME"} {
		id := newID()
		checkRefusedCreate(t, id, awsclient.Fault{Service: "dynamodb", Op: "TransactWriteItems", Match: "T#" + id + match, Status: 400, Code: "ProvisionedThroughputExceededException"})
	}
}

func checkRefusedCreate(t *testing.T, id string, fault awsclient.Fault) {
	t.Helper()
	st, faults, ctx := testkit.Deps(t).Store, testkit.Faults(t), context.Background()
	remove := faults.Inject(fault)
	_, err := tenants.Create(ctx, st, tenants.NewTenant{ID: id, Name: "Busy", AdminUsername: "admin", AdminPassword: "admin-pass-1"})
	remove()
	if !store.IsBusy(err) {
		t.Fatalf("create while throttled: %v, want busy", err)
	}
	scope, _ := store.NewScope(id)
	if _, err := st.GetTenant(ctx, scope); !store.IsNotFound(err) {
		t.Fatalf("a refused create left the tenant behind: %v", err)
	}
	if _, err := tenants.Create(ctx, st, tenants.NewTenant{ID: id, Name: "Busy", AdminUsername: "admin", AdminPassword: "admin-pass-1"}); err != nil {
		t.Fatalf("create again after a refused one: %v", err)
	}
	testkit.Login(t, id, "admin", "admin-pass-1")
}

// TestS3AccessDeniedOnConfirm: without s3:ListBucket, S3 answers a missing upload with 403; the
// confirmation answers it like a missing upload, never a 500, and stores nothing.
func TestS3AccessDeniedOnConfirm(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	res := send(t, call{Method: "POST", Path: "/media/uploads", Tenant: tn.ID, Token: tn.AdminToken,
		Body: map[string]any{"name": "a.png", "size": 10, "mimeType": "image/png"}})
	key, _ := res.Get("result.key").(string)
	defer testkit.Faults(t).Inject(awsclient.Fault{Service: "s3", Op: "HeadObject", Match: tn.ID, Status: 403, Code: "AccessDenied"})()
	res = send(t, call{Method: "POST", Path: "/media", Tenant: tn.ID, Token: tn.AdminToken, Body: map[string]any{"key": key, "name": "a.png"}})
	refused(t, "confirm with S3 403", res, http.StatusBadRequest, http.StatusNotFound)
	if n := send(t, call{Method: "GET", Path: "/media", Tenant: tn.ID, Token: tn.AdminToken}).Get("totalCount"); n != float64(0) {
		t.Fatalf("media records after a refused confirm: %v", n)
	}
}
