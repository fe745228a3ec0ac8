// Package auditlog serves the audit log (shared/audit) to the panel: its pages and its CSV export,
// behind a permission of their own. No route writes to it.
package auditlog

import (
	"encoding/csv"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/app"
	"github.com/campuscms/panel/shared/audit"
	"github.com/campuscms/panel/shared/auth"
	"github.com/campuscms/panel/shared/formats"
	"github.com/campuscms/panel/shared/ids"
	"github.com/campuscms/panel/shared/store"
)

// PermView is the right to read and export the audit log (admins hold it like every right).
const PermView = "CMS_VIEW_AUDIT_LOG"

// Module serves /audit-log: the log's pages and its CSV export. No route writes to it.
var Module = app.Module{
	Name:     "audit",
	Prefixes: func() []string { return []string{"audit-log"} },
	Register: func(d *app.Deps, mux api.Mux, base, _ string) error {
		h := &handlers{st: d.Store, now: time.Now}
		mux.Handle("GET "+base+"/audit-log", d.Guard.Require(PermView, h.list))
		mux.Handle("GET "+base+"/audit-log/export", d.Guard.Require(PermView, h.export))
		return nil
	},
}

type handlers struct {
	st  *store.Store
	now func() time.Time
}

// filterOf reads ?user=&collection=&action=&from=&to= (dates YYYY-MM-DD or RFC 3339, to is
// inclusive to the end of its day); a malformed value is a 400 naming it.
func filterOf(r *http.Request) (audit.Filter, error) {
	q := r.URL.Query()
	f := audit.Filter{UserID: q.Get("user"), Collection: q.Get("collection"), Action: q.Get("action")}
	if f.UserID != "" && !ids.Valid(f.UserID) {
		return f, api.FieldError(http.StatusBadRequest, "user", "user must be a user id.")
	}
	for name, v := range map[string]string{"collection": f.Collection, "action": f.Action} {
		if len(v) > 60 || strings.ContainsAny(v, "#\x00") {
			return f, api.FieldError(http.StatusBadRequest, name, name+" is not valid.")
		}
	}
	for name, dst := range map[string]*time.Time{"from": &f.From, "to": &f.To} {
		v := q.Get(name)
		if v == "" {
			continue
		}
		if t, err := time.Parse(time.DateOnly, v); err == nil {
			if name == "to" {
				t = t.Add(24*time.Hour - time.Nanosecond)
			}
			*dst = t
		} else if t, err := time.Parse(time.RFC3339, v); err == nil {
			*dst = t
		} else {
			return f, api.FieldError(http.StatusBadRequest, name, name+" must be a date (YYYY-MM-DD).")
		}
	}
	return f, nil
}

// list serves GET /audit-log?…&limit=&cursor=: one page, newest first, and the cursor of the next.
func (h *handlers) list(w http.ResponseWriter, r *http.Request) error {
	f, err := filterOf(r)
	if err != nil {
		return err
	}
	limit := 20
	if v := r.URL.Query().Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 100 {
			return api.FieldError(http.StatusBadRequest, "limit", "limit must be between 1 and 100.")
		}
		limit = n
	}
	items, next, err := audit.List(r.Context(), h.st, auth.CallerFrom(r.Context()).Scope, f, limit, r.URL.Query().Get("cursor"))
	if err != nil {
		return err
	}
	return api.JSON(w, http.StatusOK, struct {
		Result     []audit.View `json:"result"`
		NextCursor string       `json:"nextCursor,omitempty"`
	}{items, next})
}

// exportPage is how many entries one read of the export takes.
const exportPage = 100

// export serves GET /audit-log/export?…: the filtered log as CSV, newest first, read and written
// a page at a time so memory stays flat; the export itself is an entry of the log.
func (h *handlers) export(w http.ResponseWriter, r *http.Request) error {
	f, err := filterOf(r)
	if err != nil {
		return err
	}
	caller := auth.CallerFrom(r.Context())
	ctx, scope := r.Context(), caller.Scope
	items, next, err := audit.List(ctx, h.st, scope, f, exportPage, "")
	if err != nil {
		return err
	}
	e := audit.Entry{At: h.now(), UserID: caller.User.ID, Username: caller.User.Username, Action: audit.ActionExport, Collection: "audit-log", Client: caller.Client}
	if err := h.st.Table.Put(audit.Item(scope, e)).Run(ctx); err != nil {
		return store.Wrap("audit the export", err)
	}
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Disposition", `attachment; filename="audit-log.csv"`)
	w.WriteHeader(http.StatusOK)
	cw := csv.NewWriter(w)
	_ = cw.Write([]string{"When", "User", "Action", "Collection", "Record", "Changed fields", "Address", "User agent"})
	for {
		for _, it := range items {
			// Neutralised like the submissions export: a cell cannot start a spreadsheet formula.
			row := []string{it.At, it.Username, it.Action, it.Collection, it.RecordID, strings.Join(it.Changed, " "), it.Address, it.UserAgent}
			for i := range row {
				row[i] = formats.CSVCell(row[i])
			}
			if err := cw.Write(row); err != nil {
				return nil // the client went away; headers are sent
			}
		}
		cw.Flush()
		if next == "" || cw.Error() != nil {
			return nil
		}
		if items, next, err = audit.List(ctx, h.st, scope, f, exportPage, next); err != nil {
			api.Logger(ctx).Error("export audit log", "error", err.Error())
			return nil
		}
	}
}
