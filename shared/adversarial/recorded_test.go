package adversarial_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/testkit"
)

// recorded is what one accepted write must have left: its audit entry (action, collection and
// record as the log names them) and, where its kind is versioned and it replaced a state, that
// state kept as version `version`: listed at versions, or, for a delete, in the trash of kind
// trash.
type recorded struct {
	action, collection, id string
	versions               string
	trash                  string
	version                int
}

// notRecordWrites are the write routes that change no record, each with why: the walk fails on
// any other write route it cannot make an accepted write through.
var notRecordWrites = map[string]string{
	"POST /auth/password-reset":          "a reset link and its mail: the account changes, and is recorded, when /auth/password-reset/confirm uses the link",
	"POST /auth/two-factor/setup":        "a key waiting for its first code: the account changes, and is recorded, when /auth/two-factor/enable confirms it",
	"POST /media/uploads":                "an upload request: the library changes, and is recorded, when POST /media confirms the upload",
	"POST /pages/{id}/preview":           "a short-lived preview token: the page does not change",
	"POST /newsletters/{id}/test":        "a test mail to the caller: the newsletter does not change",
	"POST /newsletters/preview":          "renders unsaved input as its mail: nothing is stored",
	"POST /accessibility-check":          "the editor's accessibility check: it reads the values sent and writes nothing",
	"POST /wordpress-imports":            "an import job and its upload form: nothing else changes until it runs",
	"POST /wordpress-imports/{id}/check": "a dry run: it writes nothing but its job's report",
	"POST /wordpress-imports/{id}/import": "starts the import outside the request; every record it writes is the engine's write as the caller, " +
		"recorded as any (shared/wpimport TestImportASite reads them in the audit log)",
}

// recWalk is the cast of TestEveryWriteIsRecorded: one tenant, its declarations, and staff to
// sign in as.
type recWalk struct {
	reg collections.Registry
	tn  testkit.Tenant
}

func (w *recWalk) call(t *testing.T, token, method, path string, body any, want int) testkit.Response {
	t.Helper()
	res := send(t, call{Method: method, Path: path, Tenant: w.tn.ID, Token: token, Body: body})
	if res.Status != want {
		t.Fatalf("%s %s: %d %.400s, want %d", method, path, res.Status, res.Raw, want)
	}
	return res
}

func (w *recWalk) admin(t *testing.T, method, path string, body any, want int) testkit.Response {
	t.Helper()
	return w.call(t, w.tn.AdminToken, method, path, body, want)
}

// create makes a sample record of collection key and returns its id.
func (w *recWalk) create(t *testing.T, key string) string {
	t.Helper()
	return testkit.CreateRecord(t, w.tn, w.reg, w.reg[key], next())["id"].(string)
}

// staff makes a user who can sign in (no rights) and returns its id, username and token.
func (w *recWalk) staff(t *testing.T) (id, name, token string) {
	t.Helper()
	name = fmt.Sprintf("walker-%d", next())
	res := w.admin(t, "POST", "/users", map[string]any{"firstName": "Walk", "lastName": "Er", "username": name, "password": "walk-pass-1",
		"permissionIds": []string{}}, http.StatusCreated)
	return res.Get("result.id").(string), name, testkit.Login(t, w.tn.ID, name, "walk-pass-1")
}

// twoFactor turns two-factor sign-in on for the user of token and returns its secret.
func (w *recWalk) twoFactor(t *testing.T, token string) string {
	t.Helper()
	return testkit.EnableTwoFactor(t, w.tn.ID, token, "walk-pass-1")
}

// version is the record's (or the menu's) version as GET shows it.
func (w *recWalk) version(t *testing.T, path string) int {
	t.Helper()
	res := w.admin(t, "GET", path, nil, http.StatusOK)
	v, ok := res.Get("result.version").(float64)
	if !ok {
		v, _ = res.Get("version").(float64)
	}
	return int(v)
}

// newest is the id of the tenant's newest audit entry ("" for none).
func (w *recWalk) newest(t *testing.T) string {
	t.Helper()
	id, _ := w.admin(t, "GET", "/audit-log?limit=1", nil, http.StatusOK).Get("result.0.id").(string)
	return id
}

// since lists the audit entries newer than the one mark names, newest first.
func (w *recWalk) since(t *testing.T, mark string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, e := range w.admin(t, "GET", "/audit-log?limit=100", nil, http.StatusOK).Body["result"].([]any) {
		e := e.(map[string]any)
		if e["id"] == mark {
			break
		}
		out = append(out, e)
	}
	return out
}

// recipe makes one accepted write through route r and says what it must have left; nil when the
// walk does not know the route.
func (w *recWalk) recipe(r route) func(t *testing.T) recorded {
	tenant := w.tn.ID
	if fn, ok := w.special()[r.Method+" "+r.Path]; ok {
		return fn
	}
	c, ok := w.reg[r.Prefix]
	if !ok {
		return nil
	}
	base := "/" + c.Key
	if c.Singleton != "" {
		switch r.Method + " " + strings.TrimPrefix(r.Path, base) {
		case "PATCH ", "PATCH /{id}":
			return func(t *testing.T) recorded {
				v := w.version(t, base)
				w.admin(t, "PATCH", r.concrete(tenant), map[string]any{"version": v}, http.StatusOK)
				return recorded{action: "update", collection: c.Key, id: tenant, versions: base + "/" + tenant + "/versions", version: v}
			}
		case "POST /{id}/versions/{version}/restore":
			return func(t *testing.T) recorded {
				v := w.version(t, base)
				w.admin(t, "PATCH", base, map[string]any{"version": v}, http.StatusOK)
				w.admin(t, "POST", fmt.Sprintf("%s/%s/versions/%d/restore", base, tenant, v), map[string]any{"version": v + 1}, http.StatusOK)
				return recorded{action: "restore", collection: c.Key, id: tenant, versions: base + "/" + tenant + "/versions", version: v + 1}
			}
		}
		return nil
	}
	if c.Workflow {
		if fn := w.workflowRecipe(c, strings.TrimPrefix(r.Path, base), r.Method); fn != nil {
			return fn
		}
	}
	switch r.Method + " " + strings.TrimPrefix(r.Path, base) {
	case "POST ":
		return func(t *testing.T) recorded {
			id := w.create(t, c.Key)
			return recorded{action: "create", collection: c.Key, id: id}
		}
	case "PATCH /{id}":
		return func(t *testing.T) recorded {
			id := w.create(t, c.Key)
			body := testkit.SampleBody(t, w.tn, w.reg, c, next())
			body["version"] = 1
			w.admin(t, "PATCH", base+"/"+id, body, http.StatusOK)
			return recorded{action: "update", collection: c.Key, id: id, versions: base + "/" + id + "/versions", version: 1}
		}
	case "DELETE /{id}":
		return func(t *testing.T) recorded {
			id := w.create(t, c.Key)
			w.admin(t, "DELETE", base+"/"+id, nil, http.StatusOK)
			return recorded{action: "delete", collection: c.Key, id: id, trash: c.Key, version: 1}
		}
	case "POST /{id}/versions/{version}/restore":
		return func(t *testing.T) recorded {
			id := w.create(t, c.Key)
			body := testkit.SampleBody(t, w.tn, w.reg, c, next())
			body["version"] = 1
			w.admin(t, "PATCH", base+"/"+id, body, http.StatusOK)
			w.admin(t, "POST", base+"/"+id+"/versions/1/restore", map[string]any{"version": 2}, http.StatusOK)
			return recorded{action: "restore", collection: c.Key, id: id, versions: base + "/" + id + "/versions", version: 2}
		}
	}
	return nil
}

// special are the recipes of the write routes beside the generic collection routes.
func (w *recWalk) special() map[string]func(t *testing.T) recorded {
	tenant := w.tn.ID
	user := func(id string) string { return "/users/" + id + "/versions" }
	menuVersion := func(t *testing.T) int {
		// A first save keeps nothing (there was no menu): make sure there is one.
		if v := w.version(t, "/menu-items"); v > 0 {
			return v
		}
		w.admin(t, "POST", "/menu-items", map[string]any{"label": "First", "url": "/first"}, http.StatusCreated)
		return w.version(t, "/menu-items")
	}
	menu := func(action string, v int) recorded {
		return recorded{action: action, collection: "menu", id: tenant, versions: "/menu-items/versions", version: v}
	}
	submission := func(t *testing.T) (formID, id string) {
		formID = w.create(t, "custom-forms")
		res := w.admin(t, "POST", "/custom-form-submissions", map[string]any{"formId": formID, "Name": "Walker"}, http.StatusCreated)
		return formID, res.Get("result.id").(string)
	}
	section := func(t *testing.T) (pageID, id string) {
		pageID = w.create(t, "pages")
		var banner string
		for _, v := range w.admin(t, "GET", "/page-section-types", nil, http.StatusOK).Body["result"].([]any) {
			if m := v.(map[string]any); m["slug"] == "banner" {
				banner = m["id"].(string)
			}
		}
		res := w.admin(t, "POST", "/page-sections", map[string]any{"pageId": pageID, "pageSectionTypeId": banner, "title": "Banner",
			"config": `[{"id":"item-a","title":"Item"}]`}, http.StatusCreated)
		return pageID, res.Get("result.id").(string)
	}
	trashed := func(t *testing.T) string {
		id := w.create(t, "faqs")
		w.admin(t, "DELETE", "/faqs/"+id, nil, http.StatusOK)
		return id
	}
	return map[string]func(t *testing.T) recorded{
		"POST /auth/login": func(t *testing.T) recorded {
			_, name, _ := w.staff(t)
			w.call(t, "", "POST", "/auth/login", map[string]any{"username": name, "password": "walk-pass-1"}, http.StatusOK)
			return recorded{action: "login"}
		},
		"POST /auth/passcode": func(t *testing.T) recorded {
			_, name, token := w.staff(t)
			w.call(t, token, "PATCH", "/auth/me", map[string]any{"username": name, "email": "walker@example.org", "phone": "5550001111",
				"passcode": "135790", "currentPassword": "walk-pass-1"}, http.StatusOK)
			w.call(t, "", "POST", "/auth/passcode", map[string]any{"username": name, "passcode": "135790"}, http.StatusOK)
			return recorded{action: "login"}
		},
		"POST /auth/two-factor": func(t *testing.T) recorded {
			_, name, token := w.staff(t)
			secret := w.twoFactor(t, token)
			res := w.call(t, "", "POST", "/auth/login", map[string]any{"username": name, "password": "walk-pass-1"}, http.StatusOK)
			w.call(t, "", "POST", "/auth/two-factor", map[string]any{"challenge": res.Get("result.challenge"), "code": testkit.TOTP(t, secret, 1)}, http.StatusOK)
			return recorded{action: "login"}
		},
		"POST /auth/logout": func(t *testing.T) recorded {
			_, _, token := w.staff(t)
			w.call(t, token, "POST", "/auth/logout", map[string]any{}, http.StatusOK)
			return recorded{action: "logout"}
		},
		"DELETE /auth/sessions/{id}": func(t *testing.T) recorded {
			_, name, token := w.staff(t)
			testkit.Login(t, tenant, name, "walk-pass-1")
			var other string
			for _, s := range w.call(t, token, "GET", "/auth/sessions", nil, http.StatusOK).Body["result"].([]any) {
				if s := s.(map[string]any); s["current"] == false {
					other = s["id"].(string)
				}
			}
			w.call(t, token, "DELETE", "/auth/sessions/"+other, nil, http.StatusOK)
			return recorded{action: "logout"}
		},
		"POST /auth/sessions/sign-out-others": func(t *testing.T) recorded {
			_, _, token := w.staff(t)
			w.call(t, token, "POST", "/auth/sessions/sign-out-others", map[string]any{}, http.StatusOK)
			return recorded{action: "sign-out-others"}
		},
		"POST /auth/users/{id}/sign-out": func(t *testing.T) recorded {
			id, _, _ := w.staff(t)
			w.admin(t, "POST", "/auth/users/"+id+"/sign-out", map[string]any{}, http.StatusOK)
			return recorded{action: "sign-out-user", collection: "users", id: id}
		},
		"POST /auth/password-reset/confirm": func(t *testing.T) recorded {
			name := fmt.Sprintf("walker-%d", next())
			id := w.admin(t, "POST", "/users", map[string]any{"firstName": "Walk", "lastName": "Er", "username": name, "password": "walk-pass-1",
				"email": name + "@example.org", "permissionIds": []string{}}, http.StatusCreated).Get("result.id").(string)
			w.call(t, "", "POST", "/auth/password-reset", map[string]any{"username": name}, http.StatusOK)
			token := resetToken(t, tenant, name+"@example.org")
			w.call(t, "", "POST", "/auth/password-reset/confirm", map[string]any{"token": token, "password": "walk-pass-2"}, http.StatusOK)
			return recorded{action: "update", collection: "users", id: id, versions: user(id), version: 1}
		},
		"PATCH /auth/me": func(t *testing.T) recorded {
			id, name, token := w.staff(t)
			w.call(t, token, "PATCH", "/auth/me", map[string]any{"username": name, "email": "walker@example.org", "phone": "5550001111"}, http.StatusOK)
			return recorded{action: "update", collection: "users", id: id, versions: user(id), version: 1}
		},
		"POST /auth/two-factor/enable": func(t *testing.T) recorded {
			id, _, token := w.staff(t)
			w.twoFactor(t, token)
			return recorded{action: "update", collection: "users", id: id, versions: user(id), version: 1}
		},
		"POST /auth/two-factor/recovery-codes": func(t *testing.T) recorded {
			id, _, token := w.staff(t)
			secret := w.twoFactor(t, token)
			w.call(t, token, "POST", "/auth/two-factor/recovery-codes", map[string]any{"password": "walk-pass-1", "code": testkit.TOTP(t, secret, 1)}, http.StatusOK)
			return recorded{action: "update", collection: "users", id: id, versions: user(id), version: 2}
		},
		"POST /auth/two-factor/disable": func(t *testing.T) recorded {
			id, _, token := w.staff(t)
			secret := w.twoFactor(t, token)
			w.call(t, token, "POST", "/auth/two-factor/disable", map[string]any{"password": "walk-pass-1", "code": testkit.TOTP(t, secret, 1)}, http.StatusOK)
			return recorded{action: "update", collection: "users", id: id, versions: user(id), version: 2}
		},
		"POST /media": func(t *testing.T) recorded {
			return recorded{action: "create", collection: "media", id: uploadMedia(t, w.tn)}
		},
		"PATCH /media/{id}": func(t *testing.T) recorded {
			id := uploadMedia(t, w.tn)
			w.admin(t, "PATCH", "/media/"+id, map[string]any{"altText": "A walk", "decorative": false}, http.StatusOK)
			return recorded{action: "update", collection: "media", id: id}
		},
		"DELETE /media/{id}": func(t *testing.T) recorded {
			id := uploadMedia(t, w.tn)
			w.admin(t, "DELETE", "/media/"+id, nil, http.StatusOK)
			return recorded{action: "delete", collection: "media", id: id, trash: "media", version: 1}
		},
		"POST /menu-items": func(t *testing.T) recorded {
			v := menuVersion(t)
			w.admin(t, "POST", "/menu-items", map[string]any{"label": "Walk", "url": "/walk"}, http.StatusCreated)
			return menu("update", v)
		},
		"PATCH /menu-items": func(t *testing.T) recorded {
			v := menuVersion(t)
			tree := w.admin(t, "GET", "/menu-items", nil, http.StatusOK).Get("result")
			w.admin(t, "PATCH", "/menu-items", map[string]any{"menuItems": tree, "version": v}, http.StatusOK)
			return menu("update", v)
		},
		"DELETE /menu-items/{id}": func(t *testing.T) recorded {
			menuVersion(t)
			id := w.admin(t, "POST", "/menu-items", map[string]any{"label": "Gone", "url": "/gone"}, http.StatusCreated).Get("result.id").(string)
			v := w.version(t, "/menu-items")
			w.admin(t, "DELETE", "/menu-items/"+id, nil, http.StatusOK)
			return menu("update", v)
		},
		"POST /menu-items/versions/{version}/restore": func(t *testing.T) recorded {
			menuVersion(t)
			w.admin(t, "POST", "/menu-items", map[string]any{"label": "Again", "url": "/again"}, http.StatusCreated)
			v := w.version(t, "/menu-items")
			w.admin(t, "POST", "/menu-items/versions/1/restore", map[string]any{"version": v}, http.StatusOK)
			return menu("restore", v)
		},
		"PATCH /notifications/{$}": func(t *testing.T) recorded {
			body := testkit.SampleBody(t, w.tn, w.reg, w.reg["notifications"], next())
			body["read"] = false
			id := w.admin(t, "POST", "/notifications", body, http.StatusCreated).Get("result.id").(string)
			w.admin(t, "PATCH", "/notifications/", map[string]any{"passcode": "", "notificaitonIds": []string{id}}, http.StatusOK)
			return recorded{action: "update", collection: "notifications", id: id, versions: "/notifications/" + id + "/versions", version: 1}
		},
		"POST /page-sections": func(t *testing.T) recorded {
			pageID, _ := section(t)
			return recorded{action: "update", collection: "pages", id: pageID, versions: "/pages/" + pageID + "/versions", version: 1}
		},
		"PATCH /page-sections/{id}": func(t *testing.T) recorded {
			pageID, id := section(t)
			w.admin(t, "PATCH", "/page-sections/"+id, map[string]any{"title": "Renamed"}, http.StatusOK)
			return recorded{action: "update", collection: "pages", id: pageID, versions: "/pages/" + pageID + "/versions", version: 2}
		},
		"DELETE /page-sections/{id}": func(t *testing.T) recorded {
			pageID, id := section(t)
			w.admin(t, "DELETE", "/page-sections/"+id, nil, http.StatusOK)
			return recorded{action: "update", collection: "pages", id: pageID, versions: "/pages/" + pageID + "/versions", version: 2}
		},
		"POST /newsletters/{id}/send": func(t *testing.T) recorded {
			// Sending needs someone confirmed and a website to link the unsubscribe page on.
			testkit.SetDomains(t, tenant, tenant+".example.org")
			w.admin(t, "POST", "/newsletter-signups", map[string]any{"email": fmt.Sprintf("walk-%d@example.org", next()), "subscription": "confirmed"}, http.StatusCreated)
			id := w.create(t, "newsletters")
			w.admin(t, "POST", "/newsletters/"+id+"/send", nil, http.StatusAccepted)
			return recorded{action: "update", collection: "newsletters", id: id, versions: "/newsletters/" + id + "/versions", version: 1}
		},
		"POST /custom-form-submissions": func(t *testing.T) recorded {
			formID, id := submission(t)
			return recorded{action: "create", collection: "custom-form-submissions", id: formID + "/" + id}
		},
		"PATCH /custom-form-submissions/{id}": func(t *testing.T) recorded {
			formID, id := submission(t)
			w.admin(t, "PATCH", "/custom-form-submissions/"+id, map[string]any{"checked": true, "formId": formID}, http.StatusOK)
			return recorded{action: "update", collection: "custom-form-submissions", id: formID + "/" + id}
		},
		"DELETE /custom-form-submissions/{id}": func(t *testing.T) recorded {
			formID, id := submission(t)
			w.admin(t, "DELETE", "/custom-form-submissions/"+id+"?formId="+formID, nil, http.StatusOK)
			return recorded{action: "delete", collection: "custom-form-submissions", id: formID + "/" + id}
		},
		"POST /trash/{kind}/{id}/{version}/restore": func(t *testing.T) recorded {
			id := trashed(t)
			w.admin(t, "POST", "/trash/faqs/"+id+"/1/restore", map[string]any{}, http.StatusOK)
			return recorded{action: "restore", collection: "faqs", id: id}
		},
		"DELETE /trash/{kind}/{id}/{version}": func(t *testing.T) recorded {
			id := trashed(t)
			w.admin(t, "DELETE", "/trash/faqs/"+id+"/1", nil, http.StatusOK)
			return recorded{action: "purge", collection: "faqs", id: id}
		},
	}
}

// TestEveryWriteIsRecorded (issue 39, item 5) walks every write route the groups declare and
// makes one accepted write through each: each must leave its audit entry and, where its kind is
// versioned and it replaced a state, that state as a version (or, deleted, in the trash). A new
// write route fails the walk until it is taught here (or listed in notRecordWrites, with why).
func TestEveryWriteIsRecorded(t *testing.T) {
	t.Parallel()
	w := &recWalk{reg: registry(t), tn: testkit.NewTenant(t)}
	walked := 0
	for _, r := range allRoutes(t) {
		if r.Method == http.MethodGet || r.Method == http.MethodHead {
			continue
		}
		key := r.Method + " " + r.Path
		if _, ok := notRecordWrites[key]; ok {
			continue
		}
		write := w.recipe(r)
		if write == nil {
			t.Errorf("%s: a write route the walk cannot make an accepted write through: teach recipe(), or list it in notRecordWrites with why", key)
			continue
		}
		walked++
		t.Run(key, func(t *testing.T) {
			mark := w.newest(t)
			want := write(t)
			var found bool
			var seen []string
			for _, e := range w.since(t, mark) {
				got := fmt.Sprint(e["action"], " ", e["collection"], " ", e["recordId"])
				seen = append(seen, got)
				if got == fmt.Sprint(want.action, " ", want.collection, " ", want.id) {
					found = true
				}
			}
			if !found {
				t.Errorf("no audit entry %q; the write left %q", fmt.Sprint(want.action, " ", want.collection, " ", want.id), seen)
			}
			switch {
			case want.versions != "":
				res := w.admin(t, "GET", want.versions, nil, http.StatusOK)
				if !hasVersion(res, "version", want.version) {
					t.Errorf("version %d not kept: %s", want.version, res.Raw)
				}
			case want.trash != "":
				res := w.admin(t, "GET", "/trash?kind="+want.trash+"&limit=100", nil, http.StatusOK)
				var kept bool
				for _, e := range res.Body["result"].([]any) {
					e := e.(map[string]any)
					kept = kept || (e["id"] == want.id && e["version"] == float64(want.version))
				}
				if !kept {
					t.Errorf("version %d of %s not in the trash: %s", want.version, want.id, res.Raw)
				}
			}
		})
	}
	if walked < 100 {
		t.Fatalf("only %d write routes walked", walked)
	}
}

// hasVersion says a versions list holds an entry whose field is version.
func hasVersion(res testkit.Response, field string, version int) bool {
	list, _ := res.Body["result"].([]any)
	for _, v := range list {
		if v.(map[string]any)[field] == float64(version) {
			return true
		}
	}
	return false
}

// workflowRecipe makes one accepted write through a workflow collection's draft and review routes
// (shared/collections/workflow.go): each step is audited under the record's id.
func (w *recWalk) workflowRecipe(c *collections.Collection, path, method string) func(t *testing.T) recorded {
	base := "/" + c.Key
	// draft makes a live record with a draft and returns its id.
	draft := func(t *testing.T) string {
		id := w.create(t, c.Key)
		w.admin(t, "PUT", base+"/"+id+"/draft", map[string]any{c.NameField: fmt.Sprintf("Draft %d", next())}, http.StatusOK)
		return id
	}
	submitted := func(t *testing.T) string {
		id := draft(t)
		w.admin(t, "POST", base+"/"+id+"/draft/submit", map[string]any{}, http.StatusOK)
		return id
	}
	rec := func(action, id string) recorded { return recorded{action: action, collection: c.Key, id: id} }
	switch method + " " + path {
	case "POST /draft":
		return func(t *testing.T) recorded {
			body := testkit.SampleBody(t, w.tn, w.reg, c, next())
			id := w.admin(t, "POST", base+"/draft", body, http.StatusCreated).Get("result.id").(string)
			return rec(collections.ActionDraftCreate, id)
		}
	case "PUT /{id}/draft":
		return func(t *testing.T) recorded { return rec(collections.ActionDraftCreate, draft(t)) }
	case "DELETE /{id}/draft":
		return func(t *testing.T) recorded {
			id := draft(t)
			w.admin(t, "DELETE", base+"/"+id+"/draft", nil, http.StatusOK)
			return rec(collections.ActionDraftDiscard, id)
		}
	case "POST /{id}/draft/submit":
		return func(t *testing.T) recorded { return rec(collections.ActionDraftSubmit, submitted(t)) }
	case "POST /{id}/draft/approve":
		return func(t *testing.T) recorded {
			id := submitted(t)
			w.admin(t, "POST", base+"/"+id+"/draft/approve", map[string]any{}, http.StatusOK)
			return rec(collections.ActionDraftApprove, id)
		}
	case "POST /{id}/draft/request-changes":
		return func(t *testing.T) recorded {
			id := submitted(t)
			w.admin(t, "POST", base+"/"+id+"/draft/request-changes", map[string]any{"comment": "Shorter, please."}, http.StatusOK)
			return rec(collections.ActionDraftRequestChanges, id)
		}
	case "POST /{id}/draft/publish":
		return func(t *testing.T) recorded {
			id := draft(t)
			w.admin(t, "POST", base+"/"+id+"/draft/publish", map[string]any{}, http.StatusOK)
			return recorded{action: collections.ActionDraftPublish, collection: c.Key, id: id, versions: base + "/" + id + "/versions", version: 1}
		}
	case "POST /{id}/comments":
		return func(t *testing.T) recorded {
			id := w.create(t, c.Key)
			w.admin(t, "POST", base+"/"+id+"/comments", map[string]any{"comment": "Looks good."}, http.StatusCreated)
			return rec(collections.ActionComment, id)
		}
	}
	return nil
}
