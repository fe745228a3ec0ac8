package collections

import (
	"fmt"
	"net/http"
	"sort"
	"strings"
	"sync"

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
	// title names the category ("Footer"), for the message refusing a code it does not offer.
	title string
}

// Actions are the four permission actions, in display order.
var Actions = []string{"VIEW", "CREATE", "EDIT", "DELETE"}

// ActionPublish is the fifth action, offered by workflow collections only (workflow.go): who holds
// CMS_PUBLISH_{CATEGORY} publishes drafts and reviews them.
const ActionPublish = "PUBLISH"

// workflowActions are the actions of a workflow collection's category.
var workflowActions = []string{"VIEW", "CREATE", "EDIT", "DELETE", ActionPublish}

// Only the actions some route checks are offered: a singleton (header, footer, SEO defaults,
// theme settings) is viewed and edited, never created or deleted; a fixed catalogue (plans) or a
// log (audit log, trash: its restores and deletes are checked against the record's own
// collection) is only viewed.
var (
	viewOnly = []string{"VIEW"}
	viewEdit = []string{"VIEW", "EDIT"}
)

// category is a permission category: its title and the actions its routes check.
type category struct {
	title   string
	actions []string
}

// screenCategories are the permission categories of screens that are not generic collections.
var screenCategories = map[string]category{
	"PAGE": {"Pages", Actions}, "MENU_ITEM": {"Menu Items", Actions}, "AUDIT_LOG": {"Audit Log", viewOnly}, "TRASH": {"Trash", viewOnly},
	"THEME": {"Themes", viewEdit}, "PLAN": {"Plans", viewOnly}, "FORM_SUBMISSION": {"Form Submissions", Actions},
}

// categories are every permission category: the screens' and each collection's (a singleton's
// offers view and edit only).
func (r Registry) categories() map[string]category {
	out := map[string]category{}
	for cat, c := range screenCategories {
		out[cat] = c
	}
	for _, c := range r {
		actions := Actions
		if c.Singleton != "" {
			actions = viewEdit
		}
		if c.Workflow {
			actions = workflowActions
		}
		out[c.Category] = category{c.TitlePlural, actions}
	}
	return out
}

// Catalogue returns every permission that means something: one per category and action its
// routes check, sorted by category then action.
func (r Registry) Catalogue() []Permission {
	cats := r.categories()
	keys := make([]string, 0, len(cats))
	for cat := range cats {
		keys = append(keys, cat)
	}
	sort.Strings(keys)
	var out []Permission
	for _, cat := range keys {
		for _, a := range cats[cat].actions {
			code := "CMS_" + a + "_" + cat
			out = append(out, Permission{ID: code, Code: code, Name: strings.ToUpper(a[:1]) + strings.ToLower(a[1:]) + " " + cats[cat].title,
				Category: cat, Action: a, title: cats[cat].title})
		}
	}
	return out
}

// pastTense is each action as the message refusing a code says it.
var pastTense = map[string]string{"VIEW": "viewed", "CREATE": "created", "EDIT": "edited", "DELETE": "deleted", ActionPublish: "published"}

// refusedPermission is the message for a code the catalogue does not offer: what its category
// can be, when the category exists ("CMS_CREATE_FOOTER" means nothing: Footer can only be viewed
// or edited.), else that the code is unknown.
func refusedPermission(catalogue []Permission, code string) string {
	var title string
	var can []string
	if cat, ok := codeCategory(code); ok {
		for _, p := range catalogue {
			if p.Category == cat {
				title = p.title
				can = append(can, pastTense[p.Action])
			}
		}
	}
	if title == "" {
		return fmt.Sprintf("Unknown permission %q.", code)
	}
	return fmt.Sprintf("%q means nothing: %s can only be %s.", code, title, orList(can))
}

// codeCategory is the category of a code CMS_{ACTION}_{CATEGORY} naming one of the four actions.
func codeCategory(code string) (string, bool) {
	for _, a := range workflowActions {
		if cat, ok := strings.CutPrefix(code, "CMS_"+a+"_"); ok {
			return cat, true
		}
	}
	return "", false
}

// orList joins words as "a", "a or b", "a, b or c".
func orList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// catalogueIndex is the catalogue with what its readers look up: the codes it offers and the
// entries by category (permissionsGrouped).
type catalogueIndex struct {
	list    []Permission
	offered map[string]bool
	grouped map[string][]Permission
}

// lazyCatalogue builds the registry's catalogueIndex on first use (a role's permissions checked,
// GET /permissions): most groups never need it, and building it cost every start 0.07 ms.
func lazyCatalogue(reg Registry) func() *catalogueIndex {
	return sync.OnceValue(func() *catalogueIndex {
		list := reg.Catalogue()
		offered := make(map[string]bool, len(list))
		for _, p := range list {
			offered[p.ID] = true
		}
		return &catalogueIndex{list: list, offered: offered, grouped: groupByCategory(list)}
	})
}

// groupByCategory groups the catalogue for permissionsGrouped.
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
	cat := s.catalogue()
	resp := permissionsResponse{Permissions: cat.list, Result: []string{}, PermissionsGrouped: cat.grouped}
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
