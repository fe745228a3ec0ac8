package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"
)

const smokeUsage = "  cmsctl smoke --url PANEL_URL --tenant ID --username USER --password PASS [--website URL]   (signs in, writes, uploads and reads through a deployed stack, then cleans up; one line per step, exit 2 on any failure)"

func init() {
	commands["smoke"] = command{usage: smokeUsage, run: func(ctx context.Context, _ env, args []string, out io.Writer) error {
		fs := flag.NewFlagSet("smoke", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		s := smoke{out: out}
		fs.StringVar(&s.base, "url", "", "the panel's address (its CloudFront URL)")
		fs.StringVar(&s.tenant, "tenant", "", "tenant id")
		fs.StringVar(&s.username, "username", "", "a user of the tenant who may edit FAQs and media (no two-factor sign-in)")
		fs.StringVar(&s.password, "password", "", "its password")
		fs.StringVar(&s.website, "website", "", "the tenant's website (default: tenant-info's websiteUrl)")
		if err := fs.Parse(args); err != nil || s.base == "" || s.tenant == "" || s.username == "" || s.password == "" {
			return fmt.Errorf("usage:\n%s", smokeUsage)
		}
		s.base = strings.TrimRight(s.base, "/")
		return s.run(ctx)
	}}
}

// smoke walks a deployed stack the way a user and a visitor do, through its public address only.
type smoke struct {
	out                                       io.Writer
	base, tenant, username, password, website string
	client                                    *http.Client
	token, objectPrefix                       string
	recordID, mediaID, mediaRef, question     string
	recordVersion                             float64
}

// step runs one step and prints its line: ok or FAIL, with its time.
func (s *smoke) step(name string, f func() error) error {
	start := time.Now()
	err := f()
	ms := time.Since(start).Milliseconds()
	if err != nil {
		fmt.Fprintf(s.out, "FAIL %-28s %5d ms: %v\n", name, ms, err)
		return fmt.Errorf("smoke: %s: %w", name, err)
	}
	fmt.Fprintf(s.out, "ok   %-28s %5d ms\n", name, ms)
	return nil
}

func (s *smoke) run(ctx context.Context) (err error) {
	s.client = &http.Client{Timeout: 15 * time.Second, Transport: localhostTransport()}
	s.question = "smoke-" + randomHex(4) + ": is the stack working?"
	defer func() {
		// Clean up whatever was made, even after a failure; a cleanup failure fails the run.
		if cerr := s.cleanup(ctx); cerr != nil && err == nil {
			err = cerr
		}
	}()
	for _, st := range []struct {
		name string
		f    func() error
	}{
		{"tenant-info", func() error { return s.tenantInfo(ctx) }},
		{"sign in", func() error { return s.signIn(ctx) }},
		{"create a record", func() error { return s.create(ctx) }},
		{"read it back", func() error { return s.read(ctx) }},
		{"edit it", func() error { return s.edit(ctx) }},
		{"public API shows it", func() error { return s.public(ctx) }},
		{"upload (presigned POST)", func() error { return s.upload(ctx) }},
		{"fetch it through CloudFront", func() error { return s.fetchMedia(ctx) }},
		{"website home", func() error { return s.home(ctx) }},
	} {
		if err := s.step(st.name, st.f); err != nil {
			return err
		}
	}
	return nil
}

func (s *smoke) cleanup(ctx context.Context) error {
	if s.token == "" {
		return nil
	}
	var errs []error
	if s.recordID != "" {
		errs = append(errs, s.step("delete the record", func() error { return s.remove(ctx, "/faqs/"+s.recordID, "faqs", s.recordID) }))
	}
	if s.mediaID != "" {
		errs = append(errs, s.step("delete the file", func() error { return s.remove(ctx, "/media/"+s.mediaID, "media", s.mediaID) }))
	}
	errs = append(errs, s.step("sign out", func() error {
		_, err := s.api(ctx, "POST", "/auth/logout", map[string]any{}, nil)
		return err
	}))
	return errors.Join(errs...)
}

// api calls the tenant API; out (when not nil) receives the envelope's result.
func (s *smoke) api(ctx context.Context, method, path string, body any, out any) (http.Header, error) {
	return s.call(ctx, method, s.base+"/api/v1/tenant"+path, body, out)
}

func (s *smoke) call(ctx context.Context, method, u string, body any, out any) (http.Header, error) {
	var rd io.Reader
	if body != nil {
		raw, err := json.Marshal(body)
		if err != nil {
			return nil, err
		}
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequestWithContext(ctx, method, u, rd)
	if err != nil {
		return nil, err
	}
	req.Header.Set("X-Tenant-Id", s.tenant)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if s.token != "" {
		req.Header.Set("Authorization", "Bearer "+s.token)
	}
	resp, err := s.client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	var env struct {
		Result          json.RawMessage `json:"result"`
		Message         string          `json:"message"`
		ObjectURLPrefix string          `json:"objectUrlPrefix"`
	}
	_ = json.Unmarshal(raw, &env)
	if resp.StatusCode/100 != 2 {
		msg := env.Message
		if msg == "" {
			msg = strings.TrimSpace(string(raw[:min(len(raw), 200)]))
		}
		return nil, fmt.Errorf("%s %s: %d %s", method, strings.TrimPrefix(u, s.base), resp.StatusCode, msg)
	}
	if env.ObjectURLPrefix != "" {
		s.objectPrefix = env.ObjectURLPrefix
	}
	if out != nil {
		if err := json.Unmarshal(env.Result, out); err != nil {
			return nil, fmt.Errorf("%s %s: unexpected answer %.200s", method, strings.TrimPrefix(u, s.base), raw)
		}
	}
	return resp.Header, nil
}

func (s *smoke) tenantInfo(ctx context.Context) error {
	var info struct {
		Name       string `json:"name"`
		WebsiteURL string `json:"websiteUrl"`
	}
	if _, err := s.api(ctx, "GET", "/auth/tenant-info", nil, &info); err != nil {
		return err
	}
	if s.website == "" {
		s.website = info.WebsiteURL
	}
	if s.objectPrefix == "" {
		return errors.New("tenant-info gave no objectUrlPrefix")
	}
	return nil
}

func (s *smoke) signIn(ctx context.Context) error {
	var res struct {
		Token     string `json:"token"`
		TwoFactor string `json:"twoFactor"`
	}
	if _, err := s.api(ctx, "POST", "/auth/login", map[string]any{"username": s.username, "password": s.password}, &res); err != nil {
		return err
	}
	if res.TwoFactor != "" {
		return errors.New("this user signs in with two-factor sign-in: use a smoke-test user without it")
	}
	s.token = res.Token
	return nil
}

func (s *smoke) create(ctx context.Context) error {
	var rec struct {
		ID      string  `json:"id"`
		Version float64 `json:"version"`
	}
	if _, err := s.api(ctx, "POST", "/faqs", map[string]any{"question": s.question, "answer": "Created by cmsctl smoke."}, &rec); err != nil {
		return err
	}
	s.recordID, s.recordVersion = rec.ID, rec.Version
	return nil
}

func (s *smoke) read(ctx context.Context) error {
	var rec map[string]any
	if _, err := s.api(ctx, "GET", "/faqs/"+s.recordID, nil, &rec); err != nil {
		return err
	}
	if rec["question"] != s.question {
		return fmt.Errorf("read back %v", rec["question"])
	}
	return nil
}

func (s *smoke) edit(ctx context.Context) error {
	var rec struct {
		Answer string `json:"answer"`
	}
	_, err := s.api(ctx, "PATCH", "/faqs/"+s.recordID, map[string]any{"answer": "Edited by cmsctl smoke.", "version": s.recordVersion}, &rec)
	if err == nil && rec.Answer != "Edited by cmsctl smoke." {
		err = fmt.Errorf("the edit answered %q", rec.Answer)
	}
	return err
}

// public reads the public API as a website would (a query of its own, so no cached list hides it).
func (s *smoke) public(ctx context.Context) error {
	var list []map[string]any
	if _, err := s.call(ctx, "GET", s.base+"/api/v1/public/faqs?smoke="+randomHex(4), nil, &list); err != nil {
		return err
	}
	for _, it := range list {
		if it["question"] == s.question {
			if it["answer"] != "Edited by cmsctl smoke." {
				return fmt.Errorf("the public API shows the answer %v", it["answer"])
			}
			return nil
		}
	}
	return fmt.Errorf("the record is not among the %d FAQs the public API lists", len(list))
}

func (s *smoke) upload(ctx context.Context) error {
	body := smokePNG()
	var ticket struct {
		URL    string            `json:"url"`
		Fields map[string]string `json:"fields"`
		Key    string            `json:"key"`
	}
	if _, err := s.api(ctx, "POST", "/media/uploads", map[string]any{"name": "smoke.png", "size": len(body), "mimeType": "image/png"}, &ticket); err != nil {
		return err
	}
	var form bytes.Buffer
	mw := multipart.NewWriter(&form)
	for k, v := range ticket.Fields {
		_ = mw.WriteField(k, v)
	}
	fw, _ := mw.CreateFormFile("file", "smoke.png")
	_, _ = fw.Write(body)
	_ = mw.Close()
	target, err := url.Parse(s.base + "/")
	if err != nil {
		return err
	}
	if target, err = target.Parse(ticket.URL); err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, "POST", target.String(), &form)
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", mw.FormDataContentType())
	resp, err := s.client.Do(req)
	if err != nil {
		return err
	}
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
	resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("presigned POST: %d %.200s", resp.StatusCode, raw)
	}
	var rec struct {
		ID      string `json:"id"`
		FileURL string `json:"fileUrl"`
	}
	if _, err := s.api(ctx, "POST", "/media", map[string]any{"key": ticket.Key, "name": "smoke.png"}, &rec); err != nil {
		return err
	}
	s.mediaID, s.mediaRef = rec.ID, rec.FileURL
	return nil
}

func (s *smoke) fetchMedia(ctx context.Context) error {
	u := s.objectPrefix + s.mediaRef
	if !strings.HasPrefix(u, "http") {
		u = s.base + u
	}
	_, got, err := s.get(ctx, u)
	if err == nil && !bytes.Equal(got, smokePNG()) {
		err = fmt.Errorf("GET %s: %d bytes, not the uploaded file", u, len(got))
	}
	return err
}

func (s *smoke) home(ctx context.Context) error {
	if s.website == "" {
		return errors.New("the tenant has no website address yet (no domain): pass --website")
	}
	h, page, err := s.get(ctx, s.website)
	switch {
	case err != nil:
		return err
	case !strings.HasPrefix(h.Get("Content-Type"), "text/html"):
		return fmt.Errorf("GET %s: %s", s.website, h.Get("Content-Type"))
	case !bytes.Contains(page, []byte("</html>")):
		return fmt.Errorf("GET %s: not a whole page", s.website)
	}
	return nil
}

// get reads a page or a file as a visitor does (no tenant header, no token): 200 or an error.
func (s *smoke) get(ctx context.Context, u string) (http.Header, []byte, error) {
	req, err := http.NewRequestWithContext(ctx, "GET", u, nil)
	if err != nil {
		return nil, nil, err
	}
	resp, err := s.client.Do(req)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	if err == nil && resp.StatusCode != http.StatusOK {
		err = fmt.Errorf("GET %s: %d", u, resp.StatusCode)
	}
	return resp.Header, body, err
}

// remove deletes a record and purges it from the trash.
func (s *smoke) remove(ctx context.Context, path, kind, id string) error {
	if _, err := s.api(ctx, "DELETE", path, nil, nil); err != nil {
		return err
	}
	var entries []struct {
		ID      string  `json:"id"`
		Version float64 `json:"version"`
	}
	if _, err := s.api(ctx, "GET", "/trash?kind="+kind, nil, &entries); err != nil {
		return err
	}
	for _, e := range entries {
		if e.ID == id {
			_, err := s.api(ctx, "DELETE", fmt.Sprintf("/trash/%s/%s/%d", kind, id, int(e.Version)), nil, nil)
			return err
		}
	}
	return fmt.Errorf("not found in the trash")
}

// smokePNG is the file the smoke test uploads: a small opaque PNG, the same bytes every time.
func smokePNG() []byte {
	img := image.NewRGBA(image.Rect(0, 0, 16, 16))
	for i := range img.Pix {
		img.Pix[i] = byte(i * 7)
	}
	for p := 3; p < len(img.Pix); p += 4 {
		img.Pix[p] = 255
	}
	img.Set(0, 0, color.RGBA{R: 1, G: 2, B: 3, A: 255})
	var b bytes.Buffer
	_ = png.Encode(&b, img)
	return b.Bytes()
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// localhostTransport dials *.localhost (the local server's website hosts) on 127.0.0.1, as
// browsers do; every other host resolves as usual.
func localhostTransport() http.RoundTripper {
	t := http.DefaultTransport.(*http.Transport).Clone()
	d := &net.Dialer{Timeout: 10 * time.Second}
	t.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		host, port, err := net.SplitHostPort(addr)
		if err == nil && strings.HasSuffix(host, ".localhost") {
			addr = net.JoinHostPort("127.0.0.1", port)
		}
		return d.DialContext(ctx, network, addr)
	}
	return t
}
