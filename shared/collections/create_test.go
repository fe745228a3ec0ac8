package collections_test

import (
	"context"
	"errors"
	"net/http"
	"testing"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/auth"
	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/ids"
	"github.com/campuscms/panel/shared/store"
	"github.com/campuscms/panel/shared/testkit"
)

// TestCreateOutsideARequest: Service.Create writes what POST would (the list shows the record and
// counts it), under the id it is given, exactly once, and checks the body like a request's.
func TestCreateOutsideARequest(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	st := testkit.Deps(t).Store
	reg, err := collections.Load()
	if err != nil {
		t.Fatal(err)
	}
	svc := collections.NewService(st, nil, reg, collections.Linked{})
	scope, _ := store.NewScope(tn.ID)
	caller := &auth.Caller{Scope: scope, User: &auth.User{IsAdmin: true, Status: true}}
	faqs, id := reg["faqs"], ids.New()
	ctx := context.Background()

	cases := []struct {
		name       string
		id         string
		body       map[string]any
		wantStatus int // 0: created
	}{
		{"created under its id", id, map[string]any{"question": "Open on Sundays?", "answer": "No.", "position": 1}, 0},
		{"same id again", id, map[string]any{"question": "Open on Sundays?", "answer": "No."}, http.StatusConflict},
		{"required field missing", ids.New(), map[string]any{"question": "Where?"}, http.StatusBadRequest},
		{"undeclared field", ids.New(), map[string]any{"question": "Q", "answer": "A", "isAdmin": true}, http.StatusBadRequest},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rec, err := svc.Create(ctx, caller, faqs, c.id, c.body)
			var ae *api.Error
			switch {
			case c.wantStatus == 0 && err != nil:
				t.Fatal(err)
			case c.wantStatus == 0 && (rec["id"] != c.id || rec["question"] != c.body["question"]):
				t.Fatalf("record %v", rec)
			case c.wantStatus != 0 && (!errors.As(err, &ae) || ae.Status != c.wantStatus):
				t.Fatalf("error %v, want status %d", err, c.wantStatus)
			}
		})
	}
	if _, err := svc.Create(ctx, caller, faqs, "not-a-ulid", map[string]any{"question": "Q", "answer": "A"}); err == nil {
		t.Fatal("a malformed id was accepted")
	}
	res := testkit.Call(t, testkit.Request{Method: "GET", Path: "/faqs", Tenant: tn.ID, Token: tn.AdminToken})
	testkit.Expect(t, res, http.StatusOK, "")
	if res.Get("totalCount") != float64(1) || res.Get("result.0.id") != id {
		t.Fatalf("list after Create: %s", res.Raw)
	}
}
