package wpimport

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"mime"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/campuscms/panel/shared/media"
	"github.com/campuscms/panel/shared/publicnet"
)

// Files finds the file of an attachment by its URL.
type Files interface {
	// Get returns the file's bytes (refusing one past media.MaxSize) and its declared type.
	Get(ctx context.Context, fileURL string) (body []byte, mimeType string, err error)
	// Has reports whether Get would find it (a dry run), nil if so.
	Has(ctx context.Context, fileURL string) error
}

// ErrMissing wraps why a file was not found.
var ErrMissing = errors.New("not found")

// Dir finds attachments in a folder holding a copy of the site's wp-content/uploads: by the
// URL's path below uploads/ ("2008/06/canola2.jpg"), failing that by the file's name alone.
type Dir struct {
	root   string
	byName map[string]string
}

// NewDir indexes the files under root by name (once: an export's attachments are looked up in it).
func NewDir(root string) (*Dir, error) {
	d := &Dir{root: root, byName: map[string]string{}}
	err := filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.Type().IsRegular() {
			if _, dup := d.byName[e.Name()]; !dup {
				d.byName[e.Name()] = p
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("media folder: %w", err)
	}
	return d, nil
}

func (d *Dir) find(fileURL string) (string, error) {
	if rel, ok := UploadPath(fileURL); ok {
		p := filepath.Join(d.root, filepath.FromSlash(rel))
		if inside(d.root, p) {
			if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
				return p, nil
			}
		}
	}
	u, err := url.Parse(fileURL)
	if err != nil {
		return "", fmt.Errorf("%w in the media folder", ErrMissing)
	}
	if p, ok := d.byName[path.Base(u.Path)]; ok {
		return p, nil
	}
	return "", fmt.Errorf("%w in the media folder", ErrMissing)
}

// inside reports whether p is under root (a "../" in an export's path never leaves the folder).
func inside(root, p string) bool {
	rel, err := filepath.Rel(root, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

func (d *Dir) Has(_ context.Context, fileURL string) error {
	_, err := d.find(fileURL)
	return err
}

func (d *Dir) Get(_ context.Context, fileURL string) ([]byte, string, error) {
	p, err := d.find(fileURL)
	if err != nil {
		return nil, "", err
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, "", err
	}
	defer f.Close()
	body, err := io.ReadAll(io.LimitReader(f, media.MaxSize+1))
	if err != nil {
		return nil, "", err
	}
	return body, typeByName(p), nil
}

// typeByName is a file's type by its extension (the upload's checks then hold its bytes to it).
func typeByName(name string) string {
	if t := mime.TypeByExtension(strings.ToLower(path.Ext(name))); t != "" {
		return t
	}
	return "application/octet-stream"
}

// Web fetches attachments from their URLs: https only, never an address inside a private,
// loopback or link-local network (an export is a stranger's file), a bounded size and time.
type Web struct {
	Client *http.Client
}

// NewWeb is a Web whose client dials public addresses only.
func NewWeb() *Web {
	dialer := publicnet.Dialer(10 * time.Second)
	tr := &http.Transport{DialContext: dialer.DialContext, TLSHandshakeTimeout: 10 * time.Second,
		ResponseHeaderTimeout: 20 * time.Second, MaxIdleConnsPerHost: 4}
	return &Web{Client: &http.Client{Transport: tr, Timeout: 60 * time.Second,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if req.URL.Scheme != "https" {
				return errors.New("redirected away from https")
			}
			if len(via) >= 5 {
				return errors.New("too many redirects")
			}
			return nil
		}}}
}

func (w *Web) request(ctx context.Context, method, fileURL string) (*http.Response, error) {
	u, err := url.Parse(fileURL)
	if err != nil || u.Scheme != "https" || u.Host == "" {
		return nil, fmt.Errorf("%w: only https addresses are fetched", ErrMissing)
	}
	req, err := http.NewRequestWithContext(ctx, method, u.String(), nil)
	if err != nil {
		return nil, err
	}
	res, err := w.Client.Do(req)
	if err != nil {
		// Said without the network's details (resolver addresses, dial errors).
		return nil, fmt.Errorf("%w: the old site could not be reached", ErrMissing)
	}
	if res.StatusCode != http.StatusOK {
		res.Body.Close()
		return nil, fmt.Errorf("%w: the site answered %d", ErrMissing, res.StatusCode)
	}
	return res, nil
}

func (w *Web) Has(ctx context.Context, fileURL string) error {
	res, err := w.request(ctx, http.MethodHead, fileURL)
	if err != nil {
		return err
	}
	res.Body.Close()
	return nil
}

func (w *Web) Get(ctx context.Context, fileURL string) ([]byte, string, error) {
	res, err := w.request(ctx, http.MethodGet, fileURL)
	if err != nil {
		return nil, "", err
	}
	defer res.Body.Close()
	if res.ContentLength > media.MaxSize {
		return nil, "", fmt.Errorf("larger than %d MB", media.MaxSize>>20)
	}
	body, err := io.ReadAll(io.LimitReader(res.Body, media.MaxSize+1))
	if err != nil {
		return nil, "", fmt.Errorf("%w: the download was cut short", ErrMissing)
	}
	mt, _, _ := mime.ParseMediaType(res.Header.Get("Content-Type"))
	if mt == "" || mt == "application/octet-stream" {
		mt = typeByName(res.Request.URL.Path)
	}
	return body, mt, nil
}
