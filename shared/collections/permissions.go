package collections

import (
	"net/http"
	"sort"
	"strings"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/auth"
	"github.com/campuscms/panel/shared/store"
)

// Permission is one entry of the catalogue: CMS_{ACTION}_{CATEGORY}.
type Permission struct {
	ID       string `json:"id"`
	Code     string `json:"code"`
	Name     string `json:"name"`
	Category string `json:"category"`
	Action   string `json:"action"`
}

// Actions are the four permission actions, in display order.
var Actions = []string{"VIEW", "CREATE", "EDIT", "DELETE"}

// screenCategories are the permission categories of screens that are not generic collections.
var screenCategories = map[string]string{
	"PAGE": "Pages", "MENU_ITEM": "Menu Items", "AUDIT_LOG": "Audit Log", "TRASH": "Trash", "THEME": "Themes", "PLAN": "Plans", "FORM_SUBMISSION": "Form Submissions",
}

// Catalogue returns every permission, one per action and category, sorted by category then action.
func (r Registry) Catalogue() []Permission {
	names := map[string]string{}
	for cat, n := range screenCategories {
		names[cat] = n
	}
	for _, c := range r {
		names[c.Category] = c.TitlePlural
	}
	cats := make([]string, 0, len(names))
	for cat := range names {
		cats = append(cats, cat)
	}
	sort.Strings(cats)
	out := make([]Permission, 0, len(cats)*len(Actions))
	for _, cat := range cats {
		for _, a := range Actions {
			code := "CMS_" + a + "_" + cat
			out = append(out, Permission{ID: code, Code: code, Name: strings.ToUpper(a[:1]) + strings.ToLower(a[1:]) + " " + names[cat], Category: cat, Action: a})
		}
	}
	return out
}

// groupByCategory groups the catalogue for permissionsGrouped (once, at start-up).
func groupByCategory(catalogue []Permission) map[string][]Permission {
	out := map[string][]Permission{}
	for _, p := range catalogue {
		out[p.Category] = append(out[p.Category], p)
	}
	return out
}

type permissionsResponse struct {
	Permissions        []Permission            `json:"permissions"`
	Result             []string                `json:"result"`
	PermissionsGrouped map[string][]Permission `json:"permissionsGrouped"`
}

// permissionsHandler serves GET /permissions?role_id=: the catalogue, the role's allowed ids and
// the catalogue grouped by category.
func (s *Service) permissionsHandler(w http.ResponseWriter, r *http.Request) error {
	resp := permissionsResponse{Permissions: s.catalogue, Result: []string{}, PermissionsGrouped: s.grouped}
	if roleID := r.URL.Query().Get("role_id"); roleID != "" {
		role, err := auth.LoadRole(r.Context(), s.st, auth.CallerFrom(r.Context()).Scope, roleID)
		if store.IsNotFound(err) {
			return &api.Error{Status: http.StatusNotFound, Message: "Role not found!"}
		}
		if err != nil {
			return err
		}
		if role.PermissionIDs != nil {
			resp.Result = role.PermissionIDs
		}
	}
	return api.JSON(w, http.StatusOK, resp)
}
