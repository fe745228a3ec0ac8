package visits

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/guregu/dynamo/v2"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/app"
	"github.com/campuscms/panel/shared/auth"
	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/store"
)

// Module serves /visits: the website's page views for the dashboard, with the dashboard's
// permission (every signed-in user of the tenant, like /misc/masters' counters).
var Module = app.Module{
	Name:     "visits",
	Prefixes: func() []string { return []string{"visits"} },
	Register: func(d *app.Deps, mux api.Mux, base, _ string) error {
		reg, err := collections.Load()
		if err != nil {
			return err
		}
		c := reg[siteSettings]
		if c == nil || c.Singleton == "" {
			return fmt.Errorf("visits: %s is not a singleton collection", siteSettings)
		}
		h := handler{st: d.Store, now: time.Now, siteSettings: c.Singleton}
		mux.Handle("GET "+base+"/visits", d.Guard.Require("", h.report))
		return nil
	},
}

// siteSettings is the singleton holding the tenant's time zone.
const siteSettings = "site-settings"

type handler struct {
	st  *store.Store
	now func() time.Time
	// siteSettings is the sort key of the site settings singleton.
	siteSettings string
}

// DefaultDays is the period a report covers when ?days is not given.
const DefaultDays = 30

// report serves GET /visits?days=N (1–90, default 30).
func (h handler) report(w http.ResponseWriter, r *http.Request) error {
	days := DefaultDays
	if v := r.URL.Query().Get("days"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > MaxDays {
			return api.FieldError(http.StatusBadRequest, "days", "Days must be a whole number from 1 to 90.")
		}
		days = n
	}
	scope := auth.CallerFrom(r.Context()).Scope
	zone, err := h.zone(r.Context(), scope)
	if err != nil {
		return err
	}
	rep, err := Read(r.Context(), h.st, scope, days, h.now(), zone)
	if err != nil {
		return err
	}
	return api.OK(w, rep)
}

// zone is the tenant's time zone: its site settings' timeZone (one GetItem of the singleton's
// one field), UTC when never set or no longer known.
func (h handler) zone(ctx context.Context, scope store.Scope) (*time.Location, error) {
	var rec struct {
		TimeZone string `dynamo:"timeZone"`
	}
	err := h.st.Table.Get("PK", scope.Root()).Range("SK", dynamo.Equal, h.siteSettings).Project("timeZone").One(ctx, &rec)
	if err != nil && !errors.Is(err, dynamo.ErrNotFound) {
		return nil, store.Wrap("read time zone", err)
	}
	if loc, ok := Zone(rec.TimeZone); ok {
		return loc, nil
	}
	return time.UTC, nil
}
