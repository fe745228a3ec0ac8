package main

import (
	"bytes"
	"context"
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

// TestDeriveImages: an image recorded before sized copies existed gets them from derive-images,
// which can run again (nothing left to do).
func TestDeriveImages(t *testing.T) {
	tn := testkit.NewTenant(t)
	d := testkit.Deps(t)
	scope, _ := store.NewScope(tn.ID)
	id := ids.New()
	ref := id + "/old.jpg"
	src := imagingtest.Photo(t, 800, 600, 1)
	if _, err := s3client.New(d.AWS).PutObject(context.Background(), &s3.PutObjectInput{Bucket: aws.String(d.Config.MediaBucket),
		Key: aws.String("media/" + tn.ID + "/" + ref), Body: bytes.NewReader(src), ContentType: aws.String("image/jpeg")}); err != nil {
		t.Fatal(err)
	}
	now := time.Now().UTC()
	if _, err := media.Add(context.Background(), d.Store, scope, media.Item{ID: id, Name: "Old", FileURL: ref, FileSize: int64(len(src)),
		MimeType: "image/jpeg", MediaType: media.TypeImage, CreatedAt: now, UpdatedAt: now}); err != nil {
		t.Fatal(err)
	}
	runSteps(t, []step{
		{"derive", "tenant derive-images --id " + tn.ID, "", "1 images given their sized copies"},
		{"again", "tenant derive-images --id " + tn.ID, "", "0 images given their sized copies"},
		{"no tenant", "tenant derive-images --id Bad#Id", "invalid tenant id", ""},
	})
	res := testkit.Call(t, testkit.Request{Method: "GET", Path: "/media", Tenant: tn.ID, Token: tn.AdminToken})
	if vs, _ := res.Get("result.0.variants").([]any); len(vs) != 3 { // 320, 640 and its own 800
		t.Fatalf("variants after derive-images: %s", res.Raw)
	}
}
