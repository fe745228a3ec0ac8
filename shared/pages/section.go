package pages

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/formats"
	"github.com/campuscms/panel/shared/ids"
	"github.com/campuscms/panel/shared/lazyre"
	"github.com/campuscms/panel/shared/mediaref"
	"github.com/campuscms/panel/shared/store"
	"github.com/campuscms/panel/shared/words"
)

// Bounds that keep one page's reads and writes bounded: a page's sections are read in one query
// and replaced in one transaction (see LargestWrite).
const (
	MaxSections = 38
	MaxItems    = 50
	maxConfig   = 100_000
	maxTitle    = 200
	maxSubTitle = 500
	maxDesc     = 5_000
	maxCtaText  = 100
	maxURL      = 2_000
)

// LargestWrite is the most items one write of a page puts in its transaction, the largest write
// there is: a save (or the restore that undoes it) that replaces all MaxSections sections by new
// ones (38 puts + 38 deletes), renames the page (words.MaxWords index entries put and as many
// deleted: 14), moves its slug (the new marker put, the old one deleted: 2) and its publishAt
// (its due item, one item at a stable key: 1), with the page itself, the version it replaces and
// its audit entry (3), its accessibility findings' entry and their counter (a11ycheck.Observe: 2)
// and, when the write publishes a draft, the draft's removal (1). DynamoDB takes at most 100
// (store.MaxTransactionItems); a test adds it up and measures it. The forms a page's sections
// show count towards MaxSections, one each however many sections show it (weight): a save moves
// the reference count of each form it starts or stops showing (collections.Service.MoveReferences),
// so sections and forms together are at most 38 on each side of the largest write.
const LargestWrite = 2*MaxSections + 2*words.MaxWords + 2 + 1 + 3 + AccessibilityItems + DraftItems

// AccessibilityItems and DraftItems are LargestWrite's items a save adds only sometimes: the
// findings' entry and counter (when the findings or their count change), a draft's removal (when
// the save publishes it).
const (
	AccessibilityItems = 2
	DraftItems         = 1
)

// DefaultSectionTitle is a new section's title when none is given (SPEC §9).
const DefaultSectionTitle = "Section"

var (
	itemIDPattern = lazyre.New(`^[A-Za-z0-9_-]{1,40}$`)
	embedTypes    = []string{"YOUTUBE", "VIMEO", "GOOGLE_MAP", "VIDEO", "OTHER"}
)

// Section is a stored page section: partition T#{t}#PAGE#{pageId}, sort key SEC#{id}; GSI1 finds
// it by id alone (PATCH and DELETE /page-sections/{id} name no page).
type Section struct {
	PK                string `dynamo:"PK" json:"-"`
	SK                string `dynamo:"SK" json:"-"`
	GSI1PK            string `dynamo:"GSI1PK" json:"-"`
	GSI1SK            string `dynamo:"GSI1SK" json:"-"`
	ID                string `dynamo:"id" json:"id"`
	PageID            string `dynamo:"pageId" json:"pageId"`
	Title             string `dynamo:"title" json:"title"`
	SubTitle          string `dynamo:"subTitle,omitempty" json:"subTitle"`
	BackgroundColor   string `dynamo:"backgroundColor,omitempty" json:"backgroundColor"`
	FontColor         string `dynamo:"fontColor,omitempty" json:"fontColor"`
	PageSectionTypeID string `dynamo:"pageSectionTypeId" json:"pageSectionTypeId"`
	Status            bool   `dynamo:"status" json:"status"`
	// Config is JSON text: the section's ordered items (SPEC §3).
	Config string `dynamo:"config" json:"config"`
	// Translations is JSON text: the section's texts in other languages (sectiontr.go).
	Translations string `dynamo:"translations,omitempty" json:"translations,omitempty"`
	Position     int    `dynamo:"position" json:"position"`
	CreatedAt    string `dynamo:"createdAt" json:"createdAt"`
	UpdatedAt    string `dynamo:"updatedAt" json:"updatedAt"`
}

// sameContent reports whether two sections would be stored alike (times aside).
func sameContent(a, b Section) bool {
	a.CreatedAt, a.UpdatedAt, b.CreatedAt, b.UpdatedAt = "", "", "", ""
	return a == b
}

// sectionView is a section as the API shows it, with its type.
type sectionView struct {
	Section
	PageSectionType *SectionType `json:"pageSectionType"`
	// PageVersion is the page's version after a write through /page-sections, which bumps it.
	PageVersion int `json:"pageVersion,omitempty"`
	// Translations are the section's translations as an object (Section.Translations is text).
	Translations map[string]SectionTexts `json:"translations,omitempty"`
}

func viewOf(s Section) sectionView {
	v := sectionView{Section: s}
	if tr := TranslationsOf(s); len(tr) > 0 {
		v.Translations = tr
	}
	if t, ok := typeByID(s.PageSectionTypeID); ok {
		v.PageSectionType = &t
	}
	return v
}

// sectionInput is a section in a request. Pointers tell absent from empty on PATCH; the
// read-only fields a client echoes back from GET are accepted and ignored.
type sectionInput struct {
	ID                *string         `json:"id"`
	Title             *string         `json:"title"`
	SubTitle          *string         `json:"subTitle"`
	BackgroundColor   *string         `json:"backgroundColor"`
	FontColor         *string         `json:"fontColor"`
	PageID            *string         `json:"pageId"`
	PageSectionTypeID *string         `json:"pageSectionTypeId"`
	Status            json.RawMessage `json:"status"`
	Config            json.RawMessage `json:"config"`
	Position          json.RawMessage `json:"position"`
	Translations      json.RawMessage `json:"translations"`

	PageSectionType json.RawMessage `json:"pageSectionType"`
	PageVersion     json.RawMessage `json:"pageVersion"`
	CreatedAt       json.RawMessage `json:"createdAt"`
	UpdatedAt       json.RawMessage `json:"updatedAt"`
}

// configItem is one stored item of a section's config; the type-specific fields are kept only
// on their type.
type configItem struct {
	ID           string `json:"id"`
	Image        string `json:"image"`
	Title        string `json:"title"`
	SubTitle     string `json:"subTitle"`
	Description  string `json:"description"`
	CtaText      string `json:"ctaText"`
	CtaURL       string `json:"ctaUrl"`
	Position     int    `json:"position"`
	TextPosition string `json:"textPosition,omitempty"`
	EmbedURL     string `json:"embedUrl,omitempty"`
	EmbedType    string `json:"embedType,omitempty"`
	FormID       string `json:"formId,omitempty"`
}

type configItemInput struct {
	ID           json.RawMessage `json:"id"`
	Image        string          `json:"image"`
	Title        string          `json:"title"`
	SubTitle     string          `json:"subTitle"`
	Description  string          `json:"description"`
	CtaText      string          `json:"ctaText"`
	CtaURL       string          `json:"ctaUrl"`
	Position     json.RawMessage `json:"position"`
	TextPosition string          `json:"textPosition"`
	EmbedURL     string          `json:"embedUrl"`
	EmbedType    string          `json:"embedType"`
	FormID       string          `json:"formId"`
}

// checker validates sections of one tenant; it reads forms to check a form section's choice.
type checker struct {
	ctx   context.Context
	st    *store.Store
	scope store.Scope
	errs  map[string]string
	order []string
	forms map[string]bool
	// langs are the languages whose texts the sections checked change (code → error key), and
	// whole says translations sent replace the sections' own (a restore).
	langs map[string]string
	whole bool
	// prev are the sections as stored before the write, by id (their default texts tell which
	// translations a changed default text leaves outdated).
	prev map[string]Section
	// fault is a failed read (not the user's input); it wins over field errors.
	fault error
}

func newChecker(ctx context.Context, st *store.Store, scope store.Scope) *checker {
	return &checker{ctx: ctx, st: st, scope: scope, errs: map[string]string{}, forms: map[string]bool{}, langs: map[string]string{}}
}

func (c *checker) fail(field, msg string) {
	if _, ok := c.errs[field]; !ok {
		c.errs[field] = msg
		c.order = append(c.order, field)
	}
}

// err is the 400 of every failed check, or nil.
func (c *checker) err() error {
	if c.fault != nil {
		return c.fault
	}
	if len(c.errs) == 0 {
		return nil
	}
	return api.BadRequest(c.errs, c.order...)
}

// apply sets sec's fields from in. With fresh (a new section, or one a page save replaces
// whole) an absent field takes its default; otherwise it keeps its value. prefix names the
// section in field errors ("pageSections[2].").
func (c *checker) apply(prefix string, in sectionInput, sec *Section, fresh bool) {
	prev, known := c.prev[sec.ID]
	if !known {
		prev = *sec
	}
	str := func(p *string, cur string) string {
		if p == nil {
			if fresh {
				return ""
			}
			return cur
		}
		return strings.TrimSpace(*p)
	}
	typeChanged := in.PageSectionTypeID != nil && strings.TrimSpace(*in.PageSectionTypeID) != sec.PageSectionTypeID
	if in.PageSectionTypeID != nil || fresh {
		sec.PageSectionTypeID = str(in.PageSectionTypeID, sec.PageSectionTypeID)
	}
	typ, ok := typeByID(sec.PageSectionTypeID)
	if !ok {
		c.fail(prefix+"pageSectionTypeId", "Please select section type")
	}
	sec.Title = str(in.Title, sec.Title)
	if sec.Title == "" {
		sec.Title = DefaultSectionTitle
	}
	c.maxLen(prefix+"title", "Title", sec.Title, maxTitle)
	sec.SubTitle = str(in.SubTitle, sec.SubTitle)
	c.maxLen(prefix+"subTitle", "Sub-title", sec.SubTitle, maxSubTitle)
	sec.BackgroundColor = c.colour(prefix+"backgroundColor", "Background colour", str(in.BackgroundColor, sec.BackgroundColor))
	sec.FontColor = c.colour(prefix+"fontColor", "Font colour", str(in.FontColor, sec.FontColor))
	switch {
	case len(in.Status) > 0:
		b, ok := api.ParseBool(in.Status)
		if !ok {
			c.fail(prefix+"status", "Status must be true or false.")
		}
		sec.Status = b
	case fresh:
		sec.Status = true
	}
	if !ok {
		return
	}
	raw := in.Config
	if len(raw) == 0 && !fresh && !typeChanged {
		c.translations(prefix, in.Translations, prev, sec, c.whole)
		return
	}
	if len(raw) == 0 && !fresh {
		raw, _ = json.Marshal(sec.Config) // the stored items, checked against the new type
	}
	sec.Config = c.config(prefix+"config", typ, raw)
	c.translations(prefix, in.Translations, prev, sec, c.whole)
}

func (c *checker) maxLen(field, label, s string, limit int) {
	if len(s) > limit {
		c.fail(field, fmt.Sprintf("%s must be at most %d characters.", label, limit))
	}
}

func (c *checker) colour(field, label, s string) string {
	s = strings.ToLower(s)
	if s != "" && !formats.Color(s) {
		c.fail(field, label+" must be a colour like #1a2b3c or #abc.")
	}
	return s
}

// config checks a section's items for its type and returns them as stored JSON text. The list's
// order is the items' order; positions are renumbered 1..n.
func (c *checker) config(field string, typ SectionType, raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	var text string
	if json.Unmarshal(raw, &text) == nil {
		raw = []byte(strings.TrimSpace(text)) // JSON sent as text, as SPEC's config is
	}
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		raw = []byte("[]")
	}
	if len(raw) > maxConfig {
		c.fail(field, fmt.Sprintf("Section content is too large (at most %d KB).", maxConfig/1000))
		return ""
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	var ins []configItemInput
	if err := dec.Decode(&ins); err != nil {
		c.fail(field, "Section content must be a list of items: "+strings.TrimPrefix(err.Error(), "json: ")+".")
		return ""
	}
	switch {
	case typ.ConfigContainsMultipleItems && len(ins) > MaxItems:
		c.fail(field, fmt.Sprintf("A %s section holds at most %d items.", typ.Name, MaxItems))
		return ""
	case !typ.ConfigContainsMultipleItems && len(ins) > 1:
		c.fail(field, fmt.Sprintf("A %s section holds at most one item.", typ.Name))
		return ""
	}
	items := make([]configItem, 0, len(ins))
	for i, in := range ins {
		items = append(items, c.item(fmt.Sprintf("%s[%d].", field, i), typ, in, i+1))
	}
	out, _ := json.Marshal(items)
	return string(out)
}

func (c *checker) item(prefix string, typ SectionType, in configItemInput, pos int) configItem {
	it := configItem{
		ID: c.itemID(prefix+"id", in.ID), Title: strings.TrimSpace(in.Title), SubTitle: strings.TrimSpace(in.SubTitle),
		Description: strings.TrimSpace(in.Description), CtaText: strings.TrimSpace(in.CtaText), Position: pos,
	}
	c.maxLen(prefix+"title", "Title", it.Title, maxTitle)
	c.maxLen(prefix+"subTitle", "Sub-title", it.SubTitle, maxSubTitle)
	c.maxLen(prefix+"description", "Description", it.Description, maxDesc)
	c.maxLen(prefix+"ctaText", "Button text", it.CtaText, maxCtaText)
	if img := strings.TrimSpace(in.Image); img != "" {
		ref, err := mediaref.Normalize(c.scope, img)
		if err != nil {
			c.fail(prefix+"image", "Image must be a file from this institution's media library.")
		}
		it.Image = ref
	}
	if u := strings.TrimSpace(in.CtaURL); u != "" {
		if msg := linkURL(u, "Button link"); msg != "" {
			c.fail(prefix+"ctaUrl", msg)
		}
		it.CtaURL = u
	}
	switch typ.Slug {
	case TypeTextImage:
		it.TextPosition = strings.ToUpper(strings.TrimSpace(in.TextPosition))
		if it.TextPosition == "" {
			it.TextPosition = "LEFT"
		}
		if it.TextPosition != "LEFT" && it.TextPosition != "RIGHT" {
			c.fail(prefix+"textPosition", "Text position must be LEFT or RIGHT.")
		}
	case TypeEmbed:
		it.EmbedURL = strings.TrimSpace(in.EmbedURL)
		if msg := embedURL(it.EmbedURL); msg != "" {
			c.fail(prefix+"embedUrl", msg)
		}
		it.EmbedType = strings.ToUpper(strings.TrimSpace(in.EmbedType))
		if it.EmbedType == "" {
			it.EmbedType = "OTHER"
		}
		if !contains(embedTypes, it.EmbedType) {
			c.fail(prefix+"embedType", "Embed type must be one of: "+strings.Join(embedTypes, ", ")+".")
		}
	case TypeForm:
		it.FormID = strings.TrimSpace(in.FormID)
		if msg := c.formExists(it.FormID); msg != "" {
			c.fail(prefix+"formId", msg)
		}
	}
	return it
}

// itemID keeps a client's item id (text or a number) or gives the item a new one.
func (c *checker) itemID(field string, raw json.RawMessage) string {
	var v any
	if len(raw) == 0 || json.Unmarshal(raw, &v) != nil || v == nil || v == "" {
		return ids.New()
	}
	var s string
	switch x := v.(type) {
	case string:
		s = x
	case float64:
		s = strconv.FormatFloat(x, 'f', -1, 64)
	}
	if !itemIDPattern().MatchString(s) {
		c.fail(field, "Item id may hold only letters, digits, '-' and '_' (at most 40).")
	}
	return s
}

// formExists checks that a form section names a form of the caller's tenant.
func (c *checker) formExists(id string) string {
	if id == "" {
		return "Please select a form."
	}
	if ok, seen := c.forms[id]; seen {
		return map[bool]string{true: "", false: "Form not found!"}[ok]
	}
	ok := ids.Valid(id)
	if ok {
		var rec map[string]any
		err := c.st.Get(c.ctx, store.Key{PK: c.scope.Collection("custom-forms"), SK: id}, &rec)
		switch {
		case store.IsNotFound(err):
			ok = false
		case err != nil:
			c.fault = err
			return ""
		}
	}
	c.forms[id] = ok
	if !ok {
		return "Form not found!"
	}
	return ""
}

// formsOf are the forms sections show, each once, in the order the sections show them first.
func formsOf(secs []Section) []string {
	var out []string
	for _, sec := range secs {
		if t, ok := typeByID(sec.PageSectionTypeID); !ok || t.Slug != TypeForm {
			continue
		}
		var items []configItem
		if json.Unmarshal([]byte(sec.Config), &items) != nil {
			continue
		}
		for _, it := range items {
			if it.FormID != "" && !slices.Contains(out, it.FormID) {
				out = append(out, it.FormID)
			}
		}
	}
	return out
}

// weight is what sections count towards MaxSections: each section, and each form they show.
func weight(secs []Section) int { return len(secs) + len(formsOf(secs)) }

// linkURL accepts an http(s) address, a site path (/about) or an anchor (#contact); never
// javascript: or data:.
func linkURL(s, label string) string {
	if len(s) > maxURL {
		return fmt.Sprintf("%s must be at most %d characters.", label, maxURL)
	}
	if (strings.HasPrefix(s, "/") && !strings.HasPrefix(s, "//")) || strings.HasPrefix(s, "#") {
		return ""
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return label + " must start with http:// or https://, or be a path starting with /."
	}
	return ""
}

// embedURL accepts only https addresses: the website frames them.
func embedURL(s string) string {
	if s == "" {
		return "Embed URL is required!"
	}
	if len(s) > maxURL {
		return fmt.Sprintf("Embed URL must be at most %d characters.", maxURL)
	}
	u, err := url.Parse(s)
	if err != nil || u.Scheme != "https" || u.Host == "" {
		return "Embed URL must be an https:// address."
	}
	return ""
}

// parsePosition reads an optional 1-based position (a number or numeric text); 0 when absent.
func parsePosition(raw json.RawMessage) (int, error) {
	var v any
	if len(raw) == 0 || json.Unmarshal(raw, &v) != nil || v == nil || v == "" {
		return 0, nil
	}
	var n float64
	switch x := v.(type) {
	case float64:
		n = x
	case string:
		f, err := strconv.ParseFloat(strings.TrimSpace(x), 64)
		if err != nil {
			return 0, api.FieldError(http.StatusBadRequest, "position", "Position must be a whole number from 1.")
		}
		n = f
	}
	if n < 1 || n != float64(int(n)) || n > 1e6 {
		return 0, api.FieldError(http.StatusBadRequest, "position", "Position must be a whole number from 1.")
	}
	return int(n), nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
