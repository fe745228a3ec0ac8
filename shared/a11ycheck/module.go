package a11ycheck

import (
	"encoding/csv"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/guregu/dynamo/v2"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/app"
	"github.com/campuscms/panel/shared/auth"
	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/store"
)

// ReportPermission is what the report needs: staff who can edit pages fix what it lists.
const ReportPermission = "CMS_EDIT_PAGE"

// Module serves POST /accessibility-check (the editor's findings as staff type) and GET
// /accessibility-report (the site report, JSON or CSV).
var Module = app.Module{
	Name:     "accessibility",
	Prefixes: func() []string { return []string{"accessibility-check", "accessibility-report"} },
	Register: func(d *app.Deps, mux api.Mux, base, prefix string) error {
		reg, err := collections.Load()
		if err != nil {
			return err
		}
		h := handler{st: d.Store, reg: reg, now: time.Now}
		switch prefix {
		case "accessibility-check":
			mux.Handle("POST "+base+"/accessibility-check", d.Guard.Require("", h.check))
		case "accessibility-report":
			mux.Handle("GET "+base+"/accessibility-report", d.Guard.Require(ReportPermission, h.report))
		}
		return nil
	},
}

type handler struct {
	st  *store.Store
	reg collections.Registry
	now func() time.Time
}

type checkRequest struct {
	Collection string         `json:"collection"`
	Values     map[string]any `json:"values"`
}

// check serves POST /accessibility-check: the findings of a record as the form holds it, for any
// user who may create or edit records of that collection. It writes nothing.
func (h handler) check(w http.ResponseWriter, r *http.Request) error {
	var in checkRequest
	if err := api.Decode(r, &in); err != nil {
		return err
	}
	c := h.reg[in.Collection]
	if c == nil || !c.OnSite {
		return api.FieldError(http.StatusBadRequest, "collection", "Collection must be one whose records are shown on the website.")
	}
	caller := auth.CallerFrom(r.Context())
	if !caller.User.Can(c.Permission("EDIT")) && !caller.User.Can(c.Permission("CREATE")) {
		return api.ErrForbidden
	}
	fs, err := Check(r.Context(), FromValues(c, in.Values), StoreResolver{St: h.st, Scope: caller.Scope, Now: h.now})
	if err != nil {
		return err
	}
	if fs == nil {
		fs = []Finding{}
	}
	return api.JSON(w, http.StatusOK, map[string]any{"result": map[string]any{"findings": fs}, "findings": fs})
}

// Report limits: a page of the JSON report, and the CSV export's records.
const (
	defaultLimit = 50
	maxLimit     = 100
	maxCSV       = 5000
)

// report serves GET /accessibility-report?rule=&cursor=&limit=&format=csv.
func (h handler) report(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	scope := auth.CallerFrom(r.Context()).Scope
	rule := q.Get("rule")
	if rule != "" && !slices.Contains(Rules, rule) {
		return api.FieldError(http.StatusBadRequest, "rule", "Rule must be one of the checker's rules.")
	}
	limit := defaultLimit
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > maxLimit {
			return api.FieldError(http.StatusBadRequest, "limit", "Limit must be a whole number from 1 to 100.")
		}
		limit = n
	}
	var start dynamo.PagingKey
	if v := q.Get("cursor"); v != "" {
		k, ok := store.DecodeCursor(v, scope)
		if !ok {
			return api.FieldError(http.StatusBadRequest, "cursor", "The cursor is not valid: load the report again from the start.")
		}
		start = k
	}
	switch f := q.Get("format"); f {
	case "csv":
		return h.csv(w, r, scope, rule)
	case "", "json":
	default:
		return api.FieldError(http.StatusBadRequest, "format", "Format must be json or csv.")
	}
	entries, next, err := h.page(r, scope, rule, limit, start)
	if err != nil {
		return err
	}
	counts, err := ReadCounts(r.Context(), h.st, scope)
	if err != nil {
		return err
	}
	body := map[string]any{"result": entries, "totalCount": counts.Records, "findingsCount": counts.Findings}
	if next != "" {
		body["cursor"] = next
	}
	return api.JSON(w, http.StatusOK, body)
}

// page is one Query of the index partition: at most limit items read (the records without
// findings, kept for their links, and a rule filter may leave fewer), and the cursor of the next.
func (h handler) page(r *http.Request, scope store.Scope, rule string, limit int, start dynamo.PagingKey) ([]Entry, string, error) {
	qy := h.st.Table.Get("PK", scope.Partition(partitionName)).Consistent(h.st.Consistent()).SearchLimit(limit).Filter("'total' > ?", 0)
	if rule != "" {
		qy = qy.Filter("contains('rules', ?)", rule)
	}
	if start != nil {
		qy = qy.StartFrom(start)
	}
	entries := []Entry{}
	next, err := qy.AllWithLastEvaluatedKey(r.Context(), &entries)
	if err != nil {
		return nil, "", store.Wrap("accessibility report", err)
	}
	for i := range entries {
		entries[i].Findings = entries[i].AllFindings()
		if rule != "" {
			entries[i].Findings = slices.DeleteFunc(entries[i].Findings, func(f Finding) bool { return f.Rule != rule })
		}
		if entries[i].Findings == nil {
			entries[i].Findings = []Finding{}
		}
	}
	return entries, store.EncodeCursor(next), nil
}

// csv writes the report as CSV (kind,id,title,rule,severity,message,field), one row per finding,
// reading the index a page at a time (at most maxCSV records).
func (h handler) csv(w http.ResponseWriter, r *http.Request, scope store.Scope, rule string) error {
	var all []Entry
	var start dynamo.PagingKey
	for len(all) < maxCSV {
		entries, next, err := h.page(r, scope, rule, maxLimit, start)
		if err != nil {
			return err
		}
		all = append(all, entries...)
		if next == "" {
			break
		}
		start, _ = store.DecodeCursor(next, scope)
	}
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="accessibility-report-`+h.now().UTC().Format("2006-01-02")+`.csv"`)
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	cw := csv.NewWriter(w)
	_ = cw.Write([]string{"kind", "id", "title", "rule", "severity", "message", "field"})
	for _, e := range all {
		for _, f := range e.Findings {
			_ = cw.Write([]string{e.Kind, e.ID, cell(e.Title), f.Rule, f.Severity, f.Message, f.Field})
		}
	}
	cw.Flush()
	return cw.Error()
}

// cell keeps a spreadsheet from reading a cell as a formula (CSV injection).
func cell(s string) string {
	if s != "" && (s[0] == '=' || s[0] == '+' || s[0] == '-' || s[0] == '@' || s[0] == '\t' || s[0] == '\r') {
		return "'" + s
	}
	return s
}
