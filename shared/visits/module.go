package visits

import (
	"net/http"
	"strconv"
	"time"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/app"
	"github.com/campuscms/panel/shared/auth"
	"github.com/campuscms/panel/shared/store"
)

// Module serves /visits: the website's page views for the dashboard, with the dashboard's
// permission (every signed-in user of the tenant, like /misc/masters' counters).
var Module = app.Module{
	Name:     "visits",
	Prefixes: func() []string { return []string{"visits"} },
	Register: func(d *app.Deps, mux api.Mux, base, _ string) error {
		h := handler{st: d.Store, now: time.Now}
		mux.Handle("GET "+base+"/visits", d.Guard.Require("", h.report))
		return nil
	},
}

type handler struct {
	st  *store.Store
	now func() time.Time
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
	rep, err := Read(r.Context(), h.st, auth.CallerFrom(r.Context()).Scope, days, h.now())
	if err != nil {
		return err
	}
	return api.OK(w, rep)
}
