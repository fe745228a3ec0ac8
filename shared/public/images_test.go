package public_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/campuscms/panel/shared/ids"
	"github.com/campuscms/panel/shared/media"
	"github.com/campuscms/panel/shared/store"
	"github.com/campuscms/panel/shared/testkit"
)

func TestListsAnswerAnImagesCopiesBesideItsURL(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	scope, _ := store.NewScope(tn.ID)
	id := ids.New()
	ref := id + "/hall.jpg"
	now := time.Now().UTC()
	_, err := media.Add(context.Background(), testkit.Deps(t).Store, scope, media.Item{ID: id, Name: "Hall", FileURL: ref, FileSize: 9,
		MimeType: "image/jpeg", MediaType: media.TypeImage, Width: 800, Height: 600, CreatedAt: now, UpdatedAt: now,
		Variants: []media.Variant{{Width: 320, Height: 240, FileURL: id + "/w/320.jpg"}, {Width: 640, Height: 480, FileURL: id + "/w/640.jpg"}}})
	if err != nil {
		t.Fatal(err)
	}
	create(t, tn, "events", map[string]any{"title": "Open day", "startDate": now.AddDate(0, 0, 3).Format(time.DateOnly), "image": ref})
	create(t, tn, "events", map[string]any{"title": "Plain day", "startDate": now.AddDate(0, 0, 4).Format(time.DateOnly), "image": img})
	res := public(t, req{path: "/events", tenant: tn.ID})
	expect(t, res, http.StatusOK)
	list := res.body["result"].([]any)
	base := "http://example.com/media/" + tn.ID + "/"
	first := list[0].(map[string]any)
	vs, _ := first["imageVariants"].([]any)
	if first["image"] != base+ref || len(vs) != 2 {
		t.Fatalf("event with copies: %v", first)
	}
	if v := vs[1].(map[string]any); v["width"] != 640.0 || v["height"] != 480.0 || v["url"] != base+id+"/w/640.jpg" {
		t.Errorf("copy: %v", v)
	}
	if second := list[1].(map[string]any); second["image"] != base+img || second["imageVariants"] != nil {
		t.Errorf("an image without copies: %v", second)
	}
}
