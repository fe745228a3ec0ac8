package testkit

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/campuscms/panel/shared/collections"
)

// SampleValue returns a valid value of field f for sample record n; a reference is a sample
// record created in the tenant first. Samples grant nothing: a role's or user's permissions are
// empty and a user is no administrator.
func SampleValue(t testing.TB, tn Tenant, reg collections.Registry, f collections.Field, n int) any {
	t.Helper()
	if f.Format == collections.FormatSlug {
		return fmt.Sprintf("slug-%d", n)
	}
	if f.Format == collections.FormatTel {
		return fmt.Sprintf("+1 555 010 %04d", n%10000)
	}
	if f.Format == collections.FormatLanguage {
		return "en"
	}
	if f.Format == collections.FormatTimeZone {
		return []string{"UTC", "America/New_York", "Europe/London", "Asia/Kolkata"}[n%4]
	}
	switch f.Type {
	case collections.TypeNumber:
		return n
	case collections.TypeDate:
		return fmt.Sprintf("2026-11-%02d", 1+n%28)
	case collections.TypeDateTime:
		// A window open from the past into the far future: sample records stay live.
		if f.After != "" {
			return fmt.Sprintf("2099-01-%02dT09:00:00Z", 1+n%28)
		}
		return fmt.Sprintf("2020-01-%02dT09:00:00+02:00", 1+n%28)
	case collections.TypeBoolean:
		return f.Name != "isAdmin"
	case collections.TypeSelect:
		return f.Options[n%len(f.Options)]
	case collections.TypeEmail:
		return fmt.Sprintf("person%d@example.org", n)
	case collections.TypeURL:
		return fmt.Sprintf("https://example.org/%d", n)
	case collections.TypeImage, collections.TypeFile:
		return "01ARZ3NDEKTSV4RRFFQ69G5FAV/file-" + fmt.Sprint(n) + ".png"
	case collections.TypePassword:
		return "secret-pw-" + fmt.Sprint(n)
	case collections.TypePermissions, collections.TypeEmails, collections.TypeLanguages:
		return []string{}
	case collections.TypeColor:
		return fmt.Sprintf("#%06x", 0x102030*n%0xffffff)
	case collections.TypeJSON:
		return `[{"id":"NEW_1","label":"Name","fieldType":"text","required":true}]`
	case collections.TypeReference:
		return CreateRecord(t, tn, reg, reg[f.Ref], n)["id"]
	}
	switch f.Name {
	case "username":
		return fmt.Sprintf("u%d-%s", n, tn.ID[2:10])
	case "fromPath", "to": // a redirect's old address and its target: paths of the site
		return fmt.Sprintf("/%s-%d", strings.ToLower(f.Name), n)
	}
	return fmt.Sprintf("%s %d %s", f.Label, n, strings.ToLower(tn.ID))
}

// SampleBody returns a valid create body for sample record n of c. Transient fields are left
// out: the collection's hooks define what they hold, and the hooks' own tests send them.
func SampleBody(t testing.TB, tn Tenant, reg collections.Registry, c *collections.Collection, n int) map[string]any {
	t.Helper()
	b := map[string]any{}
	for _, f := range c.Fields {
		if !f.Transient {
			b[f.Name] = SampleValue(t, tn, reg, f, n)
		}
	}
	return b
}

// CreateRecord creates sample record n of c as the tenant's admin and returns it.
func CreateRecord(t testing.TB, tn Tenant, reg collections.Registry, c *collections.Collection, n int) map[string]any {
	t.Helper()
	res := Call(t, Request{Method: "POST", Path: "/" + c.Key, Tenant: tn.ID, Token: tn.AdminToken, Body: SampleBody(t, tn, reg, c, n)})
	if res.Status != http.StatusCreated {
		t.Fatalf("create %s: %d %s", c.Key, res.Status, res.Raw)
	}
	return res.Body["result"].(map[string]any)
}
