package public_test

import (
	"bytes"
	"context"
	"io"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/campuscms/panel/shared/awsclient/s3client"
	"github.com/campuscms/panel/shared/ids"
	"github.com/campuscms/panel/shared/imaging/imagingtest"
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

// uploadImage uploads body to the tenant's library as the panel does (request, presigned POST,
// confirmation) and returns its reference.
func uploadImage(t *testing.T, tn testkit.Tenant, name, mimeType string, body []byte) string {
	t.Helper()
	res := testkit.Call(t, testkit.Request{Method: "POST", Path: "/media/uploads", Tenant: tn.ID, Token: tn.AdminToken,
		Body: map[string]any{"name": name, "size": len(body), "mimeType": mimeType}})
	testkit.Expect(t, res, http.StatusOK, "")
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for k, v := range res.Get("result.fields").(map[string]any) {
		_ = mw.WriteField(k, v.(string))
	}
	fw, _ := mw.CreateFormFile("file", name)
	_, _ = fw.Write(body)
	_ = mw.Close()
	resp, err := http.Post(res.Get("result.url").(string), mw.FormDataContentType(), &buf)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		t.Fatalf("S3 POST: %d", resp.StatusCode)
	}
	res = testkit.Call(t, testkit.Request{Method: "POST", Path: "/media", Tenant: tn.ID, Token: tn.AdminToken,
		Body: map[string]any{"key": res.Get("result.key"), "name": name}})
	testkit.Expect(t, res, http.StatusCreated, "")
	return res.Get("result.fileUrl").(string)
}

// TestThePublicOriginalURLServesAFileWithoutItsGPSPosition: the public API links an image's
// original (beside its copies); what that URL serves is the upload without its metadata.
func TestThePublicOriginalURLServesAFileWithoutItsGPSPosition(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	src := imagingtest.DirtyPhoto(t, 800, 600, 6)
	ref := uploadImage(t, tn, "trip.jpg", "image/jpeg", src)
	create(t, tn, "events", map[string]any{"title": "Field trip", "startDate": time.Now().AddDate(0, 0, 2).Format(time.DateOnly), "image": ref})
	res := public(t, req{path: "/events", tenant: tn.ID})
	expect(t, res, http.StatusOK)
	url, _ := res.list()[0]["image"].(string)
	key, ok := strings.CutPrefix(url, "http://example.com/")
	if !ok || key != "media/"+tn.ID+"/"+ref {
		t.Fatalf("original URL %q", url)
	}
	d := testkit.Deps(t)
	out, err := s3client.New(d.AWS).GetObject(context.Background(), &s3.GetObjectInput{Bucket: aws.String(d.Config.MediaBucket), Key: aws.String(key)})
	if err != nil {
		t.Fatal(err)
	}
	defer out.Body.Close()
	served, _ := io.ReadAll(out.Body)
	if bytes.Contains(served, []byte(imagingtest.GPSMarker)) || bytes.Count(served, []byte("Exif")) != 1 {
		t.Error("the original the public API links keeps its metadata")
	}
	if !bytes.Contains(served, imagingtest.ScanData(src)) {
		t.Error("the original's image data changed")
	}
}
