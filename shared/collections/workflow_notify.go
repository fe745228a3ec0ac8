package collections

// Telling people about a draft's steps: the bell and mail, written in the step's own transaction.

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/campuscms/panel/shared/auth"
	"github.com/campuscms/panel/shared/formats"
	"github.com/campuscms/panel/shared/ids"
	"github.com/campuscms/panel/shared/mail"
	"github.com/campuscms/panel/shared/store"
)

// notifyItems are the transaction items that tell people about a step of draft d: a bell
// notification (the tenant's notifications, through what every write of one records), and a
// mail to the author on approve, send back and publish when they have an address.
func (s *Service) notifyItems(ctx context.Context, caller *auth.Caller, c *Collection, d *draftItem, step, comment string, at time.Time) ([]any, error) {
	name := d.Title
	if name == "" {
		name = "(untitled)"
	}
	what := strings.ToLower(c.Title)
	var title, message string
	toAuthor := true
	switch step {
	case "submit":
		title = fmt.Sprintf("Waiting for review: %s “%s”", what, name)
		message = fmt.Sprintf("%s submitted the %s “%s” for review.", d.UpdatedName, what, name)
		toAuthor = false
	case "approve":
		title = fmt.Sprintf("Approved: %s “%s”", what, name)
		message = fmt.Sprintf("%s approved the draft of the %s “%s”.", userName(caller), what, name)
	case "request-changes":
		title = fmt.Sprintf("Changes requested: %s “%s”", what, name)
		message = fmt.Sprintf("%s asked for changes to the draft of the %s “%s”: %s", userName(caller), what, name, comment)
	case "publish":
		title = fmt.Sprintf("Published: %s “%s”", what, name)
		message = fmt.Sprintf("%s published the %s “%s”.", userName(caller), what, name)
	default:
		return nil, nil
	}
	title = formats.Shorten(title, 200)
	message = formats.Shorten(message, 2000)
	items, err := s.notificationItems(ctx, caller, title, message, at)
	if err != nil {
		return nil, err
	}
	if step == "submit" {
		mails, err := s.reviewerMails(ctx, caller, c, title, message)
		if err != nil {
			return nil, err
		}
		items = append(items, mails...)
	}
	if toAuthor && d.AuthorID != "" && (caller.User == nil || d.AuthorID != caller.User.ID) {
		m, err := s.authorMail(ctx, caller, d.AuthorID, title, message)
		if err != nil {
			return nil, err
		}
		if m != nil {
			items = append(items, m)
		}
	}
	return items, nil
}

func (s *Service) tellAbout(ctx context.Context, t *stepTx, caller *auth.Caller, c *Collection, d *draftItem, step, comment string, at time.Time) error {
	items, err := s.notifyItems(ctx, caller, c, d, step, comment, at)
	if err != nil {
		return err
	}
	t.add(items...)
	return nil
}

func userName(caller *auth.Caller) string {
	if caller.User == nil {
		return "Someone"
	}
	return caller.User.Username
}

// notificationItems are a new notification's items (its record, what records its create) for
// another write's transaction.
func (s *Service) notificationItems(ctx context.Context, caller *auth.Caller, title, message string, at time.Time) ([]any, error) {
	c := s.reg["notifications"]
	if c == nil {
		return nil, nil
	}
	id := ids.New()
	k := s.key(caller.Scope, c, id)
	stamp := nowString(at)
	rec := Record{"PK": k.PK, "SK": k.SK, "id": id, "version": 1, "createdAt": stamp, "updatedAt": stamp,
		"title": title, "message": message, "type": "push", "read": false, "status": true}
	eff, err := s.SideEffects(ctx, Change{Caller: caller, Kind: KindOf(c), Action: ActionCreate, After: rec, At: at})
	if err != nil {
		return nil, err
	}
	out := []any{s.st.Table.Put(eff.Stored(maps.Clone(rec))).If("attribute_not_exists(PK)")}
	return append(out, eff.TxItems(s.st, caller.Scope)...), nil
}

// authorMail is the mail telling a draft's author about a step, when the author has an address.
func (s *Service) authorMail(ctx context.Context, caller *auth.Caller, authorID, subject, body string) (any, error) {
	var u auth.User
	err := s.st.Get(ctx, auth.UserKey(caller.Scope, authorID), &u)
	if store.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if !u.Status || !mail.ValidAddress(u.Email) {
		return nil, nil
	}
	return s.mailTo(caller, u.Email, subject, body)
}

// mailTo is the Put of a mail about a draft's step to one member of staff (nil when mail refuses
// the address).
func (s *Service) mailTo(caller *auth.Caller, to, subject, body string) (any, error) {
	msg := mail.Message{To: to, FromName: formats.Shorten(caller.Tenant.Name, mail.MaxNameLength), Subject: formats.Shorten(subject, 200), Kind: "draft-review"}
	if msg.FromName == "" {
		msg.FromName = "Campus CMS"
	}
	if err := msg.Render(mail.TemplateMessage, mail.Notice{Body: body}); err != nil {
		return nil, err
	}
	out, err := mail.Enqueue(s.st, caller.Scope, msg)
	if err != nil {
		return nil, nil // an address mail refuses: the bell still tells them
	}
	return out.Put, nil
}

// maxReviewerMails bounds the mails one submit writes (each is an item of its transaction), and
// maxStaffRead the staff and roles read to find who holds the publish right.
const (
	maxReviewerMails = MaxEmails
	maxStaffRead     = 200
)

// reviewerMails are the mails telling the holders of c's publish right (administrators, holders
// by their own rights or their role's; active, with an address; not the caller) that a draft
// waits for them: at most maxReviewerMails, found with one bounded Query of the staff and one of
// the roles.
func (s *Service) reviewerMails(ctx context.Context, caller *auth.Caller, c *Collection, subject, body string) ([]any, error) {
	code := c.Permission(ActionPublish)
	var roles []auth.Role
	if err := s.st.Table.Get("PK", caller.Scope.Collection(auth.KindRoles)).Project("id", "status", "permissionIds").Limit(maxStaffRead).All(ctx, &roles); err != nil {
		return nil, store.Wrap("roles", err)
	}
	holding := map[string]bool{}
	for _, r := range roles {
		if r.Status && slices.Contains(r.PermissionIDs, code) {
			holding[r.ID] = true
		}
	}
	var staff []auth.User
	if err := s.st.Table.Get("PK", caller.Scope.Collection(auth.KindUsers)).Project("id", "email", "status", "isAdmin", "roleId", "permissionIds").
		Limit(maxStaffRead).All(ctx, &staff); err != nil {
		return nil, store.Wrap("staff", err)
	}
	var out []any
	for _, u := range staff {
		if len(out) >= maxReviewerMails {
			break
		}
		if !u.Status || (caller.User != nil && u.ID == caller.User.ID) || !mail.ValidAddress(u.Email) ||
			!(u.IsAdmin || slices.Contains(u.PermissionIDs, code) || holding[u.RoleID]) {
			continue
		}
		m, err := s.mailTo(caller, u.Email, subject, body)
		if err != nil {
			return nil, err
		}
		if m != nil {
			out = append(out, m)
		}
	}
	return out, nil
}
