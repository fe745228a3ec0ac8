package forms

import (
	"encoding/csv"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/campuscms/panel/shared/audit"
	"github.com/campuscms/panel/shared/auth"
	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/formats"
	"github.com/campuscms/panel/shared/mediaref"
	"github.com/campuscms/panel/shared/store"
)

// exportPage is how many submissions one read of the export takes.
const exportPage = 100

// submittedColumn is the export's last column: when each submission arrived.
const submittedColumn = "Submitted At"

// export serves GET /custom-form-submissions/export?formId=: every submission of the form as CSV,
// newest first, read and written one page at a time so memory stays flat however many there are.
func (h *handlers) export(w http.ResponseWriter, r *http.Request) error {
	formID, err := formIDOf(r)
	if err != nil {
		return err
	}
	ctx := r.Context()
	caller := auth.CallerFrom(ctx)
	scope := caller.Scope
	form, err := LoadForm(ctx, h.st, scope, formID)
	if err != nil {
		return err
	}
	// The first page is read before the headers go out, so the usual failures still get a JSON error.
	items, next, err := page(ctx, h.st, scope, formID, "", exportPage, false)
	if err != nil {
		return err
	}
	// An export is in the audit log: who took the form's submissions away, and when.
	entry := collections.AuditEntry(caller, time.Now(), audit.ActionExport, Prefix, formID)
	if err := h.st.Table.Put(audit.Item(scope, entry)).Run(ctx); err != nil {
		return store.Wrap("audit the export", err)
	}
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s-submissions.csv"`, mediaref.SafeName(form.Name)))
	w.WriteHeader(http.StatusOK)
	cw := newCSVWriter(w, form, scope)
	for {
		if err := cw.rows(items); err != nil {
			// Headers are sent: a failure can only cut the file short. Log it for the operator.
			h.log.Error("export submissions", "form", formID, "error", err.Error())
			return nil
		}
		if next == "" {
			return nil
		}
		if items, next, err = page(ctx, h.st, scope, formID, next, exportPage, false); err != nil {
			h.log.Error("export submissions", "form", formID, "error", err.Error())
			return nil
		}
	}
}

// csvWriter writes submissions as rows: one column per field label in the form's order, then
// the submitted time.
type csvWriter struct {
	w      *csv.Writer
	fields []Field
	media  string
}

// newCSVWriter writes the header row (after a UTF-8 byte order mark, so spreadsheet programs
// read accented text right).
func newCSVWriter(out io.Writer, form Form, scope store.Scope) *csvWriter {
	_, _ = io.WriteString(out, "\uFEFF")
	cw := &csvWriter{w: csv.NewWriter(out), fields: form.Fields, media: "/media/" + scope.Tenant() + "/"}
	header := make([]string, 0, len(form.Fields)+1)
	for _, f := range form.Fields {
		header = append(header, formats.CSVCell(f.Label))
	}
	_ = cw.w.Write(append(header, submittedColumn))
	return cw
}

func (cw *csvWriter) rows(items []item) error {
	for _, it := range items {
		row := make([]string, 0, len(cw.fields)+1)
		for _, f := range cw.fields {
			row = append(row, formats.CSVCell(cw.cell(f, it.Values[f.Label])))
		}
		if err := cw.w.Write(append(row, it.CreatedAt)); err != nil {
			return err
		}
	}
	cw.w.Flush()
	return cw.w.Error()
}

// cell is a value as text: a checkbox's choices joined by ", ", a file as its served path.
func (cw *csvWriter) cell(f Field, v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		if f.FieldType == TypeFile {
			return cw.media + x
		}
		return x
	case []any:
		parts := make([]string, len(x))
		for i, p := range x {
			parts[i] = fmt.Sprint(p)
		}
		return strings.Join(parts, ", ")
	case []string:
		return strings.Join(x, ", ")
	}
	return fmt.Sprint(v)
}
