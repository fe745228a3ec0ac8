package public_test

import (
	"net/http"
	"testing"

	"github.com/campuscms/panel/shared/testkit"
)

// staff makes one panel call as the tenant's admin and expects status.
func staff(t *testing.T, tn testkit.Tenant, method, path string, body any, status int) testkit.Response {
	t.Helper()
	res := testkit.Call(t, testkit.Request{Method: method, Path: path, Tenant: tn.ID, Token: tn.AdminToken, Body: body})
	testkit.Expect(t, res, status, "")
	return res
}

func menuItem(t *testing.T, tn testkit.Tenant, body map[string]any) string {
	t.Helper()
	return staff(t, tn, "POST", "/menu-items", body, http.StatusCreated).Get("result.id").(string)
}

func TestPublicSiteDefaults(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	res := public(t, req{path: "/site", tenant: tn.ID})
	expect(t, res, http.StatusOK)
	if res.calls != 2 {
		t.Errorf("%d DynamoDB calls, want 2 (tenant, one batch)", res.calls)
	}
	s := res.body["result"].(map[string]any)
	inst := s["institution"].(map[string]any)
	if inst["id"] != tn.ID || inst["name"] == nil || inst["name"] == "" || inst["logoFull"] != nil {
		t.Errorf("institution %v", inst)
	}
	header, footer := s["header"].(map[string]any), s["footer"].(map[string]any)
	settings, seo := s["themeSettings"].(map[string]any), s["seo"].(map[string]any)
	if header["textColor"] != "#1f2937" || header["showLogo"] != true || header["logoUrl"] != nil ||
		footer["backgroundColor"] != "#111827" || settings["theme"] != "classic" || settings["customCss"] != "" ||
		seo["twitterCard"] != "summary_large_image" {
		t.Errorf("defaults %s", res.raw)
	}
	site := s["siteSettings"].(map[string]any)
	if site["timeZone"] != "UTC" {
		t.Errorf("site settings %v", site)
	}
	if th := s["theme"].(map[string]any); th["id"] != "classic" || th["name"] != "Classic" {
		t.Errorf("theme %v", th)
	}
	if m := s["menu"].([]any); len(m) != 0 {
		t.Errorf("menu %v", m)
	}
	for _, part := range []map[string]any{header, footer, settings, seo, site} {
		for _, internal := range []string{"id", "version", "PK", "SK", "createdAt", "updatedAt"} {
			if _, leaked := part[internal]; leaked {
				t.Errorf("%q leaked: %v", internal, part)
			}
		}
	}
	expect(t, public(t, req{path: "/site", tenant: "no-such-tenant"}), http.StatusNotFound)
}

func TestPublicSite(t *testing.T) {
	t.Parallel()
	tn, other := testkit.NewTenant(t), testkit.NewTenant(t)
	staff(t, tn, "PATCH", "/theme-settings/"+tn.ID, map[string]any{"themeId": "modern"}, http.StatusOK)
	staff(t, tn, "PATCH", "/theme-settings/"+tn.ID, map[string]any{"customCss": "body { color: red; }", "primaryColor": "#112233"}, http.StatusOK)
	staff(t, tn, "PATCH", "/header/"+tn.ID, map[string]any{"title": "St Mary's", "logoUrl": img}, http.StatusOK)
	staff(t, tn, "PATCH", "/seo-settings/"+tn.ID, map[string]any{"defaultTitle": "St Mary's College"}, http.StatusOK)
	published := newPage(t, tn, map[string]any{"title": "Admissions", "slug": "admissions"})
	draft := newPage(t, tn, map[string]any{"title": "Draft", "slug": "draft", "isPublished": false})

	// home (active) > news (active), hidden child (inactive); old (inactive) > orphan (active);
	// admissions (PAGE, published); draft (PAGE, unpublished).
	home := menuItem(t, tn, map[string]any{"label": "Home", "url": "/"})
	news := menuItem(t, tn, map[string]any{"label": "News", "url": "/news"})
	hidden := menuItem(t, tn, map[string]any{"label": "Hidden", "url": "/hidden", "status": false})
	old := menuItem(t, tn, map[string]any{"label": "Old", "url": "/old", "status": false})
	orphan := menuItem(t, tn, map[string]any{"label": "Orphan", "url": "/orphan"})
	adm := menuItem(t, tn, map[string]any{"label": "Apply", "type": "PAGE", "url": published})
	drf := menuItem(t, tn, map[string]any{"label": "Soon", "type": "PAGE", "url": draft})
	version := staff(t, tn, "GET", "/menu-items", nil, http.StatusOK).Get("version")
	staff(t, tn, "PATCH", "/menu-items", map[string]any{"version": version, "menuItems": []any{
		map[string]any{"id": home, "children": []any{map[string]any{"id": news}, map[string]any{"id": hidden}}},
		map[string]any{"id": old, "children": []any{map[string]any{"id": orphan}}},
		map[string]any{"id": adm}, map[string]any{"id": drf},
	}}, http.StatusOK)

	res := public(t, req{path: "/site", tenant: tn.ID})
	expect(t, res, http.StatusOK)
	if res.calls != 3 {
		t.Errorf("%d DynamoDB calls, want 3 (tenant, singletons and menu, linked pages)", res.calls)
	}
	s := res.body["result"].(map[string]any)
	if th := s["theme"].(map[string]any); th["id"] != "modern" || th["name"] != "Modern" {
		t.Errorf("theme %v", th)
	}
	settings := s["themeSettings"].(map[string]any)
	if settings["customCss"] != "body { color: red; }" || settings["primaryColor"] != "#112233" || settings["theme"] != "modern" {
		t.Errorf("theme settings %v", settings)
	}
	if h := s["header"].(map[string]any); h["title"] != "St Mary's" || h["logoUrl"] != "http://example.com/media/"+tn.ID+"/"+img {
		t.Errorf("header %v", h)
	}
	if seo := s["seo"].(map[string]any); seo["defaultTitle"] != "St Mary's College" || seo["twitterCard"] != "summary_large_image" {
		t.Errorf("seo %v", seo)
	}
	m := s["menu"].([]any)
	if len(m) != 2 {
		t.Fatalf("menu %s", res.raw)
	}
	first, second := m[0].(map[string]any), m[1].(map[string]any)
	kids := first["children"].([]any)
	if first["id"] != home || first["label"] != "Home" || first["url"] != "/" || len(kids) != 1 || kids[0].(map[string]any)["id"] != news {
		t.Errorf("first item %v", first)
	}
	if second["id"] != adm || second["type"] != "PAGE" || second["url"] != "/admissions" || len(second["children"].([]any)) != 0 {
		t.Errorf("page item %v", second)
	}
	for _, it := range []map[string]any{first, kids[0].(map[string]any)} {
		if _, leaked := it["status"]; leaked {
			t.Errorf("status leaked: %v", it)
		}
	}

	// Another tenant's bundle holds none of it.
	o := public(t, req{path: "/site", tenant: other.ID})
	expect(t, o, http.StatusOK)
	os := o.body["result"].(map[string]any)
	if os["header"].(map[string]any)["title"] != "" || os["theme"].(map[string]any)["id"] != "classic" || len(os["menu"].([]any)) != 0 ||
		os["institution"].(map[string]any)["id"] != other.ID {
		t.Errorf("other tenant %s", o.raw)
	}
}
