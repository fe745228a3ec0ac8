package collections

// Drafts and review (issue 36). A collection declared "workflow": true keeps, beside each live
// record, at most one draft: an item of its own (DRAFT partition of the collection, keyed by the
// record's id, under the tenant) with its own version, so the live record stays byte-identical
// through any number of draft saves, and the site, the public API, the sitemap and visitor search
// (which read live records only) show the live version until the draft is published. A new record
// starts as a draft alone (no live record: it is on no read path until first published).
//
// Routes, served generically for every workflow collection under /{collection}:
//
//	POST   /{collection}/draft                     CREATE  a new record as a draft: body = the declared
//	                                                       fields (partial is fine) → 201 {result: Draft}
//	GET    /{collection}/{id}/draft                VIEW    {result: {draft: Draft|null, live: record|null,
//	                                                       changed: [field names where draft ≠ live],
//	                                                       requireReview, mayPublish (the caller's)}}; 404
//	                                                       when neither exists (the reviewer's compare)
//	PUT    /{collection}/{id}/draft                EDIT    save the draft: body = declared fields to change
//	                                                       + version (the draft's; 0 or absent starts a draft
//	                                                       of the live record) → 200 {result: Draft}; a stale
//	                                                       version is 409. A save moves an in_review, approved
//	                                                       or changes_requested draft back to draft and
//	                                                       cancels a scheduled publish.
//	DELETE /{collection}/{id}/draft                EDIT    "Discard draft" {version?} → 200 {result: {id}}
//	POST   /{collection}/{id}/draft/submit         EDIT    {version?} draft|changes_requested → in_review
//	POST   /{collection}/{id}/draft/approve        PUBLISH {version?} in_review → approved (not one's own
//	                                                       draft while requireReview is on)
//	POST   /{collection}/{id}/draft/request-changes PUBLISH {comment, version?} in_review|approved →
//	                                                       changes_requested; the comment joins the thread
//	POST   /{collection}/{id}/draft/publish        EDIT*   {version?, publishAt?} publishes now (the live
//	                                                       record, its version, audit entry, words and
//	                                                       counters, the draft's removal: one transaction) →
//	                                                       200 {result: live record}; with a future publishAt
//	                                                       the scheduler publishes it then → 200 {result: Draft}
//	GET    /{collection}/{id}/comments             VIEW    {result: [Comment], totalCount} oldest first (last 200)
//	POST   /{collection}/{id}/comments             VIEW+(EDIT or PUBLISH) {comment} → 201 {result: Comment}
//	GET    /drafts?state=&collection=&limit=       (each collection's VIEW) newest first, at most 100
//	POST   /pages/{id}/preview {draft: true}        VIEW    (pages' own route) a preview address of the
//	                                                       draft as the site would show it
//
// (*) Publishing needs CMS_PUBLISH_{CATEGORY}, or only the edit right while the Site settings'
// requireReview is off. Approving and requesting changes always need CMS_PUBLISH_{CATEGORY}.
// Plain writes of a workflow collection's live records (POST, PATCH, a version's restore, a
// restore from the trash) are publishing too: they are refused (403) to a caller who may not
// publish, and a PATCH of a record that has a draft is a 409 (edit the draft, or discard it).
//
// Draft (JSON): {id, collection, version, state, isNew, liveVersion, fields: {declared fields},
// title, authorId, authorName, updatedBy, updatedByName, createdAt, updatedAt, saves, publishAt,
// steps: [{step, by, byName, at, comment?}]}. States: draft, in_review, approved,
// changes_requested (published drafts are gone; a scheduled one keeps its state and publishAt).
// Any save moves the draft back to draft (what was reviewed changed) and cancels its schedule.
// Every step is audited (actions draft-create, draft-submit, draft-approve,
// draft-request-changes, draft-schedule, draft-discard, comment; the publish's own write is
// recorded as draft-publish with its changed fields instead of create/update); autosaves are not
// audited one by one: they fold into the draft (saves, updatedAt, updatedBy) and into the one
// version and audit entry its publishing writes. Submit, approve, request changes and publish
// put a bell notification (the tenant's notifications) in their transaction; approve, request
// changes and publish mail the author, submit mails the publish right's holders (shared/mail's
// outbox, same transaction).
//
// Comment (JSON): {id, comment, by, byName, at}. GET /{collection}/{id}/draft's live is the
// record as GET /{collection}/{id} shows it (a page with pageSections); draft.fields holds the
// draft's declared fields (a page's pageSections as saved), which PUT takes like a PATCH.

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/guregu/dynamo/v2"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/audit"
	"github.com/campuscms/panel/shared/auth"
	"github.com/campuscms/panel/shared/ids"
	"github.com/campuscms/panel/shared/store"
)

// Draft states.
const (
	DraftStateDraft            = "draft"
	DraftStateInReview         = "in_review"
	DraftStateApproved         = "approved"
	DraftStateChangesRequested = "changes_requested"
)

// Audit actions of the workflow's steps.
const (
	ActionDraftCreate         = "draft-create"
	ActionDraftSubmit         = "draft-submit"
	ActionDraftApprove        = "draft-approve"
	ActionDraftRequestChanges = "draft-request-changes"
	ActionDraftSchedule       = "draft-schedule"
	ActionDraftPublish        = "draft-publish"
	ActionDraftDiscard        = "draft-discard"
	ActionComment             = "comment"
)

// SettingsCollection and SettingRequireReview are where the "Require review before publishing"
// setting lives: a boolean field of the Site settings singleton.
const (
	SettingsCollection   = "site-settings"
	SettingRequireReview = "requireReview"
)

const (
	// maxSteps bounds the steps a draft keeps (the audit log keeps them all).
	maxSteps = 50
	// maxComments is the most comments GET …/comments answers (the newest), and MaxCommentLength
	// a comment's length in characters.
	maxComments      = 200
	MaxCommentLength = 5000
	// maxDraftList bounds GET /drafts.
	maxDraftList     = 100
	defaultDraftList = 20
	// maxDraftBytes keeps a draft's compressed fields well under DynamoDB's item size.
	maxDraftBytes = 350_000
)

var (
	errNoDraft       = &api.Error{Status: http.StatusNotFound, Message: "There is no draft of this record."}
	errDraftExists   = &api.Error{Status: http.StatusConflict, Message: "This record has a draft already. Reload it and save again."}
	errDraftStale    = &api.Error{Status: http.StatusConflict, Message: "The draft was changed by someone else. Reload it and try again."}
	errDraftChanged  = &api.Error{Status: http.StatusConflict, Message: "The draft changed while it was being published. Review it and publish again."}
	errOwnApproval   = &api.Error{Status: http.StatusForbidden, Message: "You cannot approve your own draft: another reviewer must approve it."}
	errNothingToSave = &api.Error{Status: http.StatusBadRequest, Message: "Send the fields to save in the draft."}
	errNeedsComment  = api.FieldError(http.StatusBadRequest, "comment", "comment is required!")
	errCommentLength = api.FieldError(http.StatusBadRequest, "comment", fmt.Sprintf("A comment is at most %d characters.", MaxCommentLength))
)

func errHasDraft(c *Collection) *api.Error {
	return &api.Error{Status: http.StatusConflict, Message: fmt.Sprintf("This %s has a draft: save your changes in the draft, or discard the draft first.", strings.ToLower(c.Title))}
}

func errMayNotPublish(c *Collection) *api.Error {
	return &api.Error{Status: http.StatusForbidden, Message: fmt.Sprintf("Publishing %s needs the Publish %s right: save your changes as a draft and submit it for review.", c.TitlePlural, c.TitlePlural)}
}

func errNeedsPublishRight(c *Collection) *api.Error {
	return &api.Error{Status: http.StatusForbidden, Message: fmt.Sprintf("Reviewing drafts of %s needs the Publish %s right.", c.TitlePlural, c.TitlePlural)}
}

func errState(step, state string) *api.Error {
	return &api.Error{Status: http.StatusConflict, Message: fmt.Sprintf("A draft that is %s cannot be %s.", strings.ReplaceAll(state, "_", " "), step)}
}

// DraftStep is one recorded step of a draft: who did what, when.
type DraftStep struct {
	Step    string `dynamo:"step" json:"step"`
	By      string `dynamo:"by" json:"by"`
	ByName  string `dynamo:"byName" json:"byName"`
	At      string `dynamo:"at" json:"at"`
	Comment string `dynamo:"comment,omitempty" json:"comment,omitempty"`
}

// draftItem is a draft as stored. GSI1 lists a tenant's drafts by state, GSI2 by collection (a
// draft in the trash with its record is in neither).
type draftItem struct {
	PK          string      `dynamo:"PK"`
	SK          string      `dynamo:"SK"`
	GSI1PK      string      `dynamo:"GSI1PK,omitempty"`
	GSI1SK      string      `dynamo:"GSI1SK,omitempty"`
	GSI2PK      string      `dynamo:"GSI2PK,omitempty"`
	GSI2SK      string      `dynamo:"GSI2SK,omitempty"`
	Collection  string      `dynamo:"collection"`
	ID          string      `dynamo:"id"`
	Version     int         `dynamo:"version"`
	State       string      `dynamo:"state"`
	Data        []byte      `dynamo:"data"`
	LiveVersion int         `dynamo:"liveVersion"`
	Title       string      `dynamo:"title"`
	AuthorID    string      `dynamo:"authorId"`
	AuthorName  string      `dynamo:"authorName"`
	UpdatedBy   string      `dynamo:"updatedBy"`
	UpdatedName string      `dynamo:"updatedByName"`
	CreatedAt   string      `dynamo:"createdAt"`
	UpdatedAt   string      `dynamo:"updatedAt"`
	Saves       int         `dynamo:"saves"`
	PublishAt   string      `dynamo:"publishAt,omitempty"`
	Steps       []DraftStep `dynamo:"steps"`
	Trashed     bool        `dynamo:"trashed,omitempty"`
	ExpiresAt   int64       `dynamo:"expiresAt,omitempty"`
}

// Draft is a draft as the API shows it.
type Draft struct {
	ID            string      `json:"id"`
	Collection    string      `json:"collection"`
	Version       int         `json:"version"`
	State         string      `json:"state"`
	IsNew         bool        `json:"isNew"`
	LiveVersion   int         `json:"liveVersion"`
	Title         string      `json:"title"`
	Fields        Record      `json:"fields,omitempty"`
	AuthorID      string      `json:"authorId"`
	AuthorName    string      `json:"authorName"`
	UpdatedBy     string      `json:"updatedBy"`
	UpdatedByName string      `json:"updatedByName"`
	CreatedAt     string      `json:"createdAt"`
	UpdatedAt     string      `json:"updatedAt"`
	Saves         int         `json:"saves"`
	PublishAt     string      `json:"publishAt,omitempty"`
	Steps         []DraftStep `json:"steps"`
}

func draftKey(scope store.Scope, kind, id string) store.Key {
	return store.Key{PK: scope.Partition("DRAFT", kind), SK: id}
}

func draftStatePartition(scope store.Scope, state string) string {
	return scope.Partition("DRAFTS", "STATE", state)
}

func draftKindPartition(scope store.Scope, kind string) string {
	return scope.Partition("DRAFTS", "KIND", kind)
}

// index sets the list index keys of a draft that is not in the trash.
func (d *draftItem) index(scope store.Scope) {
	d.GSI1PK, d.GSI1SK = draftStatePartition(scope, d.State), d.UpdatedAt+"#"+d.Collection+"#"+d.ID
	d.GSI2PK, d.GSI2SK = draftKindPartition(scope, d.Collection), d.UpdatedAt+"#"+d.ID
}

func (d *draftItem) fields() (Record, error) {
	if len(d.Data) == 0 {
		return Record{}, nil
	}
	return DecodeState(d.Data)
}

func (d *draftItem) view(withFields bool) (Draft, error) {
	out := Draft{ID: d.ID, Collection: d.Collection, Version: d.Version, State: d.State, IsNew: d.LiveVersion == 0,
		LiveVersion: d.LiveVersion, Title: d.Title, AuthorID: d.AuthorID, AuthorName: d.AuthorName, UpdatedBy: d.UpdatedBy,
		UpdatedByName: d.UpdatedName, CreatedAt: d.CreatedAt, UpdatedAt: d.UpdatedAt, Saves: d.Saves, PublishAt: d.PublishAt, Steps: d.Steps}
	if out.Steps == nil {
		out.Steps = []DraftStep{}
	}
	if withFields {
		f, err := d.fields()
		if err != nil {
			return Draft{}, err
		}
		out.Fields = f
	}
	return out, nil
}

func (d *draftItem) addStep(step string, u *auth.User, at string, comment string) {
	s := DraftStep{Step: step, At: at, Comment: comment}
	if u != nil {
		s.By, s.ByName = u.ID, u.Username
	}
	d.Steps = append(d.Steps, s)
	if len(d.Steps) > maxSteps {
		d.Steps = d.Steps[len(d.Steps)-maxSteps:]
	}
}

// loadDraft reads record id's draft (found false when it has none, or only one in the trash).
func (s *Service) loadDraft(ctx context.Context, scope store.Scope, c *Collection, id string) (*draftItem, bool, error) {
	if !ids.Valid(id) {
		return nil, false, nil
	}
	var d draftItem
	err := s.st.Get(ctx, draftKey(scope, c.Key, id), &d)
	if store.IsNotFound(err) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	return &d, true, nil
}

// liveOf reads the live record id (nil when it has none: a new record's draft).
func (s *Service) liveOf(ctx context.Context, scope store.Scope, c *Collection, id string) (Record, error) {
	rec, err := s.Load(ctx, scope, c, id)
	if isStatus(err, http.StatusNotFound) {
		return nil, nil
	}
	return rec, err
}

// ReviewRequired reads the tenant's "Require review before publishing" setting.
func (s *Service) ReviewRequired(ctx context.Context, scope store.Scope) (bool, error) {
	return s.SiteFlag(ctx, scope, SettingRequireReview)
}

// SiteFlag reads one boolean field of the tenant's Site settings (one GetItem projecting it; off
// when never set or not declared): the settings features switch on (review, blocking on
// accessibility errors).
func (s *Service) SiteFlag(ctx context.Context, scope store.Scope, name string) (bool, error) {
	c := s.reg[SettingsCollection]
	if c == nil || !c.hasField(name, TypeBoolean) {
		return false, nil
	}
	var rec map[string]any
	err := s.st.Table.Get("PK", scope.Root()).Range("SK", dynamo.Equal, c.Singleton).Project(name).One(ctx, &rec)
	if err == dynamo.ErrNotFound || store.IsNotFound(err) {
		return false, nil
	}
	if err != nil {
		return false, store.Wrap("site settings", err)
	}
	on, _ := rec[name].(bool)
	return on, nil
}

// MayPublish reports whether caller may publish records of c: with the publish right, or with
// only the edit right while the tenant does not require review.
func (s *Service) MayPublish(ctx context.Context, caller *auth.Caller, c *Collection) (bool, error) {
	if caller.User != nil && caller.User.Can(c.Permission(ActionPublish)) {
		return true, nil
	}
	required, err := s.ReviewRequired(ctx, caller.Scope)
	return !required, err
}

// checkLiveWrite refuses (commit) a plain write of a workflow collection's live record by a caller
// who may not publish: a create, an edit, a version's restore, a restore from the trash.
func (s *Service) checkLiveWrite(ctx context.Context, wr *Write) error {
	if !wr.C.Workflow || wr.viaDraft || wr.effects != nil || wr.Action == ActionDelete {
		return nil
	}
	ok, err := s.MayPublish(ctx, wr.Caller, wr.C)
	if err != nil {
		return err
	}
	if !ok {
		return errMayNotPublish(wr.C)
	}
	return nil
}

// draftAlongside keeps a record's draft with it (commit): a delete takes the draft into the trash
// with the record (out of the lists, expiring with the trash entry), a restore from the trash
// brings it back; both conditioned on the draft's version, so a save racing them is a 409.
func (s *Service) draftAlongside(ctx context.Context, wr *Write) error {
	if !wr.C.Workflow || wr.effects != nil {
		return nil
	}
	restoring := wr.Action == ActionCreate && wr.RestoredFrom != 0
	if wr.Action != ActionDelete && !restoring {
		return nil
	}
	id := toString(wr.Rec["id"])
	if wr.Action == ActionDelete {
		id = toString(wr.Old["id"])
	}
	d, ok, err := s.loadDraft(ctx, wr.Caller.Scope, wr.C, id)
	if err != nil || !ok {
		return err
	}
	k := draftKey(wr.Caller.Scope, wr.C.Key, id)
	upd := s.st.Table.Update("PK", k.PK).Range("SK", k.SK).If("version = ?", d.Version)
	switch {
	case wr.Action == ActionDelete && !d.Trashed:
		upd.Set("trashed", true).Set("expiresAt", s.timeOf(wr).Add(TrashTTL).Unix()).Remove("GSI1PK", "GSI1SK", "GSI2PK", "GSI2SK")
	case restoring && d.Trashed:
		d.index(wr.Caller.Scope)
		upd.Remove("trashed", "expiresAt").Set("GSI1PK", d.GSI1PK).Set("GSI1SK", d.GSI1SK).Set("GSI2PK", d.GSI2PK).Set("GSI2SK", d.GSI2SK)
	default:
		return nil
	}
	wr.Also(upd, errDraftStale)
	return nil
}

// registerWorkflow declares the draft, review and comment routes of a workflow collection.
func (s *Service) registerWorkflow(mux api.Mux, path string, c *Collection) {
	d := path + "/{id}/draft"
	mux.Handle("POST "+path+"/draft", s.guard.Require(c.Permission("CREATE"), s.handler(c, s.newDraftRoute)))
	mux.Handle("GET "+d, s.guard.Require(c.Permission("VIEW"), s.handler(c, s.getDraftRoute)))
	mux.Handle("PUT "+d, s.guard.Require(c.Permission("EDIT"), s.handler(c, s.saveDraftRoute)))
	mux.Handle("DELETE "+d, s.guard.Require(c.Permission("EDIT"), s.handler(c, s.discardDraftRoute)))
	mux.Handle("POST "+d+"/submit", s.guard.Require(c.Permission("EDIT"), s.handler(c, s.stepRoute(stepSubmit))))
	mux.Handle("POST "+d+"/approve", s.guard.Require(c.Permission(ActionPublish), s.handler(c, s.stepRoute(stepApprove))))
	mux.Handle("POST "+d+"/request-changes", s.guard.Require(c.Permission(ActionPublish), s.handler(c, s.stepRoute(stepRequestChanges))))
	mux.Handle("POST "+d+"/publish", s.guard.Require(c.Permission("EDIT"), s.handler(c, s.publishRoute)))
	mux.Handle("GET "+path+"/{id}/comments", s.guard.Require(c.Permission("VIEW"), s.handler(c, s.listCommentsRoute)))
	mux.Handle("POST "+path+"/{id}/comments", s.guard.Require(c.Permission("VIEW"), s.handler(c, s.addCommentRoute)))
}

// draftFields reads a body's declared fields for a draft: converted and checked like a PATCH's
// (400s for bad values), as plain JSON values (a page's sections as sent).
func (s *Service) draftFields(scope store.Scope, c *Collection, in input) (map[string]any, error) {
	values, err := s.conv.values(scope, c, in, false)
	if err != nil {
		return nil, err
	}
	return plainJSON(values)
}

// plainJSON is v as JSON values (maps, lists, strings, float64s, bools).
func plainJSON(v map[string]any) (map[string]any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	out := map[string]any{}
	return out, json.Unmarshal(b, &out)
}

// liveFields are the declared fields of a live record as GET one shows them (a page with its
// sections): what a new draft of it starts from, and what the compare sets the draft against.
func (s *Service) liveFields(ctx context.Context, caller *auth.Caller, c *Collection, live Record) (Record, Record, error) {
	full, err := s.fullView(ctx, caller, c, live)
	if err != nil {
		return nil, nil, err
	}
	fields := Record{}
	for _, f := range c.Fields {
		if v, ok := full[f.Name]; ok && f.Type != TypePassword && !f.Derived && v != nil {
			fields[f.Name] = v
		}
	}
	if v := emptyAsNil(full[TranslationsField]); v != nil && c.Translatable() {
		fields[TranslationsField] = v
	}
	plain, err := plainJSON(fields)
	return full, plain, err
}

// mergeFields applies a save's fields to the draft's: a null or empty value clears the field.
func mergeFields(fields Record, values map[string]any) {
	for name, v := range values {
		if name == TranslationsField {
			patch, _ := v.(map[string]any)
			mergeTranslations(fields, patch)
			continue
		}
		if v == nil || v == "" {
			delete(fields, name)
			continue
		}
		fields[name] = v
	}
}

func (s *Service) encodeDraft(c *Collection, d *draftItem, fields Record) error {
	data, err := EncodeState(fields)
	if err != nil {
		return err
	}
	if len(data) > maxDraftBytes {
		return api.Errorf(http.StatusRequestEntityTooLarge, "This draft is too large to keep (%d KB compressed; at most %d KB). Shorten its longest texts or remove some of its sections.",
			len(data)/1000, maxDraftBytes/1000)
	}
	d.Data = data
	d.Title = titleOf(c, fields)
	return nil
}

func nowString(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

// stepTx is one transaction of a workflow step: the draft's own item first (its failed condition
// means conflict), then its audit entry, notification and mail.
type stepTx struct {
	tx       *dynamo.WriteTx
	conflict *api.Error
}

func (s *Service) newStepTx(own any, conflict *api.Error) *stepTx {
	t := &stepTx{tx: s.st.WriteTx(), conflict: conflict}
	store.AddToTx(t.tx, own)
	return t
}

func (t *stepTx) add(items ...any) { store.AddToTx(t.tx, items...) }

func (t *stepTx) run(ctx context.Context, what string) error {
	err := t.tx.Run(ctx)
	if store.CondFailedAt(err, 0) {
		return t.conflict
	}
	if dynamo.IsCondCheckFailed(err) {
		return api.ErrConflict
	}
	return store.Wrap(what, err)
}

func (s *Service) auditItem(caller *auth.Caller, at time.Time, action string, c *Collection, id string, changed []string) any {
	e := AuditEntry(caller, at, action, c.Key, id)
	e.Changed = changed
	return s.st.Table.Put(audit.Item(caller.Scope, e))
}

// newDraftRoute serves POST /{collection}/draft: a new record as a draft (no live record yet).
func (s *Service) newDraftRoute(w http.ResponseWriter, r *http.Request, c *Collection) error {
	in, err := decodeInput(r, c)
	if err != nil {
		return err
	}
	caller := auth.CallerFrom(r.Context())
	values, err := s.draftFields(caller.Scope, c, in)
	if err != nil {
		return err
	}
	fields := Record{}
	mergeFields(fields, values)
	if name, ok := c.Field(c.NameField); ok && fields[c.NameField] == nil {
		return api.FieldError(http.StatusBadRequest, name.Name, name.Label+" is required!")
	}
	now := s.now()
	at := nowString(now)
	id := ids.New()
	k := draftKey(caller.Scope, c.Key, id)
	d := &draftItem{PK: k.PK, SK: k.SK, Collection: c.Key, ID: id, Version: 1, State: DraftStateDraft, CreatedAt: at, UpdatedAt: at, Saves: 1}
	d.AuthorID, d.AuthorName = caller.User.ID, caller.User.Username
	d.UpdatedBy, d.UpdatedName = caller.User.ID, caller.User.Username
	d.addStep(DraftStateDraft, caller.User, at, "")
	if err := s.encodeDraft(c, d, fields); err != nil {
		return err
	}
	d.index(caller.Scope)
	t := s.newStepTx(s.st.Table.Put(d).If("attribute_not_exists(PK)"), errDraftExists)
	t.add(s.auditItem(caller, now, ActionDraftCreate, c, id, slices.Sorted(maps.Keys(fields))))
	if err := t.run(r.Context(), "create draft"); err != nil {
		return err
	}
	out, err := d.view(true)
	if err != nil {
		return err
	}
	return api.JSON(w, http.StatusCreated, api.Envelope{Result: out, Message: "Draft saved!"})
}

// draftAnswer is GET …/draft: the draft, the live record and the fields where they differ.
type draftAnswer struct {
	Draft   *Draft   `json:"draft"`
	Live    Record   `json:"live"`
	Changed []string `json:"changed"`
	// RequireReview is the Site settings' switch and MayPublish whether the caller may publish
	// this collection's drafts: the editor's buttons follow them (the caller may not read the settings).
	RequireReview bool `json:"requireReview"`
	MayPublish    bool `json:"mayPublish"`
}

func (s *Service) getDraftRoute(w http.ResponseWriter, r *http.Request, c *Collection) error {
	caller := auth.CallerFrom(r.Context())
	id := r.PathValue("id")
	d, found, err := s.loadDraft(r.Context(), caller.Scope, c, id)
	if err != nil {
		return err
	}
	live, err := s.liveOf(r.Context(), caller.Scope, c, id)
	if err != nil {
		return err
	}
	if found && (d.Trashed || (d.LiveVersion != 0 && live == nil)) {
		found = false
	}
	if !found && live == nil {
		return notFound(c)
	}
	out := draftAnswer{Changed: []string{}}
	if out.RequireReview, err = s.ReviewRequired(r.Context(), caller.Scope); err != nil {
		return err
	}
	out.MayPublish = caller.User.Can(c.Permission(ActionPublish)) || !out.RequireReview
	var liveFields Record
	if live != nil {
		out.Live, liveFields, err = s.liveFields(r.Context(), caller, c, live)
		if err != nil {
			return err
		}
	}
	if found {
		v, err := d.view(true)
		if err != nil {
			return err
		}
		out.Draft = &v
		out.Changed = changedBetween(c, liveFields, v.Fields)
	}
	return api.OK(w, out)
}

// changedBetween names the declared fields whose values differ between two field sets, in
// declaration order (the history's compare shows them field by field).
func changedBetween(c *Collection, a, b Record) []string {
	out := []string{}
	for _, f := range c.Fields {
		if f.Type == TypePassword || f.Derived {
			continue
		}
		if !sameJSON(a[f.Name], b[f.Name]) {
			out = append(out, f.Name)
		}
	}
	if c.Translatable() && !sameJSON(emptyAsNil(a[TranslationsField]), emptyAsNil(b[TranslationsField])) {
		out = append(out, TranslationsField)
	}
	return out
}

// emptyAsNil is v, or nil for an empty object (a record showing no translations as {}).
func emptyAsNil(v any) any {
	if m, ok := v.(map[string]any); ok && len(m) == 0 {
		return nil
	}
	return v
}

func sameJSON(a, b any) bool {
	if a == "" {
		a = nil
	}
	if b == "" {
		b = nil
	}
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	na, nb := normalJSON(a), normalJSON(b)
	return reflect.DeepEqual(na, nb)
}

func normalJSON(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return v
	}
	var out any
	_ = json.Unmarshal(b, &out)
	return out
}

// saveDraftRoute serves PUT …/draft: the draft's save (autosave), or the first save of a live
// record's draft (version 0 or none).
func (s *Service) saveDraftRoute(w http.ResponseWriter, r *http.Request, c *Collection) error {
	in, err := decodeInput(r, c)
	if err != nil {
		return err
	}
	caller := auth.CallerFrom(r.Context())
	id := r.PathValue("id")
	values, err := s.draftFields(caller.Scope, c, in)
	if err != nil {
		return err
	}
	d, found, err := s.loadDraft(r.Context(), caller.Scope, c, id)
	if err != nil {
		return err
	}
	if found && d.Trashed {
		return notFound(c)
	}
	want := 0
	if in.version != nil {
		want = *in.version
	}
	now := s.now()
	at := nowString(now)
	k := draftKey(caller.Scope, c.Key, id)
	var own any
	var first bool
	var fields Record
	var cancelDue bool
	switch {
	case !found && want != 0:
		return errDraftStale
	case !found:
		live, err := s.liveOf(r.Context(), caller.Scope, c, id)
		if err != nil {
			return err
		}
		if live == nil {
			return notFound(c)
		}
		if _, fields, err = s.liveFields(r.Context(), caller, c, live); err != nil {
			return err
		}
		first = true
		d = &draftItem{PK: k.PK, SK: k.SK, Collection: c.Key, ID: id, State: DraftStateDraft, CreatedAt: at,
			LiveVersion: toInt(live["version"]), AuthorID: caller.User.ID, AuthorName: caller.User.Username}
		d.addStep(DraftStateDraft, caller.User, at, "")
	case want != d.Version:
		return errDraftStale
	default:
		if fields, err = d.fields(); err != nil {
			return err
		}
		if d.State != DraftStateDraft {
			d.addStep(DraftStateDraft, caller.User, at, "")
			d.State = DraftStateDraft
		}
		cancelDue = d.PublishAt != ""
		d.PublishAt = ""
	}
	if len(values) == 0 {
		return errNothingToSave
	}
	mergeFields(fields, values)
	if err := s.encodeDraft(c, d, fields); err != nil {
		return err
	}
	d.Version++
	d.Saves++
	d.UpdatedAt, d.UpdatedBy, d.UpdatedName = at, caller.User.ID, caller.User.Username
	d.index(caller.Scope)
	if first {
		own = s.st.Table.Put(d).If("attribute_not_exists(PK)")
	} else {
		own = s.st.Table.Put(d).If("version = ? AND attribute_not_exists(trashed)", d.Version-1)
	}
	conflict := errDraftStale
	if first {
		conflict = errDraftExists
	}
	t := s.newStepTx(own, conflict)
	if first {
		t.add(s.auditItem(caller, now, ActionDraftCreate, c, id, slices.Sorted(maps.Keys(values))))
		// The live record it starts from must still be there (a delete racing the first save).
		lk := s.key(caller.Scope, c, id)
		t.add(s.st.Table.Check("PK", lk.PK).Range("SK", lk.SK).If("attribute_exists(PK)"))
	}
	if cancelDue {
		dk := draftDueKey(caller.Scope, c.Key, id)
		t.add(s.st.Table.Delete("PK", dk.PK).Range("SK", dk.SK))
	}
	if err := t.run(r.Context(), "save draft"); err != nil {
		return err
	}
	out, err := d.view(true)
	if err != nil {
		return err
	}
	return api.JSON(w, http.StatusOK, api.Envelope{Result: out, Message: "Draft saved!"})
}

// versionBody is the optional body of a step: the draft's version the screen holds (a stale one
// is a 409), a comment, a publishing time.
type versionBody struct {
	Version   *int   `json:"version"`
	Comment   string `json:"comment"`
	PublishAt string `json:"publishAt"`
}

func readStepBody(r *http.Request) (versionBody, error) {
	var b versionBody
	if err := api.DecodeOptional(r, &b); err != nil {
		return b, err
	}
	b.Comment = strings.TrimSpace(b.Comment)
	if utf8.RuneCountInString(b.Comment) > MaxCommentLength {
		return b, errCommentLength
	}
	return b, nil
}

// currentDraft loads the draft a step names, refusing a missing one (404) or a stale version (409).
func (s *Service) currentDraft(ctx context.Context, scope store.Scope, c *Collection, id string, b versionBody) (*draftItem, error) {
	d, found, err := s.loadDraft(ctx, scope, c, id)
	if err != nil {
		return nil, err
	}
	if !found || d.Trashed {
		return nil, errNoDraft
	}
	if b.Version != nil && *b.Version != d.Version {
		return nil, errDraftStale
	}
	return d, nil
}

func (s *Service) discardDraftRoute(w http.ResponseWriter, r *http.Request, c *Collection) error {
	b, err := readStepBody(r)
	if err != nil {
		return err
	}
	caller := auth.CallerFrom(r.Context())
	id := r.PathValue("id")
	d, err := s.currentDraft(r.Context(), caller.Scope, c, id, b)
	if err != nil {
		return err
	}
	k := draftKey(caller.Scope, c.Key, id)
	t := s.newStepTx(s.st.Table.Delete("PK", k.PK).Range("SK", k.SK).If("version = ?", d.Version), errDraftStale)
	t.add(s.auditItem(caller, s.now(), ActionDraftDiscard, c, id, nil))
	if d.PublishAt != "" {
		dk := draftDueKey(caller.Scope, c.Key, id)
		t.add(s.st.Table.Delete("PK", dk.PK).Range("SK", dk.SK))
	}
	if err := t.run(r.Context(), "discard draft"); err != nil {
		return err
	}
	return api.JSON(w, http.StatusOK, api.Envelope{Result: map[string]any{"id": id}, Message: "Draft discarded."})
}

// A review step: the states it starts from, the state it leads to, its audit action, and whom it
// tells.
type reviewStep struct {
	name, verb string
	from       []string
	to         string
	action     string
	reviewer   bool
	// comment is required (request changes).
	comment bool
}

var (
	stepSubmit = reviewStep{name: "submit", verb: "submitted for review", from: []string{DraftStateDraft, DraftStateChangesRequested},
		to: DraftStateInReview, action: ActionDraftSubmit}
	stepApprove = reviewStep{name: "approve", verb: "approved", from: []string{DraftStateInReview},
		to: DraftStateApproved, action: ActionDraftApprove, reviewer: true}
	stepRequestChanges = reviewStep{name: "request-changes", verb: "sent back for changes", from: []string{DraftStateInReview, DraftStateApproved},
		to: DraftStateChangesRequested, action: ActionDraftRequestChanges, reviewer: true, comment: true}
)

var stepMessages = map[string]string{
	"submit": "Draft submitted for review!", "approve": "Draft approved!", "request-changes": "Changes requested!",
}

func (s *Service) stepRoute(step reviewStep) collectionHandler {
	return func(w http.ResponseWriter, r *http.Request, c *Collection) error {
		b, err := readStepBody(r)
		if err != nil {
			return err
		}
		caller := auth.CallerFrom(r.Context())
		id := r.PathValue("id")
		d, err := s.currentDraft(r.Context(), caller.Scope, c, id, b)
		if err != nil {
			return err
		}
		if step.comment && b.Comment == "" {
			return errNeedsComment
		}
		if !slices.Contains(step.from, d.State) {
			return errState(step.verb, d.State)
		}
		if step.reviewer && !caller.User.Can(c.Permission(ActionPublish)) {
			return errNeedsPublishRight(c)
		}
		if step.name == stepApprove.name && d.AuthorID == caller.User.ID {
			required, err := s.ReviewRequired(r.Context(), caller.Scope)
			if err != nil {
				return err
			}
			if required {
				return errOwnApproval
			}
		}
		now := s.now()
		at := nowString(now)
		old := d.Version
		d.State = step.to
		d.Version++
		d.UpdatedAt = at
		d.addStep(step.to, caller.User, at, b.Comment)
		d.index(caller.Scope)
		t := s.newStepTx(s.st.Table.Put(d).If("version = ? AND attribute_not_exists(trashed)", old), errDraftStale)
		t.add(s.auditItem(caller, now, step.action, c, id, nil))
		if step.comment {
			t.add(s.commentItem(caller, c, id, b.Comment, now))
		}
		if err := s.tellAbout(r.Context(), t, caller, c, d, step.name, b.Comment, now); err != nil {
			return err
		}
		if err := t.run(r.Context(), step.name+" draft"); err != nil {
			return err
		}
		out, err := d.view(false)
		if err != nil {
			return err
		}
		return api.JSON(w, http.StatusOK, api.Envelope{Result: out, Message: stepMessages[step.name]})
	}
}

// draftsRoute serves GET /drafts?state=&collection=&limit=: a tenant's drafts (without their
// fields), newest first, bounded; only of collections whose records the caller may view.
func (s *Service) draftsRoute(w http.ResponseWriter, r *http.Request) error {
	caller := auth.CallerFrom(r.Context())
	q := r.URL.Query()
	state, kind := q.Get("state"), q.Get("collection")
	limit := defaultDraftList
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > maxDraftList {
			return api.FieldError(http.StatusBadRequest, "limit", fmt.Sprintf("limit must be a whole number from 1 to %d.", maxDraftList))
		}
		limit = n
	}
	switch state {
	case "", DraftStateDraft, DraftStateInReview, DraftStateApproved, DraftStateChangesRequested:
	default:
		return api.FieldError(http.StatusBadRequest, "state", "state must be draft, in_review, approved or changes_requested.")
	}
	if kind != "" {
		c := s.reg[kind]
		if c == nil || !c.Workflow {
			return api.FieldError(http.StatusBadRequest, "collection", fmt.Sprintf("%q has no drafts.", kind))
		}
		if !caller.User.Can(c.Permission("VIEW")) {
			return &api.Error{Status: http.StatusForbidden, Message: "You do not have permission to do this."}
		}
	}
	if state == "" && kind == "" {
		return api.FieldError(http.StatusBadRequest, "state", "Name a state or a collection.")
	}
	var items []draftItem
	var qy *dynamo.Query
	if state != "" {
		qy = s.st.Table.Get("GSI1PK", draftStatePartition(caller.Scope, state)).Index("GSI1")
		if kind != "" {
			qy = qy.Filter("collection = ?", kind)
		}
	} else {
		qy = s.st.Table.Get("GSI2PK", draftKindPartition(caller.Scope, kind)).Index("GSI2")
	}
	qy = qy.Project("id", "collection", "version", "state", "liveVersion", "title", "authorId", "authorName", "updatedBy", "updatedByName",
		"createdAt", "updatedAt", "saves", "publishAt", "steps")
	if err := qy.Order(dynamo.Descending).SearchLimit(maxDraftList).Limit(limit).All(r.Context(), &items); err != nil {
		return store.Wrap("drafts", err)
	}
	out := []Draft{}
	for i := range items {
		c := s.reg[items[i].Collection]
		if c == nil || !caller.User.Can(c.Permission("VIEW")) {
			continue
		}
		v, err := items[i].view(false)
		if err != nil {
			return err
		}
		out = append(out, v)
	}
	total := int64(len(out))
	return api.JSON(w, http.StatusOK, api.Envelope{Result: out, TotalCount: &total})
}

// refuseWithDraft refuses a plain edit (PATCH, a version's restore) of a workflow record that has
// a draft: the draft would be published over it.
func (s *Service) refuseWithDraft(ctx context.Context, wr *Write) error {
	if !wr.C.Workflow {
		return nil
	}
	d, found, err := s.loadDraft(ctx, wr.Caller.Scope, wr.C, toString(wr.Old["id"]))
	if err != nil {
		return err
	}
	if found && !d.Trashed {
		return errHasDraft(wr.C)
	}
	return nil
}

// DraftFields reads the declared fields of record id's draft, for a preview of the draft as the
// site would show it (found false without a draft, or with one in the trash).
func DraftFields(ctx context.Context, st *store.Store, scope store.Scope, kind, id string) (Record, bool, error) {
	if !ids.Valid(id) {
		return nil, false, nil
	}
	var d draftItem
	err := st.Get(ctx, draftKey(scope, kind, id), &d)
	if store.IsNotFound(err) || (err == nil && d.Trashed) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	f, err := d.fields()
	return f, err == nil, err
}
