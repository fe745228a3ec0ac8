package collections

import (
	"context"
	"fmt"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/auth"
)

// Hooks are a collection's own rules, declared by name in collections.json ("hooks": "users") and
// implemented in Go. The generic engine calls them around every write and knows no collection by
// name; a declared hook without an implementation is a start-up error.
type Hooks interface {
	// BeforeWrite checks and completes a create (w.Old == nil) or a patch before it is written;
	// it may change w.Rec and queue more transaction items with w.Also.
	BeforeWrite(ctx context.Context, s *Service, w *Write) error
	// BeforeDelete checks a delete and may queue more transaction items.
	BeforeDelete(ctx context.Context, s *Service, w *Write) error
}

// Router is implemented by hooks whose collection has routes beyond the five generic ones; path
// is the collection's path ("/api/v1/tenant/notifications").
type Router interface {
	Routes(s *Service, mux api.Mux, path string, c *Collection)
}

// Viewer is implemented by hooks that add to a record as GET /{collection}/{id} shows it (a page
// adds its sections).
type Viewer interface {
	View(ctx context.Context, s *Service, caller *auth.Caller, rec, out Record) error
}

// Versioned is implemented by hooks whose records keep more than their own item in a version (a
// page keeps its sections): VersionState returns, by declared (transient) field, what the write
// replaces of it; WrittenState the same fields as the write leaves them (what the next write
// will keep), so that a write whose state would be too large to keep is refused before it is
// made. A restore sends those fields back, so the hook's own write rules bring them back too.
// Both run after BeforeWrite (BeforeDelete), and may use what it noted in w.HookState.
type Versioned interface {
	VersionState(ctx context.Context, s *Service, w *Write) (map[string]any, error)
	WrittenState(ctx context.Context, s *Service, w *Write) (map[string]any, error)
}

// WriteViewer is implemented by Viewers that can show a record just written from what its write
// knows (w.HookState), without reading back what it wrote: a write's answer uses it instead of
// View.
type WriteViewer interface {
	ViewWritten(ctx context.Context, s *Service, w *Write, out Record) error
}

// NoHooks is embedded by hooks that implement only some of the methods.
type NoHooks struct{}

// BeforeWrite accepts every write.
func (NoHooks) BeforeWrite(context.Context, *Service, *Write) error { return nil }

// BeforeDelete accepts every delete.
func (NoHooks) BeforeDelete(context.Context, *Service, *Write) error { return nil }

// builtinHooks are the hooks of the collections this package declares itself.
func builtinHooks() map[string]Hooks {
	return map[string]Hooks{"users": userHooks{}, "roles": roleHooks{}, "notifications": notificationHooks{},
		"site-settings": siteSettingsHooks{}}
}

// hooksOf returns the hooks of a collection: its declared hooks' implementation, or NoHooks.
func (s *Service) hooksOf(c *Collection) (Hooks, error) {
	if c.Hooks == "" {
		return NoHooks{}, nil
	}
	h, ok := s.hooks[c.Hooks]
	if !ok {
		return nil, fmt.Errorf("collections: %s declares hooks %q, which this process does not link", c.Key, c.Hooks)
	}
	return h, nil
}
