package media_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/awsclient/s3rest"
	"github.com/campuscms/panel/shared/ids"
	"github.com/campuscms/panel/shared/media"
	"github.com/campuscms/panel/shared/mediaref"
	"github.com/campuscms/panel/shared/store"
	"github.com/campuscms/panel/shared/testkit"
)

func ingester(t *testing.T) *media.Service {
	d := testkit.Deps(t)
	return media.NewService(d.Store, s3rest.New(d.AWS), d.Config.MediaBucket, "", nil)
}

// An importer's file goes the way of an upload: checked, stored without metadata, recorded with
// its alt text and caption, audited; the same id again is a conflict with nothing written.
func TestIngestIsAnUpload(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	caller := testkit.AdminCaller(t, tn)
	svc := ingester(t)
	id := ids.New()
	it, err := svc.Ingest(context.Background(), caller, id, "Canola field", "image/png", pngBytes(t),
		media.Details{Alt: "A field of yellow flowers", Caption: "Canola in June"})
	if err != nil {
		t.Fatal(err)
	}
	if it.ID != id || it.Alt != "A field of yellow flowers" || it.Caption != "Canola in June" || it.Width != 8 {
		t.Fatalf("item %+v", it)
	}
	if ok, ct := objectExists(t, "media/"+tn.ID+"/"+it.FileURL); !ok || ct != "image/png" {
		t.Fatalf("stored object: %v %q", ok, ct)
	}
	res := testkit.Call(t, call{Method: "GET", Path: "/media", Tenant: tn.ID, Token: tn.AdminToken})
	expect(t, res, 200, "")
	if !strings.Contains(string(res.Raw), "A field of yellow flowers") {
		t.Fatalf("the library does not show the alt text: %s", res.Raw)
	}
	audit := testkit.Call(t, call{Method: "GET", Path: "/audit-log", Tenant: tn.ID, Token: tn.AdminToken})
	if !strings.Contains(string(audit.Raw), id) {
		t.Fatalf("no audit entry for the ingested file: %s", audit.Raw)
	}
	if _, err := svc.Ingest(context.Background(), caller, id, "Again", "image/png", pngBytes(t), media.Details{}); !errors.Is(err, api.ErrConflict) {
		t.Fatalf("the same id again: %v", err)
	}
}

// Markup named as an image, a script-capable type, an empty or oversize file: refused as an
// upload is, and nothing is left behind (no record, no object, nothing held of the quota).
func TestIngestRefusals(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	caller := testkit.AdminCaller(t, tn)
	svc := ingester(t)
	cases := []struct {
		name, mime string
		body       []byte
		status     int
	}{
		{"photo.jpg", "image/jpeg", []byte("<html><script>alert(1)</script></html>"), http.StatusUnsupportedMediaType},
		{"logo.svg", "image/svg+xml", []byte("<svg xmlns='http://www.w3.org/2000/svg'/>"), http.StatusUnsupportedMediaType},
		{"empty.png", "image/png", nil, http.StatusBadRequest},
		{"huge.pdf", "application/pdf", make([]byte, media.MaxSize+1), http.StatusRequestEntityTooLarge},
	}
	scope := caller.Scope
	for _, c := range cases {
		id := ids.New()
		_, err := svc.Ingest(context.Background(), caller, id, c.name, c.mime, c.body, media.Details{})
		var ae *api.Error
		if !errors.As(err, &ae) || ae.Status != c.status {
			t.Errorf("%s: %v, want %d", c.name, err, c.status)
		}
		var pending map[string]any
		if err := testkit.Deps(t).Store.Get(context.Background(), store.Key{PK: scope.Collection("upload"), SK: id}, &pending); !store.IsNotFound(err) {
			t.Errorf("%s: its pending upload (quota held) is left: %v %v", c.name, pending, err)
		}
		if ok, _ := objectExists(t, mediaref.UploadKey(scope, id, mediaref.SafeName(c.name))); ok {
			t.Errorf("%s: its uploaded object is left", c.name)
		}
	}
	res := testkit.Call(t, call{Method: "GET", Path: "/media", Tenant: tn.ID, Token: tn.AdminToken})
	expect(t, res, 200, "")
	if strings.Contains(string(res.Raw), ".jpg") || strings.Contains(string(res.Raw), ".svg") {
		t.Fatalf("a refused file reached the library: %s", res.Raw)
	}
}
