package tenants_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/guregu/dynamo/v2"

	"github.com/campuscms/panel/shared/awsclient/s3client"
	"github.com/campuscms/panel/shared/demo"
	"github.com/campuscms/panel/shared/store"
	"github.com/campuscms/panel/shared/tenants"
	"github.com/campuscms/panel/shared/testkit"
)

// itemsOf reads every item of a tenant (test only: a Scan), keyed by PK|SK with the tenant id
// taken out, so two tenants' copies compare.
func itemsOf(t *testing.T, tenant string, alsoX ...string) map[string]string {
	t.Helper()
	st := testkit.Deps(t).Store
	root := "T#" + tenant
	var items []dynamo.Item
	if err := st.Table.Scan().Filter("$ = ? OR begins_with($, ?)", "PK", root, "PK", root+"#").Consistent(true).All(context.Background(), &items); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, it := range items {
		var m map[string]any
		if err := dynamo.UnmarshalItem(it, &m); err != nil {
			t.Fatal(err)
		}
		pk, sk := fmt.Sprint(m["PK"]), fmt.Sprint(m["SK"])
		kind := strings.SplitN(strings.TrimPrefix(strings.TrimPrefix(pk, root), "#"), "#", 2)[0]
		if kind == "SESSION" || kind == "CHALLENGE" || kind == "LOGIN" || kind == "LOGIN-AUDIT" || kind == "AUDIT" {
			continue // not carried over (audit: the import's own entries differ; its budgets count sign-ins)
		}
		// The media quota's bookkeeping (held bytes, uploads in flight): an import leaves it to
		// be set from the truth by the first upload.
		delete(m, "held")
		delete(m, "inflight")
		delete(m, "seq")
		if zipped, ok := m["state"].([]byte); ok {
			m["state"] = unzip(t, zipped) // a kept version's state, compared as its JSON
		}
		delete(m, "domains")
		delete(m, "updatedAt") // the tenant item's, moved by set-domains
		v := strings.ReplaceAll(fmt.Sprint(m), tenant, "X")
		for _, o := range alsoX {
			v = strings.ReplaceAll(v, o, "X") // free text that named the source (its institution's name)
		}
		out[strings.ReplaceAll(pk+"|"+sk, tenant, "X")] = v
	}
	return out
}

func unzip(t *testing.T, zipped []byte) string {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(zipped))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}

func objectsOf(t *testing.T, tenant string) map[string]string {
	t.Helper()
	d := testkit.Deps(t)
	client := s3client.New(d.AWS)
	out := map[string]string{}
	for _, prefix := range []string{"media/", "uploads/", "trash/"} {
		list, err := client.ListObjectsV2(context.Background(), &s3.ListObjectsV2Input{Bucket: aws.String(d.Config.MediaBucket), Prefix: aws.String(prefix + tenant + "/")})
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range list.Contents {
			obj, err := client.GetObject(context.Background(), &s3.GetObjectInput{Bucket: aws.String(d.Config.MediaBucket), Key: o.Key})
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(obj.Body)
			obj.Body.Close()
			out[strings.Replace(*o.Key, tenant, "X", 1)] = fmt.Sprintf("%s %x", aws.ToString(obj.ContentType), body)
		}
	}
	return out
}

// TestExportImportRoundTrip: a tenant exported (the export crashed once and resumed) and imported
// under a new id has the same items, item by item, and the same objects, byte for byte; its
// counters are recounted and equal; its admin signs in and sees its records.
func TestExportImportRoundTrip(t *testing.T) {
	ctx := context.Background()
	d := testkit.Deps(t)
	src := testkit.NewTenant(t)
	fill(t, src, src.ID+".example.org")
	// A record in the trash, with its file.
	testkit.Expect(t, testkit.Call(t, testkit.Request{Method: "DELETE", Path: "/faqs/" + firstFAQ(t, src), Tenant: src.ID, Token: src.AdminToken}), 200, "")
	// A singleton edited twice: its kept version's state holds its id, the tenant's.
	for _, title := range []string{"First title", "Second title"} {
		testkit.Expect(t, testkit.Call(t, testkit.Request{Method: "PATCH", Path: "/seo-settings", Tenant: src.ID, Token: src.AdminToken,
			Body: map[string]any{"defaultTitle": title}}), 200, "")
	}
	out := filepath.Join(t.TempDir(), "school.tar")
	crash := errors.New("injected crash")
	ex := tenants.Export{St: d.Store, S3: s3client.New(d.AWS), Bucket: d.Config.MediaBucket, Tenant: src.ID, Out: out, Sealer: deploymentKey(t),
		AfterEntry: func(n int) error {
			if n == 1 {
				return crash
			}
			return nil
		}}
	if _, err := ex.Run(ctx); !errors.Is(err, crash) {
		t.Fatalf("first run: %v", err)
	}
	if _, err := os.Stat(out); err == nil {
		t.Fatal("an unfinished export has the final name")
	}
	ex.AfterEntry = nil
	m, err := ex.Run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if m.Items < 50 || m.Objects < 1 || len(m.Entries) < 2 {
		t.Fatalf("manifest %+v", m)
	}

	dst := "t-imported-" + strings.ToLower(src.ID[len(src.ID)-6:])
	im := tenants.Import{St: d.Store, S3: s3client.New(d.AWS), Bucket: d.Config.MediaBucket, Archive: out, Tenant: dst, Sealer: deploymentKey(t)}
	res, err := im.Run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if res.From != src.ID || res.Objects != m.Objects || res.Counters == 0 || !res.Signed {
		t.Fatalf("import %+v", res)
	}
	if _, err := im.Run(ctx); err == nil || !strings.Contains(err.Error(), "exists already") {
		t.Fatalf("second import: %v", err)
	}

	sameItems(t, src.ID, dst)
	if a, b := objectsOf(t, src.ID), objectsOf(t, dst); fmt.Sprint(a) != fmt.Sprint(b) || len(a) == 0 {
		t.Fatalf("objects differ:\n%v\n%v", a, b)
	}
	scope, _ := store.NewScope(dst)
	if tn, err := d.Store.GetTenant(ctx, scope); err != nil || len(tn.Domains) != 0 {
		t.Fatalf("imported tenant %+v %v", tn, err)
	}
	token := testkit.Login(t, dst, src.AdminUsername, src.AdminPassword)
	list := testkit.Call(t, testkit.Request{Method: "GET", Path: "/faqs", Tenant: dst, Token: token})
	if list.Get("totalCount") != 11.0 {
		t.Fatalf("imported list: %.300s", list.Raw)
	}
	// The import is in the new tenant's audit log, by the operator (issue 39, item 5).
	log := testkit.Call(t, testkit.Request{Method: "GET", Path: "/audit-log?action=import", Tenant: dst, Token: token})
	if n, _ := log.Get("result").([]any); len(n) != 1 || log.Get("result.0.username") != "cmsctl" || log.Get("result.0.recordId") != dst {
		t.Fatalf("audit log of the import: %.300s", log.Raw)
	}
	kept := testkit.Call(t, testkit.Request{Method: "GET", Path: "/seo-settings/" + dst + "/versions/2", Tenant: dst, Token: token})
	if kept.Get("result.id") != dst || kept.Get("result.defaultTitle") != "First title" {
		t.Fatalf("imported kept version: %.300s", kept.Raw)
	}
}

func firstFAQ(t *testing.T, tn testkit.Tenant) string {
	res := testkit.Call(t, testkit.Request{Method: "GET", Path: "/faqs", Tenant: tn.ID, Token: tn.AdminToken})
	return res.Get("result.0.id").(string)
}

// A damaged archive is refused before anything is written.
func TestImportRefusesADamagedArchive(t *testing.T) {
	ctx := context.Background()
	d := testkit.Deps(t)
	src := testkit.NewTenant(t)
	out := exportArchive(t, src.ID)
	raw, _ := os.ReadFile(out)
	i := strings.Index(string(raw), `"admin"`)
	if i < 0 {
		t.Fatal("no admin in the archive")
	}
	raw[i+1] = 'A'
	if err := os.WriteFile(out, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	dst := "t-damaged-" + strings.ToLower(src.ID[len(src.ID)-6:])
	_, err := (tenants.Import{St: d.Store, S3: s3client.New(d.AWS), Bucket: d.Config.MediaBucket, Archive: out, Tenant: dst, Sealer: deploymentKey(t)}).Run(ctx)
	if !errors.Is(err, tenants.ErrArchive) || !strings.Contains(err.Error(), "items/000001.jsonl does not match its checksum") {
		t.Fatalf("damaged archive: %v", err)
	}
	if n := len(itemsOf(t, dst)); n != 0 {
		t.Fatalf("%d items written from a damaged archive", n)
	}
}

// The demo institution (every collection, pages, menu, forms with submissions, images) makes the
// same round trip: every item and every counter comes back.
func TestExportImportOfTheDemo(t *testing.T) {
	ctx := context.Background()
	d := testkit.Deps(t)
	src := testkit.NewTenant(t)
	if _, err := demo.Seed(ctx, d.Store, s3client.New(d.AWS), d.Config.MediaBucket, src.ID); err != nil {
		t.Fatal(err)
	}
	out := exportArchive(t, src.ID)
	dst := "t-demo-copy-" + strings.ToLower(src.ID[len(src.ID)-6:])
	if _, err := (tenants.Import{St: d.Store, S3: s3client.New(d.AWS), Bucket: d.Config.MediaBucket, Archive: out, Tenant: dst, Sealer: deploymentKey(t)}).Run(ctx); err != nil {
		t.Fatal(err)
	}
	sameItems(t, src.ID, dst)
}

// sameItems fails unless the import dst holds the items of src, one for one.
func sameItems(t *testing.T, src, dst string) {
	t.Helper()
	want, got := itemsOf(t, src), itemsOf(t, dst, src)
	var diffs []string
	for k, v := range want {
		if got[k] != v {
			diffs = append(diffs, fmt.Sprintf("%s:\n  src %.300s\n  dst %.300s", k, v, got[k]))
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			diffs = append(diffs, "extra "+k)
		}
	}
	sort.Strings(diffs)
	if len(diffs) > 0 {
		t.Fatalf("%d of %d items differ:\n%s", len(diffs), len(want), strings.Join(diffs[:min(len(diffs), 10)], "\n"))
	}
}

// Two-factor keys move with the tenant: resealed for the new id with the deployment's sealer, the
// admin's authenticator still signs in there; without a sealer they are dropped with the
// recovery codes, and the password alone signs in.
func TestImportMovesTwoFactorKeys(t *testing.T) {
	ctx := context.Background()
	d := testkit.Deps(t)
	src := testkit.NewTenant(t)
	secret := testkit.EnableTwoFactor(t, src.ID, src.AdminToken, src.AdminPassword)
	out := exportArchive(t, src.ID)
	sealer := deploymentKey(t)
	suffix := strings.ToLower(src.ID[len(src.ID)-6:])
	login := map[string]any{"username": src.AdminUsername, "password": src.AdminPassword}

	moved := "t-2fa-moved-" + suffix
	res, err := (tenants.Import{St: d.Store, S3: s3client.New(d.AWS), Bucket: d.Config.MediaBucket, Archive: out, Tenant: moved, Sealer: sealer}).Run(ctx)
	if err != nil || res.TwoFactorMoved != 1 || res.TwoFactorResets != 0 {
		t.Fatalf("import with the sealer: %+v %v", res, err)
	}
	first := testkit.Call(t, testkit.Request{Method: "POST", Path: "/auth/login", Tenant: moved, Body: login})
	if first.Get("result.twoFactor") != "code" {
		t.Fatalf("sign-in on the imported tenant: %s", first.Raw)
	}
	// The next step's code: the archive kept the step the source last accepted.
	second := testkit.Call(t, testkit.Request{Method: "POST", Path: "/auth/two-factor", Tenant: moved,
		Body: map[string]any{"challenge": first.Get("result.challenge"), "code": testkit.TOTP(t, secret, 1)}})
	testkit.Expect(t, second, 200, "")
	if tok, _ := second.Get("result.token").(string); tok == "" {
		t.Fatalf("second step: %s", second.Raw)
	}

	dropped := "t-2fa-dropped-" + suffix
	// Without the key the signature cannot be checked either: the operator vouches for the archive.
	res, err = (tenants.Import{St: d.Store, S3: s3client.New(d.AWS), Bucket: d.Config.MediaBucket, Archive: out, Tenant: dropped, TrustUnsigned: true}).Run(ctx)
	if err != nil || res.TwoFactorMoved != 0 || res.TwoFactorResets != 1 {
		t.Fatalf("import without a sealer: %+v %v", res, err)
	}
	token := testkit.Login(t, dropped, src.AdminUsername, src.AdminPassword)
	me := testkit.Call(t, testkit.Request{Method: "GET", Path: "/auth/me", Tenant: dropped, Token: token})
	if me.Get("result.twoFactor.enabled") != false || me.Get("result.twoFactor.recoveryCodesLeft") != 0.0 {
		t.Fatalf("me after a dropped key: %s", me.Raw)
	}
}
