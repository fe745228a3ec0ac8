// Command website is the Lambda of the website group (routes.json "website"): every path of the
// institutions' websites, server-rendered HTML, behind the HTTP API's $default route.
package main

import (
	// The time zone database travels with the binary: the calendar writes events in the site
	// settings' time zone, and the provided.al2023 runtime (AL2023 minimal) may carry none of its own.
	_ "time/tzdata"

	"net/http"

	"github.com/campuscms/panel/shared/app"
	"github.com/campuscms/panel/shared/lambdamain"
	"github.com/campuscms/panel/shared/website"
)

func main() {
	lambdamain.StartWith("website", func(d *app.Deps) (http.Handler, error) { return website.Build(d, website.Options{}) })
}
