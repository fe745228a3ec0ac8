// Package maildev runs the local mailbox, MailDev (npm maildev 2.2.1, installed in
// tools/mailbox by the dev and test scripts), for the dev server and the Go tests, and reads
// what it caught through its REST API. It listens on 127.0.0.1 only: SMTP on one port (the
// panel's mail goes there), the web inbox and its API (GET /email, DELETE /email/all) on
// another.
package maildev

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/campuscms/panel/shared/localproc"
)

// InstallHint says how to install the mailbox (the scripts do it: scripts/lib.sh ensure_npm).
const InstallHint = "the local mailbox is not installed: run npm ci --prefix tools/mailbox (make dev and make test do it)"

// Options say where the mailbox listens and where it is installed.
type Options struct {
	// SMTPPort and WebPort on 127.0.0.1; 0 picks a free one.
	SMTPPort, WebPort int
	// Dir is the tools/mailbox folder; empty: MAILBOX_DIR, else found from the working
	// directory or the executable upwards (FindDir).
	Dir string
}

// Server is a running MailDev child process.
type Server struct {
	// URL is the web inbox (and its REST API): http://127.0.0.1:{WebPort}.
	URL      string
	SMTPPort int
	WebPort  int
	child    *localproc.Child
	mails    string
}

// FindDir returns the tools/mailbox folder holding an installed MailDev: MAILBOX_DIR, else the
// first tools/mailbox above the working directory or the executable.
func FindDir() (string, error) {
	if d := os.Getenv("MAILBOX_DIR"); d != "" {
		if !installed(d) {
			return "", fmt.Errorf("maildev: MAILBOX_DIR=%s: %s", d, InstallHint)
		}
		return d, nil
	}
	var starts []string
	if wd, err := os.Getwd(); err == nil {
		starts = append(starts, wd)
	}
	if exe, err := os.Executable(); err == nil {
		starts = append(starts, filepath.Dir(exe))
	}
	sawFolder := false
	for _, start := range starts {
		for dir := start; ; dir = filepath.Dir(dir) {
			candidate := filepath.Join(dir, "tools", "mailbox")
			if _, err := os.Stat(filepath.Join(candidate, "package.json")); err == nil {
				sawFolder = true
				if installed(candidate) {
					return candidate, nil
				}
			}
			if filepath.Dir(dir) == dir {
				break
			}
		}
	}
	if sawFolder {
		return "", errors.New("maildev: " + InstallHint)
	}
	return "", errors.New("maildev: no tools/mailbox above the working directory; set MAILBOX_DIR to the repository's tools/mailbox")
}

func script(dir string) string {
	return filepath.Join(dir, "node_modules", "maildev", "bin", "maildev")
}

func installed(dir string) bool {
	_, err := os.Stat(script(dir))
	return err == nil
}

// Start launches MailDev on 127.0.0.1 and waits until its inbox answers. Its mail is kept in a
// fresh temporary folder, removed by Stop.
func Start(ctx context.Context, opts Options) (*Server, error) {
	dir := opts.Dir
	if dir == "" {
		var err error
		if dir, err = FindDir(); err != nil {
			return nil, err
		}
	} else if !installed(dir) {
		return nil, fmt.Errorf("maildev: %s: %s", dir, InstallHint)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		return nil, errors.New("maildev: node is not installed (Node.js 18 or later runs the local mailbox)")
	}
	smtpPort, webPort := opts.SMTPPort, opts.WebPort
	for _, p := range []struct {
		port *int
		env  string
	}{{&smtpPort, "MAIL_SMTP_PORT"}, {&webPort, "MAIL_PORT"}} {
		if *p.port == 0 {
			if *p.port, err = localproc.FreePort(); err != nil {
				return nil, fmt.Errorf("maildev: %w", err)
			}
		} else if localproc.InUse(*p.port) {
			return nil, fmt.Errorf("maildev: port %d is already in use (another dev server or mailbox?); set %s to use another", *p.port, p.env)
		}
	}
	mails, err := os.MkdirTemp("", "maildev-")
	if err != nil {
		return nil, fmt.Errorf("maildev: %w", err)
	}
	s := &Server{URL: fmt.Sprintf("http://127.0.0.1:%d", webPort), SMTPPort: smtpPort, WebPort: webPort, mails: mails}
	cmd := exec.Command(node, script(dir),
		"--smtp", strconv.Itoa(smtpPort), "--web", strconv.Itoa(webPort),
		"--ip", "127.0.0.1", "--web-ip", "127.0.0.1", "--mail-directory", mails)
	if s.child, err = localproc.Start("maildev", cmd); err != nil {
		os.RemoveAll(mails)
		return nil, err
	}
	if err := s.waitReady(ctx); err != nil {
		s.Stop()
		return nil, err
	}
	return s, nil
}

func (s *Server) waitReady(ctx context.Context) error {
	return s.child.WaitReady(ctx, 60*time.Second, 100*time.Millisecond, func(ctx context.Context) bool {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, s.URL+"/healthz", nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK && localproc.InUse(s.SMTPPort)
	})
}

// Stop ends the mailbox and removes what it caught.
func (s *Server) Stop() {
	if s == nil || s.child == nil {
		return
	}
	defer os.RemoveAll(s.mails)
	s.child.Stop(3 * time.Second)
}

// Exited is closed when the mailbox process has ended.
func (s *Server) Exited() <-chan struct{} { return s.child.Exited() }

// Log is the last lines the mailbox wrote.
func (s *Server) Log() string { return s.child.Log() }

// Address is a sender or recipient as MailDev shows it.
type Address struct {
	Address string `json:"address"`
	Name    string `json:"name"`
}

// Mail is one message the mailbox caught (GET /email): its parts decoded, its headers by
// lower-cased name.
type Mail struct {
	ID      string         `json:"id"`
	Subject string         `json:"subject"`
	Text    string         `json:"text"`
	HTML    string         `json:"html"`
	From    []Address      `json:"from"`
	To      []Address      `json:"to"`
	Headers map[string]any `json:"headers"`
	Time    time.Time      `json:"time"`
}

// Header returns a header's value (the first, when repeated); "" when absent.
func (m Mail) Header(name string) string {
	switch v := m.Headers[strings.ToLower(name)].(type) {
	case string:
		return v
	case []any:
		if len(v) > 0 {
			s, _ := v[0].(string)
			return s
		}
	}
	return ""
}

// HeaderCount is how many times a header appears.
func (m Mail) HeaderCount(name string) int {
	switch v := m.Headers[strings.ToLower(name)].(type) {
	case string:
		return 1
	case []any:
		return len(v)
	}
	return 0
}

// SentTo reports whether the mail is addressed to address (case-insensitive).
func (m Mail) SentTo(address string) bool {
	for _, a := range m.To {
		if strings.EqualFold(a.Address, address) {
			return true
		}
	}
	return false
}

// Messages lists every mail the mailbox at url (its web address) holds, oldest first.
func Messages(ctx context.Context, url string) ([]Mail, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimSuffix(url, "/")+"/email", nil)
	if err != nil {
		return nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, fmt.Errorf("maildev: list: %w", err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("maildev: list: %d %.200s", resp.StatusCode, raw)
	}
	var out []Mail
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, fmt.Errorf("maildev: list: %w", err)
	}
	return out, nil
}

// DeleteAll empties the mailbox at url.
func DeleteAll(ctx context.Context, url string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodDelete, strings.TrimSuffix(url, "/")+"/email/all", nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("maildev: delete: %w", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("maildev: delete: %d", resp.StatusCode)
	}
	return nil
}
