package adversarial_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/campuscms/panel/shared/api"
)

// hugeBody is a JSON object just over the 1 MB body limit.
var hugeBody = `{"x":"` + strings.Repeat("a", api.MaxBodyBytes) + `"}`

// notObjects are bodies that are JSON but not an object, or not JSON at all.
var notObjects = []struct{ name, body, message string }{
	{"null", `null`, "The request body must be a JSON object."},
	{"array", `[]`, "The request body must be a JSON object."},
	{"string", `"x"`, "The request body must be a JSON object."},
	{"number", `1`, "The request body must be a JSON object."},
	{"malformed", `{"a":`, "Malformed JSON in request body."},
	{"two objects", `{}{}`, ""},
	{"NUL", `{"name":"a\u0000"}`, ""},
}

// oddQueries are query strings no screen sends. Lists must answer them with a 200 or a 400.
var oddQueries = []string{
	// TODO(list fix, issue 8): page × limit overflowed to a negative offset (500) before the list
	// layer clamps page; this case fails until that fix is merged, by design.
	"page=9223372036854775807",
	"page=-1", "page=0", "page=1e3", "limit=-1", "limit=0", "limit=1000000", "limit=9223372036854775807",
	"sort=__proto__", "sort=constructor", "sort=PK", "order=sideways", "search=" + strings.Repeat("%00", 3),
	"search=" + strings.Repeat("a", 100_000), "mediaType=" + strings.Repeat("x", 10_000),
}

// badIDs are path ids that are not ULIDs: each must be a 404 (or 400), never a key.
var badIDs = []string{strings.Repeat("A", 5000), "01arz3ndektsv4rrffq69g5fav", url.PathEscape("../../T#x"), "%00", "0"}

// TestEveryRoute walks every declared route with the attacks that apply to it.
func TestEveryRoute(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	beforeA := snapshot(t, w.a, w.reg, w.aIDs)
	beforeB := snapshot(t, w.b, w.reg, w.bIDs)
	for _, r := range allRoutes(t) {
		t.Run(r.Pattern, func(t *testing.T) {
			token := func() string { admin, _ := w.tokens(t, r); return admin }
			noRights := func() string { _, nr := w.tokens(t, r); return nr }
			ownID := w.aIDs[r.Prefix]
			if ownID == "" {
				ownID = "01ARZ3NDEKTSV4RRFFQ69G5FAV"
			}
			body := func() any {
				if r.hasBody() {
					return map[string]any{}
				}
				return nil
			}
			path := r.concrete(ownID)

			if !r.public() {
				refused(t, "no token", send(t, call{Method: r.Method, Path: path, Tenant: w.a.ID, Body: body()}), http.StatusUnauthorized)
				refused(t, "another tenant's token", send(t, call{Method: r.Method, Path: path, Tenant: w.a.ID, Token: w.b.AdminToken, Body: body()}),
					http.StatusUnauthorized)
				refused(t, "malformed token", send(t, call{Method: r.Method, Path: path, Tenant: w.a.ID, Token: strings.Repeat("x", 10_000), Body: body()}),
					http.StatusUnauthorized)
			}
			if _, isCollection := w.reg[r.Prefix]; isCollection {
				refused(t, "user without the permission", send(t, call{Method: r.Method, Path: path, Tenant: w.a.ID, Token: noRights(), Body: body()}),
					http.StatusForbidden)
			} else {
				send(t, call{Method: r.Method, Path: path, Tenant: w.a.ID, Token: noRights(), Body: body()})
			}
			if r.HasID {
				if other := w.bIDs[r.Prefix]; other != "" {
					refused(t, "another tenant's id", send(t, call{Method: r.Method, Path: r.concrete(other), Tenant: w.a.ID, Token: token(), Body: body()}),
						http.StatusNotFound)
				}
				for _, id := range badIDs {
					refused(t, "bad id "+id[:min(len(id), 12)], send(t, call{Method: r.Method, Path: r.concrete(id), Tenant: w.a.ID, Token: token(), Body: body()}),
						http.StatusNotFound, http.StatusBadRequest)
				}
			}
			if r.hasBody() {
				for _, b := range notObjects {
					res := send(t, call{Method: r.Method, Path: path, Tenant: w.a.ID, Token: token(), Body: b.body})
					refused(t, "body "+b.name, res, http.StatusBadRequest)
					if b.message != "" && res.Message() != b.message {
						t.Errorf("body %s: message %q, want %q", b.name, res.Message(), b.message)
					}
				}
				refused(t, "body over 1 MB", send(t, call{Method: r.Method, Path: path, Tenant: w.a.ID, Token: token(), Body: hugeBody}),
					http.StatusRequestEntityTooLarge)
				refused(t, "form body", send(t, call{Method: r.Method, Path: path, Tenant: w.a.ID, Token: token(), Body: "a=1",
					Header: map[string]string{"Content-Type": "application/x-www-form-urlencoded"}}), http.StatusUnsupportedMediaType)
			}
			if _, isCollection := w.reg[r.Prefix]; r.hasBody() && !isCollection {
				// Known input names of the non-collection routes, each as a 100k-char string and
				// as a wrong type (collections are attacked field by field in TestEveryCollection).
				for _, key := range []string{"username", "password", "passcode", "name", "mimeType", "key", "email", "phone", "notificaitonIds", "notificationIds", "challenge", "code", "recoveryCode"} {
					for _, v := range []any{strings.Repeat("a", 100_000), map[string]any{"x": 1}, -1e308} {
						res := send(t, call{Method: r.Method, Path: path, Tenant: w.a.ID, Token: token(), Body: map[string]any{key: v}})
						if res.Status/100 == 2 && r.Prefix != "auth" {
							t.Errorf("%s=%T accepted: %.200s", key, v, res.Raw)
						}
					}
				}
			}
			// A list's odd queries (a route naming one thing, by id or version, is no list).
			if r.Method == http.MethodGet && !r.HasID && !strings.Contains(r.Path, "{version}") {
				for _, q := range oddQueries {
					res := send(t, call{Method: r.Method, Path: path + "?" + q, Tenant: w.a.ID, Token: token()})
					if res.Status != 200 && res.Status != 400 {
						t.Errorf("?%.40s: %d, want 200 or 400", q, res.Status)
					}
				}
			}
		})
	}
	// Nothing the walk sent was written: both tenants look exactly as before.
	sameSnapshot(t, "tenant A after the walk", beforeA, snapshot(t, w.a, w.reg, w.aIDs))
	sameSnapshot(t, "tenant B after the walk", beforeB, snapshot(t, w.b, w.reg, w.bIDs))
}
