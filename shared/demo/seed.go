// Package demo seeds a tenant with a small, believable institution: a media library of
// generated pictures and documents, pages with every section type, a nested menu, the website
// collections (sliders, events, notices, albums, staff, FAQs, …), a contact form with two
// messages, and the header, footer, theme and SEO settings. The dev server seeds its demo tenant
// with it and `cmsctl tenant seed-demo` seeds any tenant.
//
// Records go through the collections engine's own create (collections.Service.Create), so they
// carry their list index attributes, move their counters and, for pages, write their slug
// markers and sections, exactly as the panel's writes do.
//
// Idempotence: every seeded thing has a fixed id derived from the tenant and its name (ids.go)
// and is written only if absent, and a marker item written last (T#{t} / DEMO) makes a run
// after a complete one a single read. A run that stopped half way is simply run again: what it
// wrote is found and skipped, the rest is written.
package demo

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/auth"
	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/forms"
	"github.com/campuscms/panel/shared/modules"
	"github.com/campuscms/panel/shared/newsletter"
	"github.com/campuscms/panel/shared/store"
)

// markerSK is the sort key of the marker a complete seed leaves in the tenant's root partition.
const markerSK = "DEMO"

// Summary is what a seed run did.
type Summary struct {
	// Written counts what this run wrote, by collection ("media" for library files, "menu",
	// "newsletter-signups", "custom-form-submissions", and the settings singletons).
	Written map[string]int
	// Existing counts what an earlier run (or staff) had already written and was left alone.
	Existing int
	// AlreadySeeded is true when the tenant carried the marker of a complete seed: nothing else
	// was read or written.
	AlreadySeeded bool
	// Took is the run's duration.
	Took time.Duration
}

// String is the summary as the dev server and cmsctl print it.
func (s Summary) String() string {
	if s.AlreadySeeded {
		return fmt.Sprintf("demo content already seeded (checked in %s)", s.Took.Round(time.Millisecond))
	}
	keys := make([]string, 0, len(s.Written))
	total := 0
	for k, n := range s.Written {
		keys = append(keys, k)
		total += n
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, s.Written[k])
	}
	return fmt.Sprintf("demo content: %d written (%s), %d already there, in %s", total, strings.Join(parts, ", "),
		s.Existing, s.Took.Round(time.Millisecond))
}

// seeder is one seed run over one tenant.
type seeder struct {
	st     *store.Store
	s3     *s3.Client
	bucket string
	scope  store.Scope
	tenant store.Tenant
	reg    collections.Registry
	svc    *collections.Service
	// caller is who the engine sees writing: an administrator of the tenant, as the seed is an
	// operator's act (the theme-settings hooks check the right to change the theme).
	caller *auth.Caller
	now    time.Time
	sum    *Summary
	// refs and sizes are the media files' references and byte sizes, by file key.
	refs  map[string]string
	sizes map[string]int64
}

// Seed fills an existing tenant (created by tenants.Create) with the demo institution, named
// after the tenant. Media go to bucket through client; everything else to st. Running it again
// changes nothing.
func Seed(ctx context.Context, st *store.Store, client *s3.Client, bucket, tenant string) (Summary, error) {
	start := time.Now()
	sum := Summary{Written: map[string]int{}}
	scope, err := store.NewScope(tenant)
	if err != nil {
		return sum, fmt.Errorf("demo: %w", err)
	}
	t, err := st.GetTenant(ctx, scope)
	if store.IsNotFound(err) {
		return sum, fmt.Errorf("demo: tenant %q not found: create it first (cmsctl tenant create)", tenant)
	}
	if err != nil {
		return sum, err
	}
	var marker map[string]any
	err = st.Get(ctx, store.Key{PK: scope.Root(), SK: markerSK}, &marker)
	switch {
	case err == nil:
		sum.AlreadySeeded, sum.Took = true, time.Since(start)
		return sum, nil
	case !store.IsNotFound(err):
		return sum, err
	}
	reg, err := collections.Load()
	if err != nil {
		return sum, err
	}
	sd := &seeder{st: st, s3: client, bucket: bucket, scope: scope, tenant: t, reg: reg,
		svc:    collections.NewService(st, nil, reg, modules.Linked()),
		caller: &auth.Caller{Scope: scope, Tenant: t, User: &auth.User{Username: "demo-seed", IsAdmin: true, Status: true}},
		now:    start.UTC(), sum: &sum, refs: map[string]string{}, sizes: map[string]int64{}}
	err = sd.run(ctx)
	sum.Took = time.Since(start)
	return sum, err
}

// run writes everything in dependency order, then the marker.
func (sd *seeder) run(ctx context.Context) error {
	if err := sd.uploadMedia(ctx, mediaFiles(sd.tenant.Name)); err != nil {
		return err
	}
	created, err := sd.create(ctx, record{"custom-forms", "contact", sd.contactForm()})
	if err != nil {
		return err
	}
	if created {
		// Submissions have no fixed ids (forms.Submit makes them), so they are written only
		// with the form: a retry after a failure in between leaves the form without them rather
		// than sending them twice.
		if err := sd.submitMessages(ctx); err != nil {
			return err
		}
	}
	// Pages before the records that link to them, and each page after the pages it links to (the
	// last first): a link is checked when its record is saved (a11ycheck's broken-link rule).
	pages := sd.pageRecords()
	for i := len(pages) - 1; i >= 0; i-- {
		if _, err := sd.create(ctx, pages[i]); err != nil {
			return err
		}
	}
	for _, r := range sd.contentRecords() {
		if _, err := sd.create(ctx, r); err != nil {
			return err
		}
	}
	if err := sd.writeMenu(ctx); err != nil {
		return err
	}
	for _, email := range newsletterAddresses {
		created, err := newsletter.AddConfirmed(ctx, sd.svc, sd.caller, email)
		if err != nil {
			return fmt.Errorf("demo: newsletter signup %s: %w", email, err)
		}
		sd.count(newsletter.Kind, created)
	}
	for _, r := range sd.settings() {
		if err := sd.saveSetting(ctx, r); err != nil {
			return err
		}
	}
	err = sd.st.Table.Put(map[string]any{"PK": sd.scope.Root(), "SK": markerSK, "seededAt": sd.now.Format(time.RFC3339Nano)}).Run(ctx)
	return store.Wrap("demo: put marker", err)
}

// id is the fixed id of the seeded thing named name ("faqs/faq-1", "media/hero-1").
func (sd *seeder) id(name string) string {
	return fixedID(sd.scope.Tenant(), sd.tenant.CreatedAt, name)
}

// count notes one seeded thing: written by this run, or found from an earlier one.
func (sd *seeder) count(kind string, created bool) {
	if created {
		sd.sum.Written[kind]++
	} else {
		sd.sum.Existing++
	}
}

// create writes one record through the collections engine unless it is already there.
func (sd *seeder) create(ctx context.Context, r record) (created bool, err error) {
	c := sd.reg[r.collection]
	if c == nil {
		return false, fmt.Errorf("demo: no collection %q", r.collection)
	}
	id := sd.id(r.collection + "/" + r.key)
	// One read first: a page's create would otherwise prepare its slug and sections before its
	// own put-if-absent refuses it.
	_, err = sd.svc.Load(ctx, sd.scope, c, id)
	var ae *api.Error
	switch {
	case err == nil:
		sd.count(r.collection, false)
		return false, nil
	case !errors.As(err, &ae) || ae.Status != http.StatusNotFound:
		return false, fmt.Errorf("demo: read %s %s: %w", r.collection, r.key, err)
	}
	_, err = sd.svc.Create(ctx, sd.caller, c, id, r.body)
	switch {
	case errors.Is(err, api.ErrConflict):
		created = false // written a moment ago by another run
	case err != nil:
		return false, fmt.Errorf("demo: create %s %s: %s", r.collection, r.key, describe(err))
	default:
		created = true
	}
	sd.count(r.collection, created)
	return created, nil
}

// submitMessages sends the contact form its two demo messages through the forms package, which
// validates them against the form and moves both unchecked counters.
func (sd *seeder) submitMessages(ctx context.Context) error {
	formID := sd.id("custom-forms/contact")
	for _, m := range contactMessages {
		body := map[string]json.RawMessage{}
		for label, v := range m {
			body[label], _ = json.Marshal(v)
		}
		if _, err := forms.Submit(ctx, sd.st, sd.caller, formID, body); err != nil {
			return fmt.Errorf("demo: contact message: %s", describe(err))
		}
		sd.sum.Written["custom-form-submissions"]++
	}
	return nil
}

// describe is an error with its field errors, which an *api.Error's text leaves out and which
// say what a seeded value got wrong.
func describe(err error) string {
	var ae *api.Error
	if !errors.As(err, &ae) || len(ae.Fields) == 0 {
		return err.Error()
	}
	keys := make([]string, 0, len(ae.Fields))
	for k := range ae.Fields {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + ": " + ae.Fields[k]
	}
	return err.Error() + " (" + strings.Join(parts, "; ") + ")"
}
