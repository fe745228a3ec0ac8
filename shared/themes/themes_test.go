package themes_test

import (
	"strings"
	"testing"

	"github.com/campuscms/panel/shared/plans"
	"github.com/campuscms/panel/shared/testkit"
)

func TestMain(m *testing.M) { testkit.Main(m) }

type call = testkit.Request

func TestCatalogue(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	res := testkit.Call(t, call{Method: "GET", Path: "/themes", Tenant: tn.ID, Token: tn.AdminToken})
	testkit.Expect(t, res, 200, "")
	list := res.Body["result"].([]any)
	if len(list) < 4 || res.Get("result.0.id") == nil || !strings.HasPrefix(res.Get("result.0.image").(string), "/themes/") {
		t.Fatalf("themes %s", res.Raw)
	}
	res = testkit.Call(t, call{Method: "GET", Path: "/plans", Tenant: tn.ID, Token: tn.AdminToken})
	testkit.Expect(t, res, 200, "")
	info := testkit.Call(t, call{Method: "GET", Path: "/auth/tenant-info", Tenant: tn.ID})
	if want, err := plans.Default(); err != nil || info.Get("result.planId") != want {
		t.Fatalf("a new tenant's plan %v, want the catalogue's default %v (%v)", info.Get("result.planId"), want, err)
	}
	// The new categories are in the permission catalogue like the others.
	perms := testkit.Call(t, call{Method: "GET", Path: "/permissions", Tenant: tn.ID, Token: tn.AdminToken})
	for _, cat := range []string{"MENU_ITEM", "THEME", "THEME_SETTING", "SEO_SETTING", "HEADER", "FOOTER", "PLAN"} {
		if perms.Get("permissionsGrouped."+cat+".0.id") != "CMS_VIEW_"+cat {
			t.Errorf("category %s missing from GET /permissions", cat)
		}
	}
}

func TestActivateAndSettings(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	as := func(method, path string, body any) testkit.Response {
		return testkit.Call(t, call{Method: method, Path: path, Tenant: tn.ID, Token: tn.AdminToken, Body: body})
	}
	res := as("GET", "/theme-settings", nil)
	testkit.Expect(t, res, 200, "")
	if res.Get("result.id") != tn.ID || res.Get("result.theme") != "classic" || res.Get("result.fontFamily") != "Arial" || res.Get("result.customCss") != nil {
		t.Fatalf("defaults %s", res.Raw)
	}
	path := "/theme-settings/" + tn.ID
	testkit.Expect(t, as("PATCH", path, map[string]any{"themeId": "modern"}), 200, "")
	info := testkit.Call(t, call{Method: "GET", Path: "/auth/tenant-info", Tenant: tn.ID})
	if info.Get("result.themeSetting.theme") != "modern" || info.Get("result.name") == nil {
		t.Fatalf("tenant-info after activation %s", info.Raw)
	}
	cases := []struct {
		name   string
		body   map[string]any
		status int
		check  map[string]any
	}{
		{"unknown theme", map[string]any{"themeId": "neon"}, 400, nil},
		{"themeId with other fields", map[string]any{"themeId": "modern", "fontFamily": "Arial"}, 400, nil},
		{"font outside the list", map[string]any{"fontFamily": "Papyrus"}, 400, nil},
		{"palette outside the list", map[string]any{"colorSchemeName": "Pink"}, 400, nil},
		{"colour not hex", map[string]any{"primaryColor": "blue"}, 400, nil},
		{"css too long", map[string]any{"customCss": strings.Repeat("a", 51201)}, 400, nil},
		{"theme through the settings field", map[string]any{"theme": "nope"}, 400, nil},
		{"palette brings its colours", map[string]any{"colorSchemeName": "Green", "fontFamily": "Georgia"}, 200,
			map[string]any{"primaryColor": "#43a047", "secondaryColor": "#c8e6c9", "fontFamily": "Georgia"}},
		{"own colours win", map[string]any{"colorSchemeName": "Red", "primaryColor": "#ABCDEF"}, 200,
			map[string]any{"primaryColor": "#abcdef", "secondaryColor": "#ffcdd2"}},
		{"css at the limit, kept as text", map[string]any{"customCss": "</style><script>x</script>" + strings.Repeat("a", 51200-26)}, 200, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := as("GET", "/theme-settings", nil).Get("result.version")
			res := as("PATCH", path, c.body)
			testkit.Expect(t, res, c.status, "")
			if c.status != 200 {
				if as("GET", "/theme-settings", nil).Get("result.version") != before {
					t.Fatal("a refused save wrote")
				}
				return
			}
			if res.Message() != "Theme settings updated!" {
				t.Fatalf("message %q", res.Message())
			}
			for k, v := range c.check {
				if res.Get("result."+k) != v {
					t.Fatalf("%s = %v, want %v", k, res.Get("result."+k), v)
				}
			}
		})
	}
	cur := as("GET", "/theme-settings", nil)
	if len(cur.Get("result.customCss").(string)) != 51200 || cur.Get("result.theme") != "modern" {
		t.Fatalf("css not stored as sent")
	}
	v := cur.Get("result.version")
	testkit.Expect(t, as("PATCH", path, map[string]any{"fontFamily": "Impact", "version": v}), 200, "")
	testkit.Expect(t, as("PATCH", path, map[string]any{"fontFamily": "Tahoma", "version": v}), 409, "")
	info = testkit.Call(t, call{Method: "GET", Path: "/auth/tenant-info", Tenant: tn.ID})
	if info.Get("result.themeSetting.fontFamily") != "Impact" || info.Get("result.themeSetting.colorSchemeName") != "Red" {
		t.Fatalf("tenant-info after save %s", info.Raw[:200])
	}
	// SEO defaults show in tenant-info too.
	testkit.Expect(t, as("PATCH", "/seo-settings", map[string]any{"defaultTitle": "St Mary's", "ogImageUrl": "https://example.org/og.png"}), 200, "SEO settings updated!")
	testkit.Expect(t, as("PATCH", "/seo-settings", map[string]any{"ogImageUrl": "javascript:alert(1)"}), 400, "")
	info = testkit.Call(t, call{Method: "GET", Path: "/auth/tenant-info", Tenant: tn.ID})
	if info.Get("result.seoSetting.defaultTitle") != "St Mary's" {
		t.Fatalf("tenant-info seo %v", info.Get("result.seoSetting"))
	}
}

// TestThemePermissions: activating needs THEME, saving settings needs THEME_SETTING.
func TestThemePermissions(t *testing.T) {
	t.Parallel()
	tn, other := testkit.NewTenant(t), testkit.NewTenant(t)
	activator := testkit.NewUser(t, tn, "CMS_VIEW_THEME", "CMS_EDIT_THEME")
	designer := testkit.NewUser(t, tn, "CMS_VIEW_THEME_SETTING", "CMS_EDIT_THEME_SETTING")
	nobody := testkit.NewUser(t, tn)
	path := "/theme-settings/" + tn.ID
	cases := []struct {
		name   string
		req    call
		status int
	}{
		{"activator activates", call{Method: "PATCH", Path: path, Tenant: tn.ID, Token: activator, Body: map[string]any{"themeId": "campus"}}, 200},
		{"activator saves settings", call{Method: "PATCH", Path: path, Tenant: tn.ID, Token: activator, Body: map[string]any{"fontFamily": "Arial"}}, 403},
		{"designer saves settings", call{Method: "PATCH", Path: path, Tenant: tn.ID, Token: designer, Body: map[string]any{"fontFamily": "Verdana"}}, 200},
		{"designer activates", call{Method: "PATCH", Path: path, Tenant: tn.ID, Token: designer, Body: map[string]any{"themeId": "modern"}}, 403},
		{"designer changes theme field", call{Method: "PATCH", Path: path, Tenant: tn.ID, Token: designer, Body: map[string]any{"theme": "modern"}}, 403},
		{"nobody lists themes", call{Method: "GET", Path: "/themes", Tenant: tn.ID, Token: nobody}, 403},
		{"nobody lists plans", call{Method: "GET", Path: "/plans", Tenant: tn.ID, Token: nobody}, 403},
		{"nobody reads settings", call{Method: "GET", Path: "/theme-settings", Tenant: tn.ID, Token: nobody}, 403},
		{"activator lists themes", call{Method: "GET", Path: "/themes", Tenant: tn.ID, Token: activator}, 200},
		{"no token", call{Method: "GET", Path: "/themes", Tenant: tn.ID}, 401},
		{"no token, activate", call{Method: "PATCH", Path: path, Tenant: tn.ID, Body: map[string]any{"themeId": "modern"}}, 401},
		{"other tenant's token", call{Method: "PATCH", Path: path, Tenant: tn.ID, Token: other.AdminToken, Body: map[string]any{"themeId": "modern"}}, 401},
		{"other tenant's token, plans", call{Method: "GET", Path: "/plans", Tenant: tn.ID, Token: other.AdminToken}, 401},
		{"other tenant's id", call{Method: "PATCH", Path: path, Tenant: other.ID, Token: other.AdminToken, Body: map[string]any{"themeId": "modern"}}, 404},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			testkit.Expect(t, testkit.Call(t, c.req), c.status, "")
		})
	}
	res := testkit.Call(t, call{Method: "GET", Path: "/theme-settings", Tenant: tn.ID, Token: tn.AdminToken})
	if res.Get("result.theme") != "campus" || res.Get("result.fontFamily") != "Verdana" {
		t.Fatalf("settings %s", res.Raw)
	}
	if res := testkit.Call(t, call{Method: "GET", Path: "/theme-settings", Tenant: other.ID, Token: other.AdminToken}); res.Get("result.theme") != "classic" {
		t.Fatalf("the other tenant's settings changed: %s", res.Raw)
	}
}
