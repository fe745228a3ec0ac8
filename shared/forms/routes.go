package forms

import (
	"github.com/guregu/dynamo/v2"

	"encoding/json"
	"log/slog"
	"net/http"
	"strings"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/app"
	"github.com/campuscms/panel/shared/auth"
	"github.com/campuscms/panel/shared/ids"
	"github.com/campuscms/panel/shared/listing"
	"github.com/campuscms/panel/shared/store"
	"github.com/campuscms/panel/shared/words"
)

// Prefix is the path prefix of the submissions routes (routes.json: the forms group).
const Prefix = "custom-form-submissions"

// Category is the permission category of submissions: CMS_{VIEW|CREATE|EDIT|DELETE}_FORM_SUBMISSION
// (the catalogue's "Form Submissions"). Viewing a form (CUSTOM_FORM) does not grant reading what
// people sent through it.
const Category = "FORM_SUBMISSION"

func permission(action string) string { return "CMS_" + action + "_" + Category }

// Module serves /custom-form-submissions.
var Module = app.Module{
	Name:     "forms",
	Prefixes: func() []string { return []string{Prefix} },
	Register: func(d *app.Deps, mux api.Mux, base, _ string) error {
		sub, err := NewSubmitter(d)
		if err != nil {
			return err
		}
		h := &handlers{st: d.Store, log: d.Log, sub: sub}
		path := base + "/" + Prefix
		g := d.Guard
		mux.Handle("POST "+path, g.Require(permission("CREATE"), h.submit))
		mux.Handle("GET "+path, g.Require(permission("VIEW"), h.list))
		mux.Handle("GET "+path+"/export", g.Require(permission("VIEW"), h.export))
		mux.Handle("PATCH "+path+"/{id}", g.Require(permission("EDIT"), h.check))
		mux.Handle("DELETE "+path+"/{id}", g.Require(permission("DELETE"), h.remove))
		return nil
	},
}

type handlers struct {
	st  *store.Store
	log *slog.Logger
	// sub stores a submission with its mail, linked to the panel, and nudges the mail worker.
	sub Submitter
}

// submit serves POST /custom-form-submissions {formId, <label>: value, …}.
func (h *handlers) submit(w http.ResponseWriter, r *http.Request) error {
	var body map[string]json.RawMessage
	if err := api.Decode(r, &body); err != nil {
		return err
	}
	var formID string
	if raw, ok := body["formId"]; !ok || json.Unmarshal(raw, &formID) != nil || strings.TrimSpace(formID) == "" {
		return api.FieldError(http.StatusBadRequest, "formId", "formId is required!")
	}
	sub, err := h.sub.Submit(r.Context(), auth.CallerFrom(r.Context()), formID, body)
	if err != nil {
		return err
	}
	return api.JSON(w, http.StatusCreated, api.Envelope{Result: sub, Message: "Form Submitted!"})
}

// formIDOf reads the formId query parameter; 400 when it is missing.
func formIDOf(r *http.Request) (string, error) {
	id := strings.TrimSpace(r.URL.Query().Get("formId"))
	if id == "" {
		return "", api.FieldError(http.StatusBadRequest, "formId", "formId is required!")
	}
	return id, nil
}

type listResponse struct {
	Result     []Submission `json:"result"`
	TotalCount int64        `json:"totalCount"`
	// NextCursor continues after this page (cursor=…); absent on the last page.
	NextCursor string `json:"nextCursor,omitempty"`
}

// list serves GET /custom-form-submissions?formId=&page=&limit=[&cursor=][&search=][&order=asc]:
// one page, newest first (oldest first with order=asc), and the form's submission counter as
// totalCount. A cursor (from nextCursor) continues where the previous page ended; page p without
// one skips (p-1)·limit keys first. A search finds the submissions having, for each typed word, a
// value with a word that begins with it (the word index, as the lists' search); totalCount is
// then the matches.
func (h *handlers) list(w http.ResponseWriter, r *http.Request) error {
	formID, err := formIDOf(r)
	if err != nil {
		return err
	}
	lq, err := api.ParseListQuery(r, "createdAt", func(f string) bool { return f == "createdAt" })
	if err != nil {
		return err
	}
	ctx := r.Context()
	scope := auth.CallerFrom(ctx).Scope
	c, err := counterOfForm(ctx, h.st, scope, formID)
	if err != nil {
		return err
	}
	cursor := r.URL.Query().Get("cursor")
	if len(words.Query(lq.Search)) > 0 {
		return h.search(w, r, submissionsPK(scope, formID), lq, cursor)
	}
	out := listResponse{Result: []Submission{}, TotalCount: c.Count}
	more := true
	switch {
	case cursor != "" && !ids.Valid(cursor):
		return api.FieldError(http.StatusBadRequest, "cursor", "cursor is not valid.")
	case cursor == "":
		if cursor, more, err = skip(ctx, h.st, scope, formID, (lq.Page-1)*lq.Limit, !lq.Desc); err != nil {
			return err
		}
	}
	if more {
		items, next, err := page(ctx, h.st, scope, formID, cursor, lq.Limit, !lq.Desc)
		if err != nil {
			return err
		}
		for _, it := range items {
			out.Result = append(out.Result, it.view())
		}
		out.NextCursor = next
	}
	return api.JSON(w, http.StatusOK, out)
}

// search answers a list with a search through the submissions' word index.
func (h *handlers) search(w http.ResponseWriter, r *http.Request, partition string, lq api.ListQuery, cursor string) error {
	res, err := listing.Lister{St: h.st}.Search(r.Context(), listing.Request{Partition: partition, Search: lq.Search,
		Sort: "createdAt", Desc: lq.Desc, Page: lq.Page, Limit: lq.Limit, Cursor: cursor})
	if err != nil {
		return err
	}
	out := listResponse{Result: []Submission{}, TotalCount: res.Total, NextCursor: res.Next}
	for _, raw := range res.Items {
		var it item
		if err := dynamo.UnmarshalItem(raw, &it); err != nil {
			return err
		}
		out.Result = append(out.Result, it.view())
	}
	return api.JSON(w, http.StatusOK, out)
}

// check serves PATCH /custom-form-submissions/{id} {checked, formId}; formId may come in the
// query instead. The id alone does not name the form's partition, and the screen always knows
// the form, so no id→form pointer is kept.
func (h *handlers) check(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		Checked *bool  `json:"checked"`
		FormID  string `json:"formId"`
	}
	if err := api.Decode(r, &in); err != nil {
		return err
	}
	if in.FormID == "" {
		in.FormID = r.URL.Query().Get("formId")
	}
	switch {
	case in.FormID == "":
		return api.FieldError(http.StatusBadRequest, "formId", "formId is required!")
	case in.Checked == nil:
		return api.FieldError(http.StatusBadRequest, "checked", "checked is required!")
	}
	sub, err := setChecked(r.Context(), h.st, auth.CallerFrom(r.Context()), in.FormID, r.PathValue("id"), *in.Checked)
	if err != nil {
		return err
	}
	return api.JSON(w, http.StatusOK, api.Envelope{Result: sub, Message: "Submission updated!"})
}

// remove serves DELETE /custom-form-submissions/{id}?formId=.
func (h *handlers) remove(w http.ResponseWriter, r *http.Request) error {
	formID, err := formIDOf(r)
	if err != nil {
		return err
	}
	if err := deleteSubmission(r.Context(), h.st, auth.CallerFrom(r.Context()), formID, r.PathValue("id")); err != nil {
		return err
	}
	return api.JSON(w, http.StatusOK, api.Envelope{Result: map[string]string{"id": r.PathValue("id")}, Message: "Submission Deleted Successfully!"})
}
