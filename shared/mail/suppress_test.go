package mail_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"testing"
	"time"

	"github.com/campuscms/panel/shared/mail"
	"github.com/campuscms/panel/shared/testkit"
)

// TestBounceSuppressesForThatTenantOnly: a permanent bounce or a complaint reported by SES
// (EventBridge's event, or the bare record as SNS carries it) puts the address on the suppression
// list of the tenant named by the mail's tag, and of no other; a transient bounce, a delivery
// and an event without a tenant tag suppress nothing. Bulk mail to a suppressed address is then
// dropped without being sent; a password reset to it still goes.
func TestBounceSuppressesForThatTenantOnly(t *testing.T) {
	t.Parallel()
	tn, other := testkit.NewTenant(t), testkit.NewTenant(t)
	scope, otherScope := scopeOf(t, tn.ID), scopeOf(t, other.ID)
	st := testkit.Deps(t).Store
	ctx := context.Background()
	log := slog.New(slog.DiscardHandler)
	bounced := "Gone+" + tn.ID + "@Example.org"
	complained := "angry+" + tn.ID + "@example.org"
	full := "full+" + tn.ID + "@example.org"

	cases := []struct {
		name      string
		raw       []byte
		suppress  []string
		ignored   string
		wantError bool
	}{
		{"permanent bounce", sesEvent(t, "Bounce", tn.ID, map[string]any{"bounce": map[string]any{
			"bounceType": "Permanent", "bounceSubType": "General",
			"bouncedRecipients": []map[string]any{{"emailAddress": bounced, "diagnosticCode": "smtp; 550 5.1.1 user unknown"}}}}),
			[]string{bounced}, "", false},
		{"complaint, as SNS carries it", mustDetail(t, sesEvent(t, "Complaint", tn.ID, map[string]any{"complaint": map[string]any{
			"complaintFeedbackType": "abuse", "complainedRecipients": []map[string]any{{"emailAddress": complained}}}})),
			[]string{complained}, "", false},
		{"transient bounce", sesEvent(t, "Bounce", tn.ID, map[string]any{"bounce": map[string]any{
			"bounceType": "Transient", "bouncedRecipients": []map[string]any{{"emailAddress": full}}}}), nil, "a transient bounce", false},
		{"delivery", sesEvent(t, "Delivery", tn.ID, nil), nil, "a Delivery event", false},
		{"no tenant tag", sesEvent(t, "Bounce", "", map[string]any{"bounce": map[string]any{
			"bounceType": "Permanent", "bouncedRecipients": []map[string]any{{"emailAddress": full}}}}), nil, "no tenant tag", false},
		{"a tenant tag that is no tenant", sesEvent(t, "Bounce", "T#"+tn.ID, map[string]any{"bounce": map[string]any{
			"bounceType": "Permanent", "bouncedRecipients": []map[string]any{{"emailAddress": full}}}}), nil, "", true},
		{"not JSON", []byte("{"), nil, "", true},
	}
	for _, c := range cases {
		res, err := mail.HandleSESEvent(ctx, st, c.raw, log)
		if (err != nil) != c.wantError {
			t.Fatalf("%s: %+v %v", c.name, res, err)
		}
		if c.ignored != "" && res.Ignored != c.ignored {
			t.Fatalf("%s: %+v, want ignored %q", c.name, res, c.ignored)
		}
		if len(res.Suppressed) != len(c.suppress) {
			t.Fatalf("%s: %+v", c.name, res)
		}
	}
	for _, c := range []struct {
		scope   string
		address string
		want    bool
	}{
		{tn.ID, bounced, true}, {tn.ID, "gone+" + tn.ID + "@example.org", true}, {tn.ID, complained, true},
		{tn.ID, full, false}, {other.ID, bounced, false}, {other.ID, complained, false},
	} {
		s := scope
		if c.scope == other.ID {
			s = otherScope
		}
		got, err := mail.Suppressed(ctx, st, s, c.address)
		if err != nil || got != c.want {
			t.Errorf("Suppressed(%s, %s) = %v %v, want %v", c.scope, c.address, got, err, c.want)
		}
	}

	// Bulk mail skips the suppressed address; a password reset to it and bulk mail in the
	// other tenant are sent.
	news := reset(bounced)
	news.Kind, news.Bulk, news.Headers = mail.KindNewsletter, true, mail.UnsubscribeHeaders("https://x.example.org/u?t=1")
	dropped := enqueue(t, scope, news)
	asked := enqueue(t, scope, reset(bounced))
	theirs := enqueue(t, otherScope, news)
	rec := &recorder{}
	w := mail.NewWorker(st, rec, localConfig(), log)
	res, err := w.DeliverKeys(ctx, time.Now().Add(time.Second), dropped, asked, theirs)
	if err != nil || res.Suppressed != 1 || res.Sent != 2 {
		t.Fatalf("deliver %+v %v", res, err)
	}
	for _, e := range rec.sent {
		if e.ID == dropped.SK {
			t.Fatal("bulk mail was sent to a suppressed address")
		}
	}
	if left := testkit.Outbox(t, tn.ID); len(left) != 0 {
		t.Fatalf("outbox %+v", left)
	}
}

// mustDetail unwraps EventBridge's envelope: the SES record itself, as SNS delivers it.
func mustDetail(t *testing.T, raw []byte) []byte {
	t.Helper()
	var ev struct {
		Detail json.RawMessage `json:"detail"`
	}
	if err := json.Unmarshal(raw, &ev); err != nil {
		t.Fatal(err)
	}
	return ev.Detail
}
