package media

import (
	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/app"
	"github.com/campuscms/panel/shared/awsclient/s3client"
)

// Module serves /media.
var Module = app.Module{
	Name:     "media",
	Prefixes: func() []string { return []string{"media"} },
	Register: func(d *app.Deps, mux api.Mux, base, _ string) error {
		NewService(d.Store, s3client.New(d.AWS), d.Config.MediaBucket, d.Config.MediaUploadURL, d.Guard).Register(mux, base)
		return nil
	},
}
