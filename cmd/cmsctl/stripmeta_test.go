package main

import (
	"bytes"
	"context"
	"io"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/campuscms/panel/shared/awsclient/s3client"
	"github.com/campuscms/panel/shared/imaging/imagingtest"
	"github.com/campuscms/panel/shared/testkit"
)

// TestStripMetadata: an original recorded before confirmation stripped metadata loses its GPS
// position to media strip-metadata, which can run again (nothing left to do).
func TestStripMetadata(t *testing.T) {
	tn := testkit.NewTenant(t)
	src := imagingtest.DirtyPhoto(t, 320, 240, 1)
	_, ref := testkit.LibraryJPEG(t, tn.ID, "old.jpg", src)
	runSteps(t, []step{
		{"strip", "media strip-metadata --tenant " + tn.ID, "", "1 images checked, 1 originals stripped"},
		{"again", "media strip-metadata --tenant " + tn.ID, "", "0 images checked, 0 originals stripped"},
		{"no tenant", "media strip-metadata", "usage:", ""},
		{"both", "media strip-metadata --tenant " + tn.ID + " --all", "usage:", ""},
		{"bad tenant", "media strip-metadata --tenant Bad#Id", "invalid tenant id", ""},
	})
	d := testkit.Deps(t)
	obj, err := s3client.New(d.AWS).GetObject(context.Background(), &s3.GetObjectInput{Bucket: aws.String(d.Config.MediaBucket), Key: aws.String("media/" + tn.ID + "/" + ref)})
	if err != nil {
		t.Fatal(err)
	}
	defer obj.Body.Close()
	stored, _ := io.ReadAll(obj.Body)
	if bytes.Contains(stored, []byte(imagingtest.GPSMarker)) || !bytes.Contains(stored, imagingtest.ScanData(src)) {
		t.Error("the original keeps its metadata, or its image data changed")
	}
	res := testkit.Call(t, testkit.Request{Method: "GET", Path: "/media", Tenant: tn.ID, Token: tn.AdminToken})
	if res.Get("result.0.fileSize") != float64(len(stored)) {
		t.Fatalf("record after strip-metadata: %s (stored %d bytes)", res.Raw, len(stored))
	}
}
