package media_test

import (
	"bytes"
	"context"
	"reflect"
	"testing"

	"github.com/campuscms/panel/shared/awsclient/s3rest"
	"github.com/campuscms/panel/shared/imaging"
	"github.com/campuscms/panel/shared/imaging/imagingtest"
	"github.com/campuscms/panel/shared/media"
	"github.com/campuscms/panel/shared/store"
	"github.com/campuscms/panel/shared/testkit"
)

// wantClean checks the original stored for a record: no metadata marker, the pixels of src,
// and the record's size and the library's bytes counter the stored size.
func wantClean(t *testing.T, tn testkit.Tenant, res testkit.Response, src []byte) []byte {
	t.Helper()
	stored, _ := object(t, "media/"+tn.ID+"/"+res.Get("result.fileUrl").(string))
	if bytes.Contains(stored, []byte(imagingtest.GPSMarker)) {
		t.Errorf("the stored original keeps its metadata")
	}
	if !reflect.DeepEqual(imagingtest.Pixels(t, stored), imagingtest.Pixels(t, src)) {
		t.Error("the stored original's pixels differ from the upload's")
	}
	if res.Get("result.fileSize") != float64(len(stored)) || len(stored) >= len(src) {
		t.Errorf("fileSize %v, stored %d bytes, uploaded %d", res.Get("result.fileSize"), len(stored), len(src))
	}
	if used := usedBytes(t, tn); used != int64(len(stored)) {
		t.Errorf("bytes counter %d, stored %d", used, len(stored))
	}
	if held, inflight := holdings(t, tn); held != 0 || inflight != 0 {
		t.Errorf("%d bytes held beyond the stored ones (%d in flight)", held, inflight)
	}
	return stored
}

func TestAConfirmedPhotoIsStoredWithoutItsGPSPosition(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	src := imagingtest.DirtyPhoto(t, 1200, 900, 6)
	_, res := upload(t, tn, "Trip.jpg", "image/jpeg", src)
	expect(t, res, 201, media.MsgUploaded)
	stored := wantClean(t, tn, res, src)
	// Only the orientation is left of its EXIF, and it still turns the photo.
	if bytes.Count(stored, []byte("Exif")) != 1 || !bytes.Contains(stored, imagingtest.ScanData(src)) {
		t.Error("EXIF beyond the orientation kept, or the scan data changed")
	}
	if size, err := imaging.Check(stored); err != nil || size.Width != 900 || size.Height != 1200 ||
		res.Get("result.width") != 900.0 || res.Get("result.height") != 1200.0 {
		t.Errorf("size as shown %+v %v; record %s", size, err, res.Raw)
	}
}

func TestAConfirmedPNGIsStoredWithoutItsTextChunks(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	src := imagingtest.TextPNG(t, 300, 200)
	_, res := upload(t, tn, "Logo.png", "image/png", src)
	expect(t, res, 201, media.MsgUploaded)
	stored := wantClean(t, tn, res, src)
	for _, chunk := range []string{"tEXt", "zTXt", "iTXt", "tIME"} {
		if bytes.Contains(stored, []byte(chunk)) {
			t.Errorf("%s kept", chunk)
		}
	}
}

func TestImagesTooCostlyToDecodeAreRefusedBeforeDecoding(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	tk, res := upload(t, tn, "scan.png", "image/png", imagingtest.DeepPNG(t, 5000, 5000))
	expect(t, res, 413, "This image is too large to process: as a 16-bit RGBA PNG of 5000 × 5000 pixels it would take 200 MB of memory to open, and at most 160 MB is allowed. Please save it with 8 bits per channel, or smaller.")
	if ok, _ := objectExists(t, tk.Key); ok {
		t.Error("the refused upload was kept")
	}
	_, res = upload(t, tn, "poster.jpg", "image/jpeg", imagingtest.ProgressiveJPEG(6000, 4000, 3, 1))
	expect(t, res, 413, "This image is too large to process: as a progressive JPEG of 6000 × 4000 pixels it would take 360 MB of memory to open, and at most 160 MB is allowed. Please save it as a baseline (standard) JPEG, or smaller.")
	_, res = upload(t, tn, "small.jpg", "image/jpeg", imagingtest.ProgressiveJPEG(800, 600, 3, 2))
	expect(t, res, 201, media.MsgUploaded)
}

// TestStripMetadataCleansOriginalsUploadedBefore: an original recorded before confirmation
// stripped metadata is rewritten in place with its record's size and the bytes counter; a second
// run has nothing to do.
func TestStripMetadataCleansOriginalsUploadedBefore(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	d := testkit.Deps(t)
	scope, _ := store.NewScope(tn.ID)
	src := imagingtest.DirtyPhoto(t, 640, 480, 8)
	_, ref := testkit.LibraryJPEG(t, tn.ID, "old.jpg", src)
	junk := []byte("not a photo")
	testkit.LibraryJPEG(t, tn.ID, "junk.jpg", junk) // unreadable: left as it is, reported
	stripper := media.NewStripper(d.Store, s3rest.New(d.AWS), d.Config.MediaBucket)
	for run, want := range []media.StripReport{{Images: 2, Stripped: 1, Unreadable: 1}, {Images: 1, Unreadable: 1}} {
		rep, err := stripper.Tenant(context.Background(), scope, nil)
		rep.Saved = 0
		if err != nil || rep != want {
			t.Fatalf("run %d: %+v %v, want %+v", run, rep, err, want)
		}
	}
	stored, _ := object(t, "media/"+tn.ID+"/"+ref)
	if bytes.Contains(stored, []byte(imagingtest.GPSMarker)) || !reflect.DeepEqual(imagingtest.Pixels(t, stored), imagingtest.Pixels(t, src)) {
		t.Error("the original was not stripped, or its pixels changed")
	}
	if size, err := imaging.Check(stored); err != nil || size.Width != 480 {
		t.Errorf("orientation lost: %+v %v", size, err)
	}
	list := testkit.Call(t, call{Method: "GET", Path: "/media?sort=name&order=desc", Tenant: tn.ID, Token: tn.AdminToken})
	if list.Get("result.0.fileSize") != float64(len(stored)) {
		t.Errorf("record after stripping: %s", list.Raw)
	}
	if used := usedBytes(t, tn); used != int64(len(stored)+len(junk)) {
		t.Errorf("bytes counter %d, stored %d+%d", used, len(stored), len(junk))
	}
}
