package media

import (
	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/app"
	"github.com/campuscms/panel/shared/awsclient/s3rest"
)

// Module serves /media.
var Module = app.Module{
	Name:     "media",
	Prefixes: func() []string { return []string{"media"} },
	Register: func(d *app.Deps, mux api.Mux, base, _ string) error {
		client := s3rest.New(d.AWS)
		svc := NewService(d.Store, client, d.Config.MediaBucket, d.Config.MediaUploadURL, d.Guard)
		if d.Config.DeriveImagesInBackground {
			svc.DeriveInBackground(NewDeriver(d.Store, client, d.Config.MediaBucket, d.Log), d.Log)
		}
		svc.Register(mux, base)
		return nil
	},
}
