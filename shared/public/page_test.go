package public_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/campuscms/panel/shared/pages"
	"github.com/campuscms/panel/shared/testkit"
)

// sectionType is the id of a section type by its slug.
func sectionType(slug string) string {
	for _, t := range pages.SectionTypes {
		if t.Slug == slug {
			return t.ID
		}
	}
	panic("no section type " + slug)
}

// newPage creates a page through the panel API (POST /pages, sections included) and returns its
// id.
func newPage(t *testing.T, tn testkit.Tenant, body map[string]any) string {
	t.Helper()
	return create(t, tn, "pages", body)
}

func config(t *testing.T, items ...map[string]any) string {
	t.Helper()
	raw, err := json.Marshal(items)
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}

func TestPublicPage(t *testing.T) {
	t.Parallel()
	tn, other := testkit.NewTenant(t), testkit.NewTenant(t)
	id := newPage(t, tn, map[string]any{"title": "About us", "slug": "about", "content": `<p>Hi<script>alert(1)</script><a href="javascript:x()">x</a></p>`,
		"image": img, "metaTitle": "About", "ogImage": img, "noFollow": true,
		"pageSections": []map[string]any{
			{"title": "Hero", "pageSectionTypeId": sectionType("slider"), "backgroundColor": "#fff",
				"config": config(t, map[string]any{"id": "s1", "title": "One", "image": img}, map[string]any{"id": "s2", "title": "Two"})},
			{"title": "Hidden", "pageSectionTypeId": sectionType("banner"), "status": false, "config": config(t, map[string]any{"title": "No"})},
			{"title": "Story", "pageSectionTypeId": sectionType("text-image"), "config": config(t, map[string]any{"title": "S", "textPosition": "RIGHT"})},
		}})
	newPage(t, tn, map[string]any{"title": "Draft", "slug": "draft", "isPublished": false})
	newPage(t, tn, map[string]any{"title": "Off", "slug": "off", "status": false})

	res := public(t, req{path: "/pages/about", tenant: tn.ID})
	expect(t, res, http.StatusOK)
	if res.calls != 5 {
		t.Errorf("%d DynamoDB calls, want 5 (tenant, slug, page, sections, the images' media records)", res.calls)
	}
	p := res.body["result"].(map[string]any)
	media := "http://example.com/media/" + tn.ID + "/" + img
	if p["id"] != id || p["title"] != "About us" || p["slug"] != "about" || p["metaTitle"] != "About" || p["noFollow"] != true ||
		p["image"] != media || p["ogImage"] != media {
		t.Fatalf("page %s", res.raw)
	}
	if c := p["content"].(string); !strings.Contains(c, "<p>Hi") || strings.Contains(c, "script") || strings.Contains(c, "javascript:") {
		t.Errorf("content %q", c)
	}
	for _, internal := range []string{"version", "status", "isPublished", "createdAt", "PK", "SK", "pageSections", "refCount", "GSI1PK", "GSI2SK"} {
		if _, leaked := p[internal]; leaked {
			t.Errorf("%q leaked: %s", internal, res.raw)
		}
	}
	secs := p["sections"].([]any)
	if len(secs) != 2 {
		t.Fatalf("sections %v", secs)
	}
	hero, story := secs[0].(map[string]any), secs[1].(map[string]any)
	if hero["title"] != "Hero" || hero["type"] != "slider" || hero["backgroundColor"] != "#fff" || story["title"] != "Story" || story["type"] != "text-image" {
		t.Errorf("sections %v", secs)
	}
	for _, internal := range []string{"pageId", "status", "config", "pageSectionTypeId", "createdAt", "PK"} {
		if _, leaked := hero[internal]; leaked {
			t.Errorf("section field %q leaked: %v", internal, hero)
		}
	}
	slides := hero["items"].([]any)
	if len(slides) != 2 || slides[0].(map[string]any)["image"] != media || slides[1].(map[string]any)["title"] != "Two" ||
		slides[1].(map[string]any)["image"] != nil || slides[1].(map[string]any)["position"] != float64(2) {
		t.Errorf("slides %v", slides)
	}
	if story["items"].([]any)[0].(map[string]any)["textPosition"] != "RIGHT" {
		t.Errorf("story %v", story)
	}

	for name, q := range map[string]req{
		"unpublished":  {path: "/pages/draft", tenant: tn.ID},
		"inactive":     {path: "/pages/off", tenant: tn.ID},
		"unknown":      {path: "/pages/nothing-here", tenant: tn.ID},
		"malformed":    {path: "/pages/About_Us", tenant: tn.ID},
		"other tenant": {path: "/pages/about", tenant: other.ID},
	} {
		if r := public(t, q); r.status != http.StatusNotFound || r.body["message"] != "Page not found!" {
			t.Errorf("%s: %d %s", name, r.status, r.raw)
		}
	}

	// Renamed and unpublished in the panel: the website follows at once.
	patch(t, tn, "pages", id, map[string]any{"version": 1, "slug": "about-us"})
	expect(t, public(t, req{path: "/pages/about", tenant: tn.ID}), http.StatusNotFound)
	expect(t, public(t, req{path: "/pages/about-us", tenant: tn.ID}), http.StatusOK)
	patch(t, tn, "pages", id, map[string]any{"version": 2, "isPublished": false})
	expect(t, public(t, req{path: "/pages/about-us", tenant: tn.ID}), http.StatusNotFound)
}
