// Package plans is the catalogue of billing plans (plans.json, data not code), each with its
// limits (pages, media bytes, custom forms, custom domain), and GET /plans with the tenant's
// usage. A tenant's plan is its details' planId; new tenants start on the plan marked default.
// The limits are enforced where the data is written: collections (pages, custom forms), media
// (the quota, quota.go there) and tenants (custom domains); each refusal names the plan.
package plans

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/app"
	"github.com/campuscms/panel/shared/auth"
	"github.com/campuscms/panel/shared/compiled"
	"github.com/campuscms/panel/shared/store"
)

//go:embed plans.json
var plansJSON []byte

// Plan is one entry of the catalogue: what a plan card shows.
type Plan struct {
	ID       string   `json:"id"`
	Name     string   `json:"name"`
	Price    float64  `json:"price"`
	Period   string   `json:"period"`
	Features []string `json:"features"`
	// Limits are what the plan allows; the server holds them.
	Limits Limits `json:"limits"`
	// Default marks the plan new tenants start on (the first plan when none is marked).
	Default bool `json:"default,omitempty"`
}

// Limits are a plan's limits as data. A zero Pages or MediaBytes is unlimited.
type Limits struct {
	Pages        int64 `json:"pages"`
	MediaBytes   int64 `json:"mediaBytes"`
	CustomForms  bool  `json:"customForms"`
	CustomDomain bool  `json:"customDomain"`
	// MonthlyEmails is how many newsletter mails the plan sends in a calendar month (UTC);
	// 0 is none.
	MonthlyEmails int64 `json:"monthlyEmails"`
}

// CountEmails is the counter of the newsletter mails a tenant queued in month ("2006-01"),
// kept in the same transactions as the mails.
func CountEmails(month string) string { return "emails#" + month }

// EmailRefusal is the answer to a newsletter send that would pass the plan's monthly email
// allowance (403): how many it would send, and how many are left this month.
func (p Plan) EmailRefusal(recipients, left int64) *api.Error {
	if p.Limits.MonthlyEmails == 0 {
		return api.Errorf(http.StatusForbidden, "Your plan (%s) does not include sending newsletters. Upgrade your plan to send one.", p.Name)
	}
	return api.Errorf(http.StatusForbidden,
		"Your plan (%s) allows %d emails a month and %d are left this month, but this newsletter would go to %d subscribers. Upgrade your plan or wait until next month to send it.",
		p.Name, p.Limits.MonthlyEmails, max(left, 0), recipients)
}

// CountMediaBytes is the counter of the bytes of a tenant's media library (the confirmed files'
// sizes), kept by media in the same transactions as its records.
const CountMediaBytes = "media-bytes"

// Collections whose creates a plan limits.
const (
	collectionPages = "pages"
	collectionForms = "custom-forms"
)

//go:generate go run ./gen

// Catalogue returns every plan, in display order (built once from its compiled copy,
// plans_gen.go, while that matches plans.json: tenant creation checks a plan against it every
// time).
var Catalogue = sync.OnceValues(func() ([]Plan, error) {
	out, err := compiled.Load(plansJSON, "plans.json", compiledPlans)
	if err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("plans: plans.json lists no plan")
	}
	return out, nil
})

// compiledPlans is set by plans_gen.go's init.
var compiledPlans compiled.Copy[[]Plan]

// Default is the plan a new tenant starts on: the one marked default, else the catalogue's first.
func Default() (string, error) {
	all, err := Catalogue()
	if err != nil {
		return "", err
	}
	for _, p := range all {
		if p.Default {
			return p.ID, nil
		}
	}
	return all[0].ID, nil
}

// Of returns a plan by id; an empty id is the default plan (a tenant written before plans).
func Of(id string) (Plan, error) {
	if id == "" {
		var err error
		if id, err = Default(); err != nil {
			return Plan{}, err
		}
	}
	all, err := Catalogue()
	if err != nil {
		return Plan{}, err
	}
	for _, p := range all {
		if p.ID == id {
			return p, nil
		}
	}
	return Plan{}, fmt.Errorf("plans: unknown plan %q", id)
}

// CreateLimit says how many records of a collection the plan allows: limited is false when it
// sets no limit; max is 0 when the plan does not include the collection at all. refusal is the
// answer to a create past it (403, naming the plan and the limit).
func (p Plan) CreateLimit(collection string) (max int64, limited bool, refusal *api.Error) {
	switch {
	case collection == collectionPages && p.Limits.Pages > 0:
		return p.Limits.Pages, true, api.Errorf(http.StatusForbidden,
			"Your plan (%s) allows up to %d pages. Upgrade your plan to add more.", p.Name, p.Limits.Pages)
	case collection == collectionForms && !p.Limits.CustomForms:
		return 0, true, api.Errorf(http.StatusForbidden,
			"Your plan (%s) does not include custom forms. Upgrade your plan to add one.", p.Name)
	}
	return 0, false, nil
}

// MediaRefusal is the answer to an upload that would pass the plan's media quota (413), saying
// what is used.
func (p Plan) MediaRefusal(used int64) *api.Error {
	return api.Errorf(http.StatusRequestEntityTooLarge,
		"Your plan (%s) allows %s of media and %s is used or being uploaded. Delete files or upgrade your plan to upload this one.",
		p.Name, FormatBytes(p.Limits.MediaBytes), FormatBytes(used))
}

// ErrNoCustomDomain is wrapped by DomainRefusal.
var ErrNoCustomDomain = errors.New("plans: the plan does not include a custom domain")

// DomainRefusal is the error for a custom domain on a plan without one (nil when it has one);
// it is ErrNoCustomDomain for errors.Is.
func (p Plan) DomainRefusal() error {
	if p.Limits.CustomDomain {
		return nil
	}
	return domainRefusal{plan: p.Name}
}

type domainRefusal struct{ plan string }

func (d domainRefusal) Error() string {
	return fmt.Sprintf("Your plan (%s) does not include a custom domain. Upgrade the plan first (cmsctl tenant set-plan).", d.plan)
}

func (domainRefusal) Is(target error) bool { return target == ErrNoCustomDomain }

// FormatBytes writes a size as the plan cards do: "1 GB", "250 MB", "3.5 KB".
func FormatBytes(n int64) string {
	units := []string{"bytes", "KB", "MB", "GB", "TB"}
	v, i := float64(n), 0
	for v >= 1024 && i < len(units)-1 {
		v /= 1024
		i++
	}
	if i == 0 {
		return fmt.Sprintf("%d bytes", n)
	}
	return strings.TrimSuffix(strings.TrimSuffix(fmt.Sprintf("%.1f", v), "0"), ".") + " " + units[i]
}

// Usage is what a tenant uses of its plan's limits (GET /plans' usage): counters only, no scan.
type Usage struct {
	PlanID     string `json:"planId"`
	Pages      int64  `json:"pages"`
	PageLimit  int64  `json:"pageLimit"`
	MediaBytes int64  `json:"mediaBytes"`
	MediaLimit int64  `json:"mediaLimit"`
}

// UsageOf reads a tenant's usage: its two counters in one round trip.
func UsageOf(ctx context.Context, st *store.Store, scope store.Scope, planID string) (Usage, error) {
	p, err := Of(planID)
	if err != nil {
		return Usage{}, err
	}
	n, err := st.CountMany(ctx, scope, collectionPages, CountMediaBytes)
	if err != nil {
		return Usage{}, err
	}
	return Usage{PlanID: p.ID, Pages: n[0], PageLimit: p.Limits.Pages, MediaBytes: n[1], MediaLimit: p.Limits.MediaBytes}, nil
}

// Check returns an error unless id names a plan of the catalogue.
func Check(id string) error {
	if id == "" {
		return fmt.Errorf("plans: unknown plan %q", id)
	}
	_, err := Of(id)
	return err
}

// Module serves GET /plans (CMS_VIEW_PLAN): the catalogue, and the tenant's usage of its plan
// (usage). Plans are view-only in the panel; cmsctl tenant set-plan changes one.
var Module = app.Module{
	Name:     "plans",
	Prefixes: func() []string { return []string{"plans"} },
	Register: func(d *app.Deps, mux api.Mux, base, _ string) error {
		all, err := Catalogue()
		if err != nil {
			return err
		}
		total := int64(len(all))
		mux.Handle("GET "+base+"/plans", d.Guard.Require("CMS_VIEW_PLAN", func(w http.ResponseWriter, r *http.Request) error {
			caller := auth.CallerFrom(r.Context())
			usage, err := UsageOf(r.Context(), d.Store, caller.Scope, caller.Tenant.PlanID)
			if err != nil {
				return err
			}
			return api.JSON(w, http.StatusOK, struct {
				api.Envelope
				Usage Usage `json:"usage"`
			}{api.Envelope{Result: all, TotalCount: &total}, usage})
		}))
		return nil
	},
}
