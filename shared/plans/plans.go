// Package plans is the catalogue of billing plans (plans.json, data not code) and GET /plans. A
// tenant's plan is its details' planId; new tenants start on the catalogue's first plan.
package plans

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/app"
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
}

// Catalogue returns every plan, in display order (parsed once: tenant creation checks a plan
// against it every time).
var Catalogue = sync.OnceValues(parse)

func parse() ([]Plan, error) {
	var out []Plan
	if err := json.Unmarshal(plansJSON, &out); err != nil {
		return nil, fmt.Errorf("plans: parse plans.json: %w", err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("plans: plans.json lists no plan")
	}
	return out, nil
}

// Default is the plan a new tenant starts on: the catalogue's first.
func Default() (string, error) {
	all, err := Catalogue()
	if err != nil {
		return "", err
	}
	return all[0].ID, nil
}

// Check returns an error unless id names a plan of the catalogue.
func Check(id string) error {
	all, err := Catalogue()
	if err != nil {
		return err
	}
	for _, p := range all {
		if p.ID == id {
			return nil
		}
	}
	return fmt.Errorf("plans: unknown plan %q", id)
}

// Module serves GET /plans (CMS_VIEW_PLAN): the catalogue. Plans are view-only in the panel.
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
			return api.JSON(w, http.StatusOK, api.Envelope{Result: all, TotalCount: &total})
		}))
		return nil
	},
}
