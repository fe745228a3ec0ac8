package media_test

import (
	"bytes"
	"context"
	"image"
	"io"
	"log/slog"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/campuscms/panel/shared/awsclient/s3client"
	"github.com/campuscms/panel/shared/awsclient/s3rest"
	"github.com/campuscms/panel/shared/imaging/imagingtest"
	"github.com/campuscms/panel/shared/media"
	"github.com/campuscms/panel/shared/mediaref"
	"github.com/campuscms/panel/shared/store"
	"github.com/campuscms/panel/shared/testkit"
)

// deriver is the imaging function's deriver over the test emulator.
func deriver(t *testing.T) *media.Deriver {
	d := testkit.Deps(t)
	return media.NewDeriver(d.Store, s3rest.New(d.AWS), d.Config.MediaBucket, slog.New(slog.DiscardHandler))
}

// object reads a served object: its bytes and headers.
func object(t *testing.T, key string) ([]byte, *s3.GetObjectOutput) {
	t.Helper()
	d := testkit.Deps(t)
	out, err := s3client.New(d.AWS).GetObject(context.Background(), &s3.GetObjectInput{Bucket: aws.String(d.Config.MediaBucket), Key: aws.String(key)})
	if err != nil {
		t.Fatalf("get %s: %v", key, err)
	}
	defer out.Body.Close()
	b, err := io.ReadAll(out.Body)
	if err != nil {
		t.Fatal(err)
	}
	return b, out
}

func TestAConfirmedPhotoGetsUprightVariantsWithoutItsGPSPosition(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	src := imagingtest.Photo(t, 4000, 3000, 6)
	_, res := upload(t, tn, "Trip.jpg", "image/jpeg", src)
	expect(t, res, 201, media.MsgUploaded)
	id, _ := res.Get("result.id").(string)
	fileURL, _ := res.Get("result.fileUrl").(string)
	if res.Get("result.width") != 3000.0 || res.Get("result.height") != 4000.0 {
		t.Fatalf("size as shown: %s", res.Raw)
	}
	// The bucket's "object created" event for the served original, twice (events may repeat).
	for range 2 {
		if err := deriver(t).ObjectCreated(context.Background(), "media/"+tn.ID+"/"+fileURL); err != nil {
			t.Fatal(err)
		}
	}
	list := testkit.Call(t, call{Method: "GET", Path: "/media", Tenant: tn.ID, Token: tn.AdminToken})
	expect(t, list, 200, "")
	want := []struct {
		w, h float64
		url  string
	}{{160, 213, id + "/w/thumb"}, {240, 320, id + "/w/240.jpg"}, {320, 427, id + "/w/320.jpg"}, {480, 640, id + "/w/480.jpg"}, {640, 853, id + "/w/640.jpg"}, {800, 1067, id + "/w/800.jpg"}, {960, 1280, id + "/w/960.jpg"},
		{1280, 1707, id + "/w/1280.jpg"}, {1920, 2560, id + "/w/1920.jpg"}}
	variants, _ := list.Get("result.0.variants").([]any)
	if len(variants) != len(want) {
		t.Fatalf("variants: %s", list.Raw)
	}
	for i, w := range want {
		v := variants[i].(map[string]any)
		if v["width"] != w.w || v["height"] != w.h || v["fileUrl"] != w.url {
			t.Errorf("variant %d = %v, want %+v", i, v, w)
		}
		body, out := object(t, "media/"+tn.ID+"/"+w.url)
		if aws.ToString(out.ContentType) != "image/jpeg" || aws.ToString(out.CacheControl) != media.VariantCacheControl {
			t.Errorf("variant %d served as %q, %q", i, aws.ToString(out.ContentType), aws.ToString(out.CacheControl))
		}
		if bytes.Contains(body, []byte("Exif")) || bytes.Contains(body, []byte(imagingtest.GPSMarker)) {
			t.Errorf("variant %d keeps the photo's metadata", i)
		}
		cfg, _, err := image.DecodeConfig(bytes.NewReader(body))
		if err != nil || float64(cfg.Width) != w.w || float64(cfg.Height) != w.h {
			t.Errorf("variant %d decodes as %+v, %v", i, cfg, err)
		}
	}
	// The original is the upload without its metadata (its orientation kept), the same pixels.
	if orig, _ := object(t, "media/"+tn.ID+"/"+fileURL); bytes.Contains(orig, []byte(imagingtest.GPSMarker)) ||
		!bytes.Contains(orig, imagingtest.ScanData(src)) || len(orig) >= len(src) {
		t.Error("the original was stored with its metadata, or its image data changed")
	}
	// A delete takes the variants to the trash with the original; a restore brings them back.
	expect(t, testkit.Call(t, call{Method: "DELETE", Path: "/media/" + id, Tenant: tn.ID, Token: tn.AdminToken}), 200, media.MsgDeleted)
	for _, w := range want {
		if ok, _ := objectExists(t, "media/"+tn.ID+"/"+w.url); ok {
			t.Errorf("%s still served after the delete", w.url)
		}
		if ok, _ := objectExists(t, "trash/"+tn.ID+"/"+w.url); !ok {
			t.Errorf("%s not in the trash", w.url)
		}
	}
	expect(t, testkit.Call(t, call{Method: "POST", Path: "/trash/media/" + id + "/1/restore", Tenant: tn.ID, Token: tn.AdminToken, Body: map[string]any{}}), 200, "")
	for _, w := range want {
		if ok, _ := objectExists(t, "media/"+tn.ID+"/"+w.url); !ok {
			t.Errorf("%s not served after the restore", w.url)
		}
	}
}

func TestATransparentPNGKeepsPNGVariants(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	_, res := upload(t, tn, "Logo.png", "image/png", imagingtest.TransparentPNG(t, 700, 300))
	expect(t, res, 201, media.MsgUploaded)
	id, _ := res.Get("result.id").(string)
	scope, _ := store.NewScope(tn.ID)
	if err := deriver(t).Derive(context.Background(), scope, id); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"thumb", "640.png", "700.png"} {
		if ok, ct := objectExists(t, "media/"+tn.ID+"/"+id+"/w/"+name); !ok || ct != "image/png" {
			t.Errorf("variant %s: exists=%v type=%q", name, ok, ct)
		}
	}
}

func TestABombAndATruncatedPhotoAreRefusedAndTheLibraryKeepsAnswering(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	tk, res := upload(t, tn, "bomb.png", "image/png", imagingtest.Bomb(t))
	expect(t, res, 413, "This image is too large to process: at most 40 megapixels.")
	if ok, _ := objectExists(t, tk.Key); ok {
		t.Error("the refused upload was kept")
	}
	photo := imagingtest.Photo(t, 1200, 900, 1)
	_, res = upload(t, tn, "cut.jpg", "image/jpeg", photo[:len(photo)*2/3])
	expect(t, res, 422, "This image could not be read: the file is damaged or incomplete. Please upload it again.")
	_, res = upload(t, tn, "whole.jpg", "image/jpeg", photo)
	expect(t, res, 201, media.MsgUploaded)
	list := testkit.Call(t, call{Method: "GET", Path: "/media", Tenant: tn.ID, Token: tn.AdminToken})
	expect(t, list, 200, "")
	if list.Get("totalCount") != 1.0 {
		t.Fatalf("library: %s", list.Raw)
	}
}

// TestDeriveTenantGivesOlderImagesTheCurrentCopies: an image derived when the copies were 320,
// 640, 1280 and 1920 pixels wide (a library made before they were 1.5 times apart) is derived
// again by `cmsctl tenant derive-images` (DeriveTenant), listing every current width; an image
// whose copies are current is left alone, so a second run derives nothing.
func TestDeriveTenantGivesOlderImagesTheCurrentCopies(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	_, res := upload(t, tn, "Hall.jpg", "image/jpeg", imagingtest.Photo(t, 2000, 1000, 1))
	expect(t, res, 201, media.MsgUploaded)
	id, _ := res.Get("result.id").(string)
	scope, _ := store.NewScope(tn.ID)
	d := testkit.Deps(t)
	// The record as the older deriver left it: four copies (their objects are there too).
	old := []media.Variant{{Width: 320, Height: 160, FileURL: id + "/w/thumb"}, {Width: 640, Height: 320, FileURL: id + "/w/640.jpg"},
		{Width: 1280, Height: 640, FileURL: id + "/w/1280.jpg"}, {Width: 1920, Height: 960, FileURL: id + "/w/1920.jpg"}}
	if err := deriver(t).Derive(context.Background(), scope, id); err != nil {
		t.Fatal(err)
	}
	if err := d.Store.Table.Update("PK", scope.Collection(mediaref.RecordPartition)).Range("SK", id).Set("variants", old).Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	n, err := deriver(t).DeriveTenant(context.Background(), scope)
	if err != nil || n != 1 {
		t.Fatalf("DeriveTenant = %d, %v; want the older image derived again", n, err)
	}
	list := testkit.Call(t, call{Method: "GET", Path: "/media", Tenant: tn.ID, Token: tn.AdminToken})
	variants, _ := list.Get("result.0.variants").([]any)
	var widths []float64
	for _, v := range variants {
		widths = append(widths, v.(map[string]any)["width"].(float64))
		if ok, _ := objectExists(t, "media/"+tn.ID+"/"+v.(map[string]any)["fileUrl"].(string)); !ok {
			t.Errorf("copy %v listed but not stored", v)
		}
	}
	if len(widths) != 9 || widths[1] != 240 || widths[3] != 480 || widths[5] != 800 || widths[8] != 1920 {
		t.Fatalf("copies %v, want 160, 240, 320, 480, 640, 800, 960, 1280 and 1920", widths)
	}
	if n, err := deriver(t).DeriveTenant(context.Background(), scope); err != nil || n != 0 {
		t.Fatalf("second run = %d, %v; want nothing left to derive", n, err)
	}
}
