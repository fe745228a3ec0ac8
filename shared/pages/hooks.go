// Package pages holds the rules of the pages collection (SPEC §3, §7): a unique slug per tenant
// kept by a marker item, and the page's sections, stored as items of their own beside the page
// and written in the same transaction as it. The generic collections engine serves /pages and
// calls these hooks; this package's Module serves /page-sections and /page-section-types.
package pages

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/guregu/dynamo/v2"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/auth"
	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/ids"
	"github.com/campuscms/panel/shared/store"
)

// Hooks returns the hooks this package implements, by the name collections.json declares; the
// content Lambda and the local server pass the same map to collections.Module.
func Hooks() map[string]collections.Hooks {
	return map[string]collections.Hooks{"pages": pageHooks{}}
}

// pageHooks are the rules of the pages collection.
type pageHooks struct{}

var (
	_ collections.Hooks       = pageHooks{}
	_ collections.Viewer      = pageHooks{}
	_ collections.Versioned   = pageHooks{}
	_ collections.WriteViewer = pageHooks{}

	errSlugTaken    = api.FieldError(http.StatusConflict, "slug", "Slug already in use!")
	errSlugRequired = api.FieldError(http.StatusBadRequest, "slug", "Slug is required!")
)

// pageWrite is what one write of a page knows of its sections (collections.Write.HookState), so
// that the write reads them once: BeforeWrite, the version it keeps (VersionState), the check
// that its own state can be kept (WrittenState) and its answer (ViewWritten) all use it.
type pageWrite struct {
	// before are the page's sections before the write (read is whether they are known yet).
	before []Section
	read   bool
	// after are its sections as the write leaves them, when it replaces them (replaced).
	after    []Section
	replaced bool
}

// pageWriteOf is the write's pageWrite, made on first use.
func pageWriteOf(w *collections.Write) *pageWrite {
	if p, ok := w.HookState.(*pageWrite); ok {
		return p
	}
	p := &pageWrite{}
	w.HookState = p
	return p
}

// sectionsBefore are the page's sections before the write: none for a create, else one Query
// (or none, when the /page-sections route that makes the write read them already: knownSections).
func (p *pageWrite) sectionsBefore(ctx context.Context, st *store.Store, w *collections.Write) ([]Section, error) {
	if p.read {
		return p.before, nil
	}
	if w.Old != nil {
		pageID, _ := w.Old["id"].(string)
		secs, ok := knownSections(ctx, pageID, w.Old["version"])
		if !ok {
			var err error
			if secs, err = loadSections(ctx, st, w.Caller.Scope, pageID); err != nil {
				return nil, err
			}
		}
		p.before = secs
	}
	p.read = true
	return p.before, nil
}

// sectionsAfter are the page's sections as the write leaves them.
func (p *pageWrite) sectionsAfter(ctx context.Context, st *store.Store, w *collections.Write) ([]Section, error) {
	if p.replaced {
		return p.after, nil
	}
	return p.sectionsBefore(ctx, st, w)
}

// BeforeWrite keeps the slug unique and, when the request carries pageSections, queues the
// section writes that make the stored sections equal the list.
func (pageHooks) BeforeWrite(ctx context.Context, s *collections.Service, w *collections.Write) error {
	st := s.Store()
	if err := slugRule(ctx, st, w); err != nil {
		return err
	}
	translatedSlugRule(st, w)
	raw, ok := w.Values["pageSections"].(json.RawMessage)
	delete(w.Values, "pageSections")
	if !ok || bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return nil
	}
	pageID, _ := w.Rec["id"].(string)
	p := pageWriteOf(w)
	existing, err := p.sectionsBefore(ctx, st, w)
	if err != nil {
		return err
	}
	return replaceSections(ctx, s, w, p, pageID, existing, raw)
}

// VersionState keeps a page's sections, as they are before the write, in the version it keeps
// (read once per write: pageWrite). A restore sends them back as pageSections.
func (pageHooks) VersionState(ctx context.Context, s *collections.Service, w *collections.Write) (map[string]any, error) {
	secs, err := pageWriteOf(w).sectionsBefore(ctx, s.Store(), w)
	if err != nil {
		return nil, err
	}
	return map[string]any{"pageSections": slices.Clone(secs)}, nil
}

// WrittenState is the page's sections as the write leaves them, as the next write's VersionState
// will keep them.
func (pageHooks) WrittenState(ctx context.Context, s *collections.Service, w *collections.Write) (map[string]any, error) {
	secs, err := pageWriteOf(w).sectionsAfter(ctx, s.Store(), w)
	if err != nil {
		return nil, err
	}
	return map[string]any{"pageSections": slices.Clone(secs)}, nil
}

// ViewWritten adds the page's sections as the write left them: the write's answer reads nothing
// back (its transaction was conditioned on the page's version, which every section write moves,
// so they are what is stored).
func (pageHooks) ViewWritten(ctx context.Context, s *collections.Service, w *collections.Write, out collections.Record) error {
	secs, err := pageWriteOf(w).sectionsAfter(ctx, s.Store(), w)
	if err != nil {
		return err
	}
	out["pageSections"] = sectionViews(secs)
	return nil
}

// sectionViews are sections as the API shows them.
func sectionViews(secs []Section) []sectionView {
	views := make([]sectionView, 0, len(secs))
	for _, sec := range secs {
		views = append(views, viewOf(sec))
	}
	return views
}

// slugRule gives a new page a free slug made from its title (or the slug it asks for) and checks
// a changed slug; the marker of the new slug goes into the page's transaction.
func slugRule(ctx context.Context, st *store.Store, w *collections.Write) error {
	scope := w.Caller.Scope
	pageID, _ := w.Rec["id"].(string)
	marker := func(slug string) *dynamo.Put {
		k := slugKey(scope, slug)
		return st.Table.Put(map[string]any{"PK": k.PK, "SK": k.SK, "pageId": pageID}).If("attribute_not_exists(PK)")
	}
	if w.Old == nil {
		base, _ := w.Values["slug"].(string)
		if base == "" {
			title, _ := w.Rec["title"].(string)
			base = Slugify(title)
		}
		slug, err := freeSlug(ctx, st, scope, base, w.Attempt)
		if err != nil {
			return err
		}
		w.Rec["slug"] = slug
		// Taken a moment ago by another create: the engine prepares the create again.
		w.Also(marker(slug), collections.ErrRetry)
		return nil
	}
	v, present := w.Values["slug"]
	if !present {
		return nil
	}
	slug, _ := v.(string)
	old, _ := w.Old["slug"].(string)
	switch {
	case slug == "":
		return errSlugRequired
	case slug == old:
		return nil
	}
	if w.RestoredFrom != 0 {
		// A restore brings back a slug another page may have taken since: the page then keeps
		// the one it has (or, with none, gets the next free one), and the restore says so.
		free, err := freeSlug(ctx, st, scope, slug, 0)
		if err != nil {
			return err
		}
		if free != slug && old != "" {
			w.Rec["slug"] = old
			return nil
		}
		slug = free
		w.Rec["slug"] = slug
	}
	w.Also(marker(slug), errSlugTaken)
	if old != "" {
		k := slugKey(scope, old)
		w.Also(st.Table.Delete("PK", k.PK).Range("SK", k.SK), nil)
	}
	return nil
}

// replaceSections plans the writes that turn existing into the requested list: new sections are
// created, listed ones replaced when they differ (or moved), unlisted ones deleted. The page's
// own version condition in the same transaction keeps it atomic against other section writes,
// which bump the page's version too.
func replaceSections(ctx context.Context, s *collections.Service, w *collections.Write, p *pageWrite, pageID string, existing []Section, raw json.RawMessage) error {
	st, scope := s.Store(), w.Caller.Scope
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	var ins []sectionInput
	if err := dec.Decode(&ins); err != nil {
		return api.FieldError(http.StatusBadRequest, "pageSections", "Page sections must be a list of sections: "+trimJSONErr(err)+".")
	}
	if len(ins) > MaxSections {
		return errTooManySections
	}
	byID := make(map[string]Section, len(existing))
	for _, sec := range existing {
		byID[sec.ID] = sec
	}
	now := time.Now().UTC().Format(time.RFC3339Nano)
	chk := newChecker(ctx, st, scope)
	chk.whole = w.RestoredFrom != 0
	chk.prev = byID
	kept := map[string]bool{}
	var writes, after []Section
	var fresh []bool
	for i, in := range ins {
		prefix := fmt.Sprintf("pageSections[%d].", i)
		var sec Section
		old, isOld := Section{}, false
		if in.ID != nil && *in.ID != "" {
			old, isOld = byID[*in.ID]
			switch {
			case !isOld && w.RestoredFrom != 0 && ids.Valid(*in.ID) && !kept[*in.ID]:
				// A restore brings back a section deleted since: made again under its own id.
				kept[*in.ID] = true
				sec = newSection(scope, pageID, *in.ID)
				sec.CreatedAt = now
			case !isOld || kept[*in.ID]:
				chk.fail(prefix+"id", "This section is not on this page (reload the page).")
				continue
			default:
				kept[old.ID] = true
				sec = newSection(scope, pageID, old.ID)
				sec.CreatedAt = old.CreatedAt
				sec.Translations = old.Translations // merged with what the entry sends
			}
		} else {
			sec = newSection(scope, pageID, ids.New())
			sec.CreatedAt = now
		}
		if in.PageID != nil && *in.PageID != "" && *in.PageID != pageID {
			chk.fail(prefix+"pageId", "This section belongs to another page.")
		}
		// The list is the page's whole section list: each entry replaces its section whole.
		chk.apply(prefix, in, &sec, true)
		sec.Position = i + 1
		sec.UpdatedAt = now
		if isOld && sameContent(sec, old) {
			after = append(after, old)
			continue
		}
		after = append(after, sec)
		writes = append(writes, sec)
		fresh = append(fresh, !isOld)
	}
	if err := chk.err(); err != nil {
		return err
	}
	if err := s.RequireLanguages(ctx, w, chk.langs); err != nil {
		return err
	}
	w.SetTextLanguages(sectionLanguages(after))
	// The forms the sections show count towards their number (LargestWrite); a page stored with
	// more before this rule may keep what it has.
	if n := weight(after); n > MaxSections && n > weight(existing) {
		return errTooManyWithForms
	}
	if err := s.MoveReferences(ctx, w, "pageSections", formsOf(existing), formsOf(after)); err != nil {
		return err
	}
	p.after, p.replaced = after, true
	for i, sec := range writes {
		put := st.Table.Put(sec)
		if fresh[i] {
			put.If("attribute_not_exists(PK)")
		}
		w.Also(put, nil)
	}
	deleted := 0
	for _, sec := range existing {
		if !kept[sec.ID] {
			w.Also(st.Table.Delete("PK", sec.PK).Range("SK", sec.SK), nil)
			deleted++
		}
	}
	if len(writes) > 0 || deleted > 0 {
		w.AlsoChanged = append(w.AlsoChanged, "pageSections")
	}
	return nil
}

// BeforeDelete deletes the page's sections and its slug marker with it, and takes the page off
// the reference counts of the forms they show.
func (pageHooks) BeforeDelete(ctx context.Context, s *collections.Service, w *collections.Write) error {
	st, scope := s.Store(), w.Caller.Scope
	secs, err := pageWriteOf(w).sectionsBefore(ctx, st, w)
	if err != nil {
		return err
	}
	if err := s.MoveReferences(ctx, w, "pageSections", formsOf(secs), nil); err != nil {
		return err
	}
	for _, sec := range secs {
		w.Also(st.Table.Delete("PK", sec.PK).Range("SK", sec.SK), nil)
	}
	if slug, _ := w.Old["slug"].(string); slug != "" {
		k := slugKey(scope, slug)
		w.Also(st.Table.Delete("PK", k.PK).Range("SK", k.SK), nil)
	}
	slugs := translatedSlugs(w.Old)
	for _, lang := range sortedKeys(slugs) {
		k := SlugKeyIn(scope, lang, slugs[lang])
		w.Also(st.Table.Delete("PK", k.PK).Range("SK", k.SK), nil)
	}
	return nil
}

// View adds the page's sections, ordered by position, each with its type.
func (pageHooks) View(ctx context.Context, s *collections.Service, caller *auth.Caller, rec, out collections.Record) error {
	pageID, _ := rec["id"].(string)
	secs, err := loadSections(ctx, s.Store(), caller.Scope, pageID)
	if err != nil {
		return err
	}
	out["pageSections"] = sectionViews(secs)
	return nil
}

func trimJSONErr(err error) string {
	msg := err.Error()
	if len(msg) > 5 && msg[:6] == "json: " {
		return msg[6:]
	}
	return msg
}
