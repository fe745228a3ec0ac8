// Package collections is the engine behind the generic list/CRUD collections of SPEC §2: each
// collection is one declaration in collections.json (fields, labels, types, required markers,
// permission category), read by these handlers and by the SPA's one generic screen.
package collections

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"sort"
	"sync"

	"github.com/campuscms/panel/shared/compiled"
)

//go:embed collections.json
var declarationsJSON []byte

// Field types.
const (
	TypeText     = "text"
	TypeLongText = "longtext"
	TypeRichText = "richtext"
	TypeNumber   = "number"
	TypeDate     = "date"
	// TypeDateTime is an instant: RFC 3339 with an offset in, stored as RFC 3339 UTC to the second.
	TypeDateTime    = "datetime"
	TypeBoolean     = "boolean"
	TypeSelect      = "select"
	TypeReference   = "reference"
	TypeImage       = "image"
	TypeFile        = "file"
	TypeEmail       = "email"
	TypeURL         = "url"
	TypePassword    = "password"
	TypePermissions = "permissions"
	TypeJSON        = "json"
	TypeColor       = "color"
	// TypeEmails is a short list of email addresses (a form's notification addresses): a JSON
	// list of strings (or one string of addresses separated by commas, semicolons or line
	// breaks), each a bare address mail can be sent to (mail.ValidAddress), at most MaxEmails,
	// stored lower-cased without repeats, in the order given.
	TypeEmails = "emails"
	// TypeLanguages is a list of language codes from the catalogue (shared/langs): a JSON list of
	// codes, each known, without repeats, at most langs.MaxOthers (the site's other languages).
	TypeLanguages = "languages"
)

// MaxEmails is the most addresses an emails field holds: each is one mail written in the
// transaction of what causes it, so the list is bounded like every other part of a write.
const MaxEmails = 10

// FormatSlug makes a text field a URL slug: lowercase ASCII letters, digits and hyphens, 1 to 100.
const FormatSlug = "slug"

// FormatHTTPS makes a url field accept only an absolute https:// address (a social media page).
const FormatHTTPS = "https"

// FormatTel makes a text field a phone number (formats.Phone); the panel offers the phone keyboard.
const FormatTel = "tel"

// FormatTimeZone makes a text field an IANA time zone name ("Europe/London") that the time zone
// database knows (formats.TimeZone); empty means UTC.
const FormatTimeZone = "timezone"

// FormatLanguage makes a text field a language code from the catalogue (shared/langs): a site's
// default language.
const FormatLanguage = "language"

// Field is one declared field of a collection.
type Field struct {
	Name     string   `json:"name"`
	Label    string   `json:"label"`
	Type     string   `json:"type"`
	Required bool     `json:"required"`
	List     bool     `json:"list"`
	Options  []string `json:"options"`
	// Ref names the collection a reference field refers to; on a transient field, the collection
	// whose records the hooks' items refer to (a page's sections show forms), whose reference
	// counts the hooks move with Service.MoveReferences. Either way a referenced record is not
	// deleted while a record refers to it (refCount).
	Ref     string `json:"ref"`
	Default any    `json:"default"`
	Format  string `json:"format"`
	// MaxBytes replaces the type's default size cap: a text or longtext field's length (custom
	// CSS), a richtext field's size once sanitised (413 past it), a json field's text (400 past it).
	MaxBytes int `json:"maxBytes"`
	// Transient fields are accepted in writes and handed to the collection's hooks in
	// Write.Values as the request's raw JSON (json.RawMessage); the engine never stores or
	// shows them (a page's pageSections, which its hooks write as items of their own).
	Transient bool `json:"transient"`
	// DetailOnly fields are shown by GET one only and left out of lists (large text).
	DetailOnly bool `json:"detailOnly"`
	// After names a datetime field this datetime field must be later than, when a write gives
	// both (unpublishAt after publishAt).
	After string `json:"after"`
	// Derived fields are worked out by the engine on every write (a scheduled collection's
	// schedule state, schedule.go): shown and listed, never taken from a write (ignored like id).
	Derived bool `json:"derived"`
	// SizeOf makes a derived number field the size in bytes of the media library file that the
	// named image or file field refers to: the engine reads it from the file's media record on
	// every write that sets the file (filesize.go), so it is never typed in and cannot be wrong.
	SizeOf string `json:"sizeOf"`
	// AllWhen makes a permissions field read as every permission while the named boolean field
	// is true (an administrator, who passes every check): the SPA shows them all held.
	AllWhen string `json:"allWhen"`
	// Translatable text, longtext and richtext fields hold a value per language of the site: the
	// default language's in the field, the others' in the record's translations (translations.go).
	Translatable bool `json:"translatable"`
}

// Collection is one declared collection; Key is its path segment ("faqs").
type Collection struct {
	Key         string `json:"-"`
	Title       string `json:"title"`
	TitlePlural string `json:"titlePlural"`
	Category    string `json:"category"`
	NameField   string `json:"nameField"`
	DefaultSort string `json:"defaultSort"`
	// Hooks names the Go rules of the collection (hooks.go), if it has any.
	Hooks string `json:"hooks"`
	// Singleton, when set, makes the collection one record per tenant (header, footer, SEO
	// defaults) stored in the tenant's root partition under this sort key, served at GET and
	// PATCH /{key} and /{key}/{id} (singleton.go). Its id is the tenant id.
	Singleton string `json:"singleton"`
	// SavedMessage replaces '{title} updated successfully!' after a save (SPEC §8's own texts).
	SavedMessage string `json:"savedMessage"`
	// FailedMessage is the SPA's fallback toast when a save fails without a server message.
	FailedMessage string `json:"failedMessage"`
	// Facet, when named, is the subset of records kept in a sparse index with its own counter
	// (unread notifications): a list asking ?{field}={value} reads it alone, and every list
	// answer carries its size as facetCount.
	Facet Facet `json:"facet"`
	// Scheduled collections declare publishAt and unpublishAt (datetime) and the derived select
	// schedule (scheduled, live, expired): public reads show a record only inside its window, and
	// the engine keeps the stored state and a due item for the schedule job (schedule.go).
	Scheduled bool `json:"scheduled"`
	// Workflow collections keep a draft beside each live record (workflow.go): edits go to the
	// draft, which is reviewed and published into the live record in one transaction; a new
	// record starts as a draft. Their category gains the PUBLISH permission.
	Workflow bool `json:"workflow"`
	// OnSite collections are shown on the website (pages, their lists, the header and footer):
	// the accessibility checker reads their records on every save, and the editor as staff type.
	OnSite bool `json:"onSite"`
	// Search names the fields a list's search finds records by, word by word (words.go); the
	// name field when not declared.
	Search []string `json:"search"`
	Fields []Field  `json:"fields"`
	// ReferencedBy lists the (collection, field) pairs whose references point here: reference
	// fields, and transient fields declaring ref (a page's sections showing a form).
	ReferencedBy []Backref `json:"-"`
}

// Facet is the records whose Field holds Value (an absent field counts as its default). Name
// is part of the facet's index keys and counter name.
type Facet struct {
	Name  string `json:"name"`
	Field string `json:"field"`
	Value any    `json:"value"`
}

// Backref is a reference field of another collection that points at this one.
type Backref struct{ Collection, Field string }

// Field returns the declared field by name.
func (c *Collection) Field(name string) (Field, bool) {
	for _, f := range c.Fields {
		if f.Name == name {
			return f, true
		}
	}
	return Field{}, false
}

// hasField reports whether the collection declares a field of this name and type.
func (c *Collection) hasField(name, typ string) bool {
	f, ok := c.Field(name)
	return ok && f.Type == typ
}

func (c *Collection) requires(name string) bool {
	f, ok := c.Field(name)
	return ok && f.Required
}

// Permission returns the code CMS_{action}_{category}.
func (c *Collection) Permission(action string) string { return "CMS_" + action + "_" + c.Category }

// Registry is every declared collection, by key.
type Registry map[string]*Collection

var knownTypes = map[string]bool{TypeText: true, TypeLongText: true, TypeRichText: true, TypeNumber: true, TypeDate: true, TypeDateTime: true,
	TypeBoolean: true, TypeSelect: true, TypeReference: true, TypeImage: true, TypeFile: true, TypeEmail: true, TypeURL: true,
	TypePassword: true, TypePermissions: true, TypeJSON: true, TypeColor: true, TypeEmails: true, TypeLanguages: true}

//go:generate go run ./gen

// Load returns the declarations, built once per process (a group's start-up, the public API,
// tenant creation and the tests all read them). The Registry is shared: read it, never modify it.
// It is built from their compiled copy (declarations_gen.go, shared/compiled) when that was
// generated from the embedded collections.json, and parsed from the JSON otherwise: parsing costs
// a cold start about 0.5 ms, building the compiled copy a few microseconds.
var Load = sync.OnceValues(func() (Registry, error) {
	if reg, ok := compiledDeclarations.From(declarationsJSON); ok {
		return reg, nil
	}
	return Parse()
})

// compiledDeclarations are the declarations as Go, written by go generate (gen/main.go: the
// Registry holds pointers, which shared/compiled/generate does not write) into
// declarations_gen.go; a copy left stale by an edit of collections.json is ignored (and
// TestCompiledDeclarationsAreCurrent fails).
var compiledDeclarations compiled.Copy[Registry]

// Parse parses the embedded declarations and checks them: known types, references to declared
// collections, options on selects, a name field that exists. Back-references are listed in key
// order.
func Parse() (Registry, error) { return parse(declarationsJSON) }

func parse(raw []byte) (Registry, error) {
	var reg Registry
	if err := json.Unmarshal(raw, &reg); err != nil {
		return nil, fmt.Errorf("collections: parse collections.json: %w", err)
	}
	for _, key := range reg.Keys() {
		c := reg[key]
		c.Key = key
		if _, ok := c.Field(c.NameField); !ok && c.Singleton == "" {
			return nil, fmt.Errorf("collections: %s: nameField %q is not a field", key, c.NameField)
		}
		for _, name := range c.Search {
			if f, ok := c.Field(name); !ok || f.Type == TypePassword {
				return nil, fmt.Errorf("collections: %s: search field %q is not a field that can be searched", key, name)
			}
		}
		if f := c.Facet; f.Name != "" || f.Field != "" {
			if _, ok := c.Field(f.Field); !ok || f.Name == "" || c.Singleton != "" {
				return nil, fmt.Errorf("collections: %s: a facet needs a name and one of the collection's fields", key)
			}
		}
		if err := checkScheduled(c); err != nil {
			return nil, err
		}
		if c.Workflow && c.Singleton != "" {
			return nil, fmt.Errorf("collections: %s: a singleton cannot have a workflow (drafts are kept per record)", key)
		}
		for _, f := range c.Fields {
			switch {
			case !knownTypes[f.Type]:
				return nil, fmt.Errorf("collections: %s.%s: unknown type %q", key, f.Name, f.Type)
			case f.Type == TypeSelect && len(f.Options) == 0:
				return nil, fmt.Errorf("collections: %s.%s: select without options", key, f.Name)
			case f.Type == TypeReference && reg[f.Ref] == nil,
				f.Ref != "" && (reg[f.Ref] == nil || reg[f.Ref].Singleton != ""):
				return nil, fmt.Errorf("collections: %s.%s: reference to an unknown or singleton collection %q", key, f.Name, f.Ref)
			case f.Ref != "" && f.Type != TypeReference && !f.Transient:
				return nil, fmt.Errorf("collections: %s.%s: ref is for reference fields and transient fields whose hooks keep references", key, f.Name)
			case f.Transient && c.Hooks == "":
				return nil, fmt.Errorf("collections: %s.%s: a transient field needs hooks to handle it", key, f.Name)
			case (f.Format == FormatSlug || f.Format == FormatTel || f.Format == FormatTimeZone || f.Format == FormatLanguage) && f.Type != TypeText:
				return nil, fmt.Errorf("collections: %s.%s: format %s is for text fields", key, f.Name, f.Format)
			case f.After != "" && (f.Type != TypeDateTime || !c.hasField(f.After, TypeDateTime)):
				return nil, fmt.Errorf("collections: %s.%s: after names a datetime field of a datetime field", key, f.Name)
			case f.Derived && f.Required:
				return nil, fmt.Errorf("collections: %s.%s: a derived field cannot be required", key, f.Name)
			case f.Format == FormatHTTPS && f.Type != TypeURL:
				return nil, fmt.Errorf("collections: %s.%s: format https is for url fields", key, f.Name)
			case f.SizeOf != "" && (f.Type != TypeNumber || !f.Derived || !(c.hasField(f.SizeOf, TypeImage) || c.hasField(f.SizeOf, TypeFile))):
				return nil, fmt.Errorf("collections: %s.%s: sizeOf makes a derived number field the size of an image or file field", key, f.Name)
			case f.SizeOf != "" && !c.requires(f.SizeOf):
				// A size derived from a file is only filled in when there is a file (SPEC: File Size is required).
				return nil, fmt.Errorf("collections: %s.%s: sizeOf names a field that must be required", key, f.Name)
			case f.AllWhen != "" && (f.Type != TypePermissions || !c.hasField(f.AllWhen, TypeBoolean)):
				return nil, fmt.Errorf("collections: %s.%s: allWhen names a boolean field of a permissions field", key, f.Name)
			case f.Translatable && (f.Type != TypeText && f.Type != TypeLongText && f.Type != TypeRichText || f.Transient || f.Derived ||
				f.Format == FormatTel || f.Format == FormatTimeZone || f.Format == FormatLanguage):
				return nil, fmt.Errorf("collections: %s.%s: only text, longtext and richtext fields (plain or slugs) can be translatable", key, f.Name)
			case f.Name == TranslationsField || f.Name == TranslationStatusField:
				return nil, fmt.Errorf("collections: %s.%s: the name is the engine's (translations.go)", key, f.Name)
			}
			if f.Ref != "" {
				reg[f.Ref].ReferencedBy = append(reg[f.Ref].ReferencedBy, Backref{Collection: key, Field: f.Name})
			}
		}
	}
	return reg, nil
}

// Keys returns the collection keys, sorted.
func (r Registry) Keys() []string {
	out := make([]string, 0, len(r))
	for k := range r {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
