package mail_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"testing"
	"time"

	"github.com/guregu/dynamo/v2"

	"github.com/campuscms/panel/shared/mail"
	"github.com/campuscms/panel/shared/store"
	"github.com/campuscms/panel/shared/testkit"
)

// campaignEvent is an SES event of a campaign's mail (its tenant, campaign and outbox tags).
func campaignEvent(t *testing.T, eventType, tenant, campaign, outbox string, detail map[string]any) []byte {
	t.Helper()
	tags := map[string][]string{"ses:configuration-set": {"campuscms-mail"}, "tenant": {tenant}, "campaign": {campaign}, "outbox": {outbox}}
	d := map[string]any{"eventType": eventType, "mail": map[string]any{"messageId": "0100-" + outbox, "tags": tags}}
	for k, v := range detail {
		d[k] = v
	}
	raw, err := json.Marshal(map[string]any{"version": "0", "source": "aws.ses", "detail": d})
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

func bounceOf(address string) map[string]any {
	return map[string]any{"bounce": map[string]any{"bounceType": "Permanent", "bounceSubType": "General",
		"bouncedRecipients": []map[string]any{{"emailAddress": address}}}}
}

// TestCampaignEventCountedOnce: the bounce of a campaign's mail suppresses its address and adds
// one to the campaign's count, however often SES's event is delivered; a complaint of the same
// mail is another event; the bounce of a campaign whose record is gone suppresses without
// counting (and writes no record in its place); without a counter nothing is counted.
func TestCampaignEventCountedOnce(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	scope := scopeOf(t, tn.ID)
	st := testkit.Deps(t).Store
	ctx := context.Background()
	// A campaign's record: an item holding counts (a newsletter, in the panel).
	recordKey := func(campaign string) store.Key { return store.Key{PK: scope.Partition("CAMPAIGN"), SK: campaign} }
	if err := st.Table.Put(map[string]any{"PK": recordKey("C1").PK, "SK": "C1"}).Run(ctx); err != nil {
		t.Fatal(err)
	}
	events := mail.Events{Store: st, Log: slog.New(slog.DiscardHandler), Count: func(s store.Scope, campaign, reason string) *dynamo.Update {
		k := store.Key{PK: s.Partition("CAMPAIGN"), SK: campaign}
		return st.Table.Update("PK", k.PK).Range("SK", k.SK).Add(reason+"Count", 1).If("attribute_exists(PK)")
	}}
	counts := func(campaign string) (map[string]any, bool) {
		var item map[string]any
		err := st.Get(ctx, recordKey(campaign), &item)
		if store.IsNotFound(err) {
			return nil, false
		} else if err != nil {
			t.Fatal(err)
		}
		return item, true
	}
	gone := "gone+" + tn.ID + "@example.org"
	bounce := campaignEvent(t, "Bounce", tn.ID, "C1", "01MAIL0000000000000000001", bounceOf(gone))
	for i := range 3 {
		res, err := events.Handle(ctx, bounce)
		if err != nil {
			t.Fatalf("delivery %d: %v", i+1, err)
		}
		if i == 0 && (res.Counted != "C1" || len(res.Suppressed) != 1) {
			t.Fatalf("first delivery: %+v", res)
		}
		if i > 0 && (res.Counted != "" || res.Ignored != "handled already") {
			t.Fatalf("delivery %d: %+v", i+1, res)
		}
	}
	complaint := campaignEvent(t, "Complaint", tn.ID, "C1", "01MAIL0000000000000000001", map[string]any{"complaint": map[string]any{
		"complaintFeedbackType": "abuse", "complainedRecipients": []map[string]any{{"emailAddress": gone}}}})
	for range 2 {
		if _, err := events.Handle(ctx, complaint); err != nil {
			t.Fatal(err)
		}
	}
	item, _ := counts("C1")
	if item["bounceCount"] != 1.0 || item["complaintCount"] != 1.0 {
		t.Fatalf("counts %v, want one bounce and one complaint", item)
	}
	if sup, err := mail.Suppressed(ctx, st, scope, gone); err != nil || !sup {
		t.Fatalf("suppressed %v %v", sup, err)
	}

	// A campaign whose record is gone: suppressed, not counted, no record made.
	lost := "lost+" + tn.ID + "@example.org"
	res, err := events.Handle(ctx, campaignEvent(t, "Bounce", tn.ID, "C2", "01MAIL0000000000000000002", bounceOf(lost)))
	if err != nil || res.Counted != "" || len(res.Suppressed) != 1 {
		t.Fatalf("deleted campaign: %+v %v", res, err)
	}
	if _, found := counts("C2"); found {
		t.Fatal("counting a deleted campaign made a record")
	}
	if sup, _ := mail.Suppressed(ctx, st, scope, lost); !sup {
		t.Fatal("not suppressed")
	}
	// Without a counter (HandleSESEvent) the campaign is not counted.
	third := "third+" + tn.ID + "@example.org"
	if _, err := mail.HandleSESEvent(ctx, st, campaignEvent(t, "Bounce", tn.ID, "C1", "01MAIL0000000000000000003", bounceOf(third)), slog.New(slog.DiscardHandler)); err != nil {
		t.Fatal(err)
	}
	if item, _ := counts("C1"); item["bounceCount"] != 1.0 {
		t.Fatalf("counted without a counter: %v", item)
	}
}

// TestCampaignTagged: a campaign's mail reaches SES tagged with its campaign beside its tenant;
// a campaign that is no tag value is refused before anything is written.
func TestCampaignTagged(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	scope := scopeOf(t, tn.ID)
	ses := testkit.SES(t)
	msg := reset("tagged+" + tn.ID + "@example.org")
	msg.Kind, msg.Bulk, msg.Campaign = mail.KindNewsletter, true, "01NEWSLETTER0000000000000A"
	msg.Headers = mail.UnsubscribeHeaders("https://www.example.org/newsletter/unsubscribe?token=tok")
	enqueue(t, scope, msg)
	w := mail.NewWorker(testkit.Deps(t).Store, ses.Sender(t, "campuscms-mail"), sesConfig(), testkit.Deps(t).Log).Only(tn.ID)
	if res, err := w.Deliver(context.Background(), time.Now().Add(time.Second)); err != nil || res.Sent != 1 {
		t.Fatalf("deliver %+v %v", res, err)
	}
	r := ses.Requests()[0]
	if r.Tag("campaign") != msg.Campaign || r.Tag("tenant") != tn.ID {
		t.Fatalf("tags: campaign %q tenant %q", r.Tag("campaign"), r.Tag("tenant"))
	}
	for _, bad := range []string{"a b", "x#y", "T#" + tn.ID, "01ABC\r\n"} {
		msg.Campaign = bad
		if _, err := mail.Enqueue(testkit.Deps(t).Store, scope, msg); err == nil {
			t.Errorf("campaign %q accepted", bad)
		}
	}
}
