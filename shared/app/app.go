// Package app builds the http.Handler of a resource group (one Lambda each) from the route table
// and the modules that serve its prefixes. A group's main links only the modules it lists, so a
// Lambda carries (and initialises) only the code its routes use; the local server mounts every
// module (shared/modules).
package app

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"sort"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/auth"
	"github.com/campuscms/panel/shared/awsclient"
	"github.com/campuscms/panel/shared/config"
	"github.com/campuscms/panel/shared/routes"
	"github.com/campuscms/panel/shared/store"
)

// Deps are the dependencies every module is built from.
type Deps struct {
	Config config.Config
	// AWS is the SDK configuration; a module that needs another client (S3) builds it from this.
	AWS   aws.Config
	Store *store.Store
	Guard *auth.Guard
	Log   *slog.Logger

	mu     sync.Mutex
	shared map[string]any
}

// NewDeps connects to AWS (or the emulator AWS_ENDPOINT_URL names) and builds the shared parts.
func NewDeps(ctx context.Context, cfg config.Config) (*Deps, error) {
	awsCfg, err := awsclient.Load(ctx)
	if err != nil {
		return nil, err
	}
	st := store.New(awsCfg, cfg.TableName)
	log := slog.New(slog.NewJSONHandler(os.Stderr, &slog.HandlerOptions{Level: cfg.LogLevel}))
	return &Deps{Config: cfg, AWS: awsCfg, Store: st, Guard: auth.NewGuard(st), Log: log}, nil
}

// Shared returns the value built for key, building it on first use: one service (the collections
// engine, an S3 client) shared by every module of the process.
func Shared[T any](d *Deps, key string, build func() (T, error)) (T, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if v, ok := d.shared[key]; ok {
		return v.(T), nil
	}
	v, err := build()
	if err != nil {
		var zero T
		return zero, err
	}
	if d.shared == nil {
		d.shared = map[string]any{}
	}
	d.shared[key] = v
	return v, nil
}

// Built returns the value built for key, if something built it: a module that uses another
// module's service at request time (after every module has registered) finds it here.
func Built[T any](d *Deps, key string) (T, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	v, ok := d.shared[key].(T)
	return v, ok
}

// Module serves some path prefixes of the route table.
type Module struct {
	// Name identifies the module in errors.
	Name string
	// Base is the base path the module's prefixes live under; empty means the table's default
	// (/api/v1/tenant). The public website API's module names /api/v1/public, so its /faqs and
	// the staff /faqs are different routes with different owners.
	Base string
	// Prefixes lists the path prefixes (first segment under the base path) the module serves.
	Prefixes func() []string
	// Register declares the routes of one prefix under base.
	Register func(d *Deps, mux api.Mux, base, prefix string) error
}

// owners returns the module serving each path (base + "/" + prefix) among mods, asking each
// module for its prefixes once (the collections module lists its registry's keys, sorted).
func owners(mods []Module, table routes.Table) map[string]Module {
	out := map[string]Module{}
	for _, m := range mods {
		base := m.basePath(table)
		for _, p := range m.Prefixes() {
			if _, taken := out[base+"/"+p]; !taken {
				out[base+"/"+p] = m
			}
		}
	}
	return out
}

func (m Module) basePath(table routes.Table) string {
	if m.Base == "" {
		return table.BasePath
	}
	return m.Base
}

// Paths returns every path (base + "/" + prefix) the modules serve, sorted (for the route
// table test).
func Paths(table routes.Table, mods []Module) []string {
	var out []string
	for _, m := range mods {
		for _, p := range m.Prefixes() {
			out = append(out, m.basePath(table)+"/"+p)
		}
	}
	sort.Strings(out)
	return out
}

// NewGroup returns the handler of one group: the routes of each prefix it owns, behind the
// shared middleware, answering JSON 404/405 for anything else. A prefix no module serves is a
// start-up error, so a group's main that forgot a module fails before serving anything.
func NewGroup(group string, d *Deps, mods ...Module) (http.Handler, error) {
	rt := NewRouter(nil)
	if err := register(group, d, rt, mods); err != nil {
		return nil, err
	}
	return api.Middleware(d.Log, api.RequireOrigin(d.Config.OriginSecret, rt)), nil
}

// register declares every route of group on mux.
func register(group string, d *Deps, mux api.Mux, mods []Module) error {
	table, err := routes.Load()
	if err != nil {
		return err
	}
	prefixes, ok := table.Groups[group]
	if !ok {
		return fmt.Errorf("app: group %q is not in routes.json", group)
	}
	base := table.BasePathFor(group)
	owner := owners(mods, table)
	for _, p := range prefixes {
		m, ok := owner[base+"/"+p]
		if !ok {
			return fmt.Errorf("app: prefix %q of group %q has no module", p, group)
		}
		if err := m.Register(d, mux, base, p); err != nil {
			return fmt.Errorf("app: %s: %w", m.Name, err)
		}
	}
	return nil
}

// recorder is a Mux that only lists the patterns declared on it.
type recorder struct{ patterns []string }

func (r *recorder) Handle(pattern string, _ http.Handler) { r.patterns = append(r.patterns, pattern) }

// Patterns returns, by group, every route pattern the groups declare ("PATCH /api/v1/tenant/faqs/{id}"),
// so tests can walk every route, including ones added later, without a list to keep up to date.
func Patterns(d *Deps, mods ...Module) (map[string][]string, error) {
	table, err := routes.Load()
	if err != nil {
		return nil, err
	}
	out := map[string][]string{}
	for _, g := range table.GroupNames() {
		rec := &recorder{}
		if err := register(g, d, rec, mods); err != nil {
			return nil, err
		}
		out[g] = rec.patterns
	}
	return out, nil
}

// NewAPI mounts every group's handler under the prefixes the route table gives it, as API
// Gateway does in the cloud; any other /api path gets a JSON 404.
func NewAPI(d *Deps, mods ...Module) (http.Handler, error) {
	table, err := routes.Load()
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	for _, group := range table.GroupNames() {
		h, err := NewGroup(group, d, mods...)
		if err != nil {
			return nil, err
		}
		base := table.BasePathFor(group)
		for _, p := range table.Groups[group] {
			mux.Handle(base+"/"+p, h)
			mux.Handle(base+"/"+p+"/", h)
		}
	}
	mux.HandleFunc("/api/", NotFound)
	return mux, nil
}
