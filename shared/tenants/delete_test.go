package tenants_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/campuscms/panel/shared/awsclient/s3client"
	"github.com/campuscms/panel/shared/imaging/imagingtest"
	"github.com/campuscms/panel/shared/store"
	"github.com/campuscms/panel/shared/tenants"
	"github.com/campuscms/panel/shared/testkit"
)

// fill gives a tenant records, a library image and a domain.
func fill(t *testing.T, tn testkit.Tenant, host string) {
	t.Helper()
	for i := range 12 {
		testkit.Expect(t, testkit.Call(t, testkit.Request{Method: "POST", Path: "/faqs", Tenant: tn.ID, Token: tn.AdminToken,
			Body: map[string]any{"question": fmt.Sprintf("Question number %d about admissions?", i), "answer": "Yes"}}), 201, "")
	}
	testkit.LibraryJPEG(t, tn.ID, "photo.jpg", imagingtest.Photo(t, 64, 48, 1))
	testkit.SetDomains(t, tn.ID, host)
}

func deletion(t *testing.T, tenant string) tenants.Deletion {
	d := testkit.Deps(t)
	return tenants.Deletion{St: d.Store, S3: s3client.New(d.AWS), Bucket: d.Config.MediaBucket, Tenant: tenant}
}

// TestDeleteTenant: the dry run lists and changes nothing; a deletion that crashes part way is
// finished by the next run; nothing of the tenant is left, and nothing of another is touched.
func TestDeleteTenant(t *testing.T) {
	ctx := context.Background()
	gone, kept := testkit.NewTenant(t), testkit.NewTenant(t)
	fill(t, gone, gone.ID+".example.org")
	fill(t, kept, kept.ID+".example.org")
	keptBefore, err := deletion(t, kept.ID).Survey(ctx)
	if err != nil {
		t.Fatal(err)
	}

	dry, err := deletion(t, gone.ID).Survey(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !dry.Exists || dry.ItemCount < 50 || dry.Objects < 1 || dry.Items["faqs"] < 12 || dry.Items["root:TENANT"] != 1 || len(dry.Domains) != 1 {
		t.Fatalf("dry run: %+v", dry)
	}
	if again, _ := deletion(t, gone.ID).Survey(ctx); again.ItemCount != dry.ItemCount {
		t.Fatal("the dry run changed something")
	}

	crash := errors.New("injected crash")
	d := deletion(t, gone.ID)
	d.AfterBatch = func(n int) error {
		if n == 2 {
			return crash
		}
		return nil
	}
	if _, err := d.Run(ctx); !errors.Is(err, crash) {
		t.Fatalf("crashed run: %v", err)
	}
	mid, _ := deletion(t, gone.ID).Survey(ctx)
	if !mid.Exists || mid.ItemCount == 0 || mid.ItemCount >= dry.ItemCount {
		t.Fatalf("after the crash: %+v", mid)
	}
	// Part way, the tenant is suspended: its panel and website serve nothing.
	testkit.Expect(t, testkit.Call(t, testkit.Request{Method: "GET", Path: "/faqs", Tenant: gone.ID, Token: gone.AdminToken}), 403, "")

	if _, err := deletion(t, gone.ID).Run(ctx); err != nil {
		t.Fatal(err)
	}
	after, err := deletion(t, gone.ID).Survey(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if after.Exists || after.ItemCount != 0 || after.Objects != 0 {
		t.Fatalf("left behind: %+v", after)
	}
	if _, err := testkit.Deps(t).Store.TenantOfHost(ctx, gone.ID+".example.org"); !store.IsNotFound(err) {
		t.Fatalf("host lookup: %v", err)
	}
	// Running it again finds nothing to do.
	if again, err := deletion(t, gone.ID).Run(ctx); err != nil || again.ItemCount != 0 {
		t.Fatalf("second run: %+v %v", again, err)
	}
	keptAfter, err := deletion(t, kept.ID).Survey(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(keptAfter) != fmt.Sprint(keptBefore) {
		t.Fatalf("another tenant changed:\n%+v\n%+v", keptBefore, keptAfter)
	}
	if id, err := testkit.Deps(t).Store.TenantOfHost(ctx, kept.ID+".example.org"); err != nil || id != kept.ID {
		t.Fatalf("another tenant's host: %q %v", id, err)
	}
}
