package main

import (
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/app"
	"github.com/campuscms/panel/shared/awsclient/s3client"
	"github.com/campuscms/panel/shared/media"
	"github.com/campuscms/panel/shared/modules"
	"github.com/campuscms/panel/shared/website"
)

// newHandler mounts what CloudFront routes in the cloud: /api/* to the groups' handlers by the
// route table, /media/* to the media bucket, everything else to the SPA with history fallback.
func newHandler(deps *app.Deps, siteDir string) (http.Handler, error) {
	apiHandler, err := app.NewAPI(deps, modules.All()...)
	if err != nil {
		return nil, err
	}
	site, err := website.Build(deps, website.Options{LocalHosts: true, CountAfter: true})
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.Handle("/api/", apiHandler)
	mux.HandleFunc("/api/health", func(w http.ResponseWriter, r *http.Request) {
		_ = api.OK(w, map[string]string{"status": "ok"})
	})
	mux.Handle("/media/", readOnly(mediaProxy(s3client.New(deps.AWS), deps.Config.MediaBucket)))
	if endpoint := os.Getenv("AWS_ENDPOINT_URL"); endpoint != "" && deps.Config.MediaUploadURL == uploadProxyPrefix+"/"+deps.Config.MediaBucket {
		upload, err := uploadProxy(endpoint)
		if err != nil {
			return nil, err
		}
		mux.Handle("POST "+uploadProxyPrefix+"/", upload)
	}
	// "/media" alone is the SPA's Media Library route: CloudFront's /media/* does not match it,
	// and without this exact pattern ServeMux would redirect it into the bucket proxy.
	mux.Handle("/media", readOnly(spa(siteDir)))
	mux.Handle("/", readOnly(spa(siteDir)))
	return byHost(mux, gzipText(site), mux), nil
}

// byHost sends what CloudFront's website distribution would receive to the website: any host
// but the panel's own (127.0.0.1, localhost), such as demo.localhost or a domain registered with
// cmsctl tenant set-domains; its /media/* and public API stay where they are, as CloudFront's
// behaviours send them to the bucket and the API.
func byHost(panel, site, shared http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host := r.Host
		if h, _, err := net.SplitHostPort(host); err == nil {
			host = h
		}
		switch {
		case host == "127.0.0.1" || host == "localhost" || host == "" || host == "[::1]" || host == "::1":
			panel.ServeHTTP(w, r)
		case strings.HasPrefix(r.URL.Path, "/media/") || strings.HasPrefix(r.URL.Path, "/api/"):
			shared.ServeHTTP(w, r)
		default:
			site.ServeHTTP(w, r)
		}
	})
}

// readOnly refuses every method but GET and HEAD, as CloudFront's static behaviours do.
func readOnly(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, http.StatusText(http.StatusMethodNotAllowed), http.StatusMethodNotAllowed)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// mediaProxy serves media objects as CloudFront's /media/* behaviour does, with nosniff and a
// sandbox CSP so that an uploaded SVG or HTML file cannot run script on the panel's origin.
func mediaProxy(client *s3.Client, bucket string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key := strings.TrimPrefix(r.URL.Path, "/")
		out, err := client.GetObject(r.Context(), &s3.GetObjectInput{Bucket: aws.String(bucket), Key: aws.String(key)})
		if err != nil {
			var missing *types.NoSuchKey
			status := http.StatusBadGateway
			if errors.As(err, &missing) {
				status = http.StatusNotFound
			}
			http.Error(w, http.StatusText(status), status)
			return
		}
		defer out.Body.Close()
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Content-Security-Policy", "sandbox")
		// As CloudFront does: the object's own short max-age, so a deleted file stops being served.
		h.Set("Cache-Control", media.CacheControl)
		if out.ContentType != nil {
			h.Set("Content-Type", *out.ContentType)
		}
		if out.ContentLength != nil {
			h.Set("Content-Length", itoa(*out.ContentLength))
		}
		_, _ = io.Copy(w, out.Body)
	})
}

// spa serves the built SPA; a path that is no file gets index.html (history routing).
func spa(dir string) http.Handler {
	files := http.FileServer(http.Dir(dir))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		index := filepath.Join(dir, "index.html")
		if _, err := os.Stat(index); err != nil {
			http.Error(w, "The SPA is not built: run `npm run build --prefix site` (make dev does).", http.StatusServiceUnavailable)
			return
		}
		clean := path.Clean("/" + r.URL.Path)
		if info, err := os.Stat(filepath.Join(dir, filepath.FromSlash(clean))); err == nil && !info.IsDir() {
			if strings.HasPrefix(clean, "/assets/") {
				w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
			}
			files.ServeHTTP(w, r)
			return
		}
		w.Header().Set("Cache-Control", "no-cache")
		http.ServeFile(w, r, index)
	})
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
