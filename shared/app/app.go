// Package app builds the http.Handler of a resource group (one Lambda each) from the route table.
// The local server mounts every group's handler; functions/<group>/main.go hands one to Lambda.
package app

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"sort"

	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/auth"
	"github.com/campuscms/panel/shared/awsclient"
	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/config"
	"github.com/campuscms/panel/shared/media"
	"github.com/campuscms/panel/shared/misc"
	"github.com/campuscms/panel/shared/routes"
	"github.com/campuscms/panel/shared/store"
)

// Deps are the dependencies every service is built from.
type Deps struct {
	Config config.Config
	Store  *store.Store
	S3     *s3.Client
	Guard  *auth.Guard
	Log    *slog.Logger
	// Collections serves every declared collection (collections.json).
	Collections *collections.Service
}

// NewDeps connects to AWS (or the emulator AWS_ENDPOINT_URL names) and builds the shared parts.
func NewDeps(ctx context.Context, cfg config.Config) (*Deps, error) {
	awsCfg, err := awsclient.Load(ctx)
	if err != nil {
		return nil, err
	}
	reg, err := collections.Load()
	if err != nil {
		return nil, err
	}
	st := store.New(awsCfg, cfg.TableName)
	guard := auth.NewGuard(st)
	log := slog.New(slog.NewJSONHandler(os.Stderr, &slog.HandlerOptions{Level: cfg.LogLevel}))
	return &Deps{Config: cfg, Store: st, S3: awsclient.NewS3(awsCfg), Guard: guard, Log: log,
		Collections: collections.NewService(st, guard, reg)}, nil
}

// registrar declares one path prefix's routes on a group's mux.
type registrar func(d *Deps, mux api.Mux, base string)

// services maps every path prefix of the route table to the code that serves it.
var services = map[string]registrar{
	"auth": func(d *Deps, mux api.Mux, base string) {
		auth.NewService(d.Store, d.Guard, d.Config).Register(mux, base)
	},
	"misc": func(d *Deps, mux api.Mux, base string) { misc.NewService(d.Store, d.Guard).Register(mux, base) },
	"media": func(d *Deps, mux api.Mux, base string) {
		media.NewService(d.Store, d.S3, d.Config.MediaBucket, d.Config.MediaUploadURL, d.Guard).Register(mux, base)
	},
}

// registrarFor returns the code serving a prefix: a service above, a declared collection, or one
// of the collections service's extra routes.
func registrarFor(reg collections.Registry, prefix string) (registrar, bool) {
	if r, ok := services[prefix]; ok {
		return r, true
	}
	if _, ok := reg[prefix]; ok {
		return func(d *Deps, mux api.Mux, base string) { d.Collections.Register(mux, base, prefix) }, true
	}
	if prefix == "permissions" || prefix == "user-roles" {
		return func(d *Deps, mux api.Mux, base string) { d.Collections.RegisterExtras(mux, base, prefix) }, true
	}
	return nil, false
}

// Prefixes returns every prefix that has code behind it, sorted (for the route table test).
func Prefixes() ([]string, error) {
	reg, err := collections.Load()
	if err != nil {
		return nil, err
	}
	out := append(reg.Keys(), "permissions", "user-roles")
	for p := range services {
		out = append(out, p)
	}
	sort.Strings(out)
	return out, nil
}

// NewGroup returns the handler of one group: the routes of each prefix it owns, behind the
// shared middleware, answering JSON 404/405 for anything else.
func NewGroup(group string, d *Deps) (http.Handler, error) {
	mux := http.NewServeMux()
	if err := register(group, d, mux); err != nil {
		return nil, err
	}
	return api.Middleware(d.Log, api.RequireOrigin(d.Config.OriginSecret, jsonFallback(mux))), nil
}

// register declares every route of group on mux.
func register(group string, d *Deps, mux api.Mux) error {
	table, err := routes.Load()
	if err != nil {
		return err
	}
	prefixes, ok := table.Groups[group]
	if !ok {
		return fmt.Errorf("app: group %q is not in routes.json", group)
	}
	for _, p := range prefixes {
		reg, ok := registrarFor(d.Collections.Registry(), p)
		if !ok {
			return fmt.Errorf("app: prefix %q of group %q has no service", p, group)
		}
		reg(d, mux, table.BasePath)
	}
	return nil
}

// recorder is a Mux that only lists the patterns declared on it.
type recorder struct{ patterns []string }

func (r *recorder) Handle(pattern string, _ http.Handler) { r.patterns = append(r.patterns, pattern) }

// Patterns returns, by group, every route pattern the groups declare ("PATCH /api/v1/tenant/faqs/{id}"),
// so tests can walk every route, including ones added later, without a list to keep up to date.
func Patterns(d *Deps) (map[string][]string, error) {
	table, err := routes.Load()
	if err != nil {
		return nil, err
	}
	out := map[string][]string{}
	for _, g := range table.GroupNames() {
		rec := &recorder{}
		if err := register(g, d, rec); err != nil {
			return nil, err
		}
		out[g] = rec.patterns
	}
	return out, nil
}

// jsonFallback turns the mux's plain-text 404 and 405 into the API's JSON failure body.
func jsonFallback(mux *http.ServeMux) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h, pattern := mux.Handler(r)
		if pattern != "" {
			// Through the mux, not h: only mux.ServeHTTP sets the {id} path values.
			mux.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		if allow := rec.Header().Get("Allow"); allow != "" {
			w.Header().Set("Allow", allow)
		}
		msg := "Not found."
		if rec.Code == http.StatusMethodNotAllowed {
			msg = "Method not allowed."
		}
		_ = api.JSON(w, rec.Code, map[string]string{"message": msg})
	})
}

// NewAll returns the handler of every group in the route table, by group name.
func NewAll(d *Deps) (map[string]http.Handler, error) {
	table, err := routes.Load()
	if err != nil {
		return nil, err
	}
	out := make(map[string]http.Handler, len(table.Groups))
	for _, g := range table.GroupNames() {
		if out[g], err = NewGroup(g, d); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// NewAPI mounts every group's handler under the prefixes the route table gives it, as API
// Gateway does in the cloud; any other /api path gets a JSON 404.
func NewAPI(d *Deps) (http.Handler, error) {
	table, err := routes.Load()
	if err != nil {
		return nil, err
	}
	groups, err := NewAll(d)
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	for group, prefixes := range table.Groups {
		for _, p := range prefixes {
			mux.Handle(table.BasePath+"/"+p, groups[group])
			mux.Handle(table.BasePath+"/"+p+"/", groups[group])
		}
	}
	mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		_ = api.JSON(w, http.StatusNotFound, map[string]string{"message": "Not found."})
	})
	return mux, nil
}
