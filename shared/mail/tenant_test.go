package mail_test

import (
	"context"
	"errors"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/campuscms/panel/shared/awsclient/s3client"
	"github.com/campuscms/panel/shared/mail"
	"github.com/campuscms/panel/shared/secrets"
	"github.com/campuscms/panel/shared/tenants"
	"github.com/campuscms/panel/shared/testkit"
)

// mailOfEveryKind gives the tenant a mail waiting to be sent, a failed mail and a suppressed
// address.
func mailOfEveryKind(t *testing.T, tn testkit.Tenant) {
	t.Helper()
	scope := scopeOf(t, tn.ID)
	st := testkit.Deps(t).Store
	ctx := context.Background()
	enqueue(t, scope, reset("waiting+"+tn.ID+"@example.org"))
	failing := enqueue(t, scope, reset("failing+"+tn.ID+"@example.org"))
	refuse := senderFunc(func(context.Context, mail.Envelope) (string, error) {
		return "", errors.Join(mail.ErrPermanent, errors.New("refused"))
	})
	if res, err := mail.NewWorker(st, refuse, localConfig(), slog.New(slog.DiscardHandler)).DeliverKeys(ctx, time.Now().Add(time.Second), failing); err != nil || res.Failed != 1 {
		t.Fatalf("failing mail %+v %v", res, err)
	}
	if err := mail.Suppress(ctx, st, scope, "bounced+"+tn.ID+"@example.org", mail.ReasonBounce, "General", time.Now()); err != nil {
		t.Fatal(err)
	}
}

// TestTenantToolsSeeTheMail: deleting a tenant finds and deletes its mail (outbox, failed list,
// suppressions) by Query like the rest of its items; an export carries it, and an import under
// another id takes the failed list and the suppressions but not the mail the source had yet to
// send (the source's worker sends it; the copy would send it twice).
func TestTenantToolsSeeTheMail(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	d := testkit.Deps(t)
	src, gone := testkit.NewTenant(t), testkit.NewTenant(t)
	mailOfEveryKind(t, src)
	mailOfEveryKind(t, gone)

	sealer, err := secrets.FromEnv(d.AWS)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "archive.tar")
	if _, err := (tenants.Export{St: d.Store, S3: s3client.New(d.AWS), Bucket: d.Config.MediaBucket, Tenant: src.ID, Out: out, Sealer: sealer}).Run(ctx); err != nil {
		t.Fatal(err)
	}
	dst := "t-mailcopy-" + strings.ToLower(src.ID[len(src.ID)-6:])
	res, err := (tenants.Import{St: d.Store, S3: s3client.New(d.AWS), Bucket: d.Config.MediaBucket, Archive: out, Tenant: dst, Sealer: sealer}).Run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if res.Skipped["MAILOUT"] != 1 {
		t.Fatalf("import skipped %v, want the one waiting mail", res.Skipped)
	}
	dstScope := scopeOf(t, dst)
	if pending := testkit.Outbox(t, dst); len(pending) != 0 {
		t.Fatalf("the copy would send the source's mail again: %+v", pending)
	}
	if failed, err := mail.Failed(ctx, d.Store, dstScope, 10); err != nil || len(failed) != 1 {
		t.Fatalf("copy's failed list %+v %v", failed, err)
	}
	if ok, err := mail.Suppressed(ctx, d.Store, dstScope, "bounced+"+src.ID+"@example.org"); err != nil || !ok {
		t.Fatalf("copy's suppression %v %v", ok, err)
	}

	del := tenants.Deletion{St: d.Store, S3: s3client.New(d.AWS), Bucket: d.Config.MediaBucket, Tenant: gone.ID}
	before, err := del.Survey(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, kind := range []string{"MAILOUT", "MAILFAILED", "MAILSUPPRESS"} {
		if before.Items[kind] != 1 {
			t.Fatalf("survey found %d %s items: %v", before.Items[kind], kind, before.Items)
		}
	}
	if _, err := del.Run(ctx); err != nil {
		t.Fatal(err)
	}
	scope := scopeOf(t, gone.ID)
	if pending := testkit.Outbox(t, gone.ID); len(pending) != 0 {
		t.Fatalf("outbox after deletion %+v", pending)
	}
	if failed, _ := mail.Failed(ctx, d.Store, scope, 10); len(failed) != 0 {
		t.Fatalf("failed after deletion %+v", failed)
	}
	if ok, _ := mail.Suppressed(ctx, d.Store, scope, "bounced+"+gone.ID+"@example.org"); ok {
		t.Fatal("suppression after deletion")
	}
	// The source keeps its own.
	if pending := testkit.Outbox(t, src.ID); len(pending) != 1 {
		t.Fatalf("source outbox %+v", pending)
	}
}
