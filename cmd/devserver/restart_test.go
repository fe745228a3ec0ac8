package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestWhatWasMadeSurvivesARestart runs the dev server as make dev does (its own emulator, keeping
// its data in a folder), creates a record and uploads a file, stops it as Ctrl-C does, starts it
// again on the same folder and finds both.
func TestWhatWasMadeSurvivesARestart(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the dev server twice")
	}
	dir := t.TempDir()
	bin := buildDevServer(t, dir)
	site := filepath.Join(dir, "site")
	must(t, os.MkdirAll(site, 0o755))
	must(t, os.WriteFile(filepath.Join(site, "index.html"), []byte("<!doctype html><title>panel</title>"), 0o644))
	data := filepath.Join(dir, "data")

	first := startDevServer(t, bin, site, data)
	c := devClient{t: t, base: first.url}
	c.signIn()
	var faq struct {
		ID string `json:"id"`
	}
	c.api("POST", "/faqs", map[string]any{"question": "Does it survive a restart?", "answer": "It does."}, &faq)
	fileURL := c.upload("kept.txt", []byte("kept between runs"))
	first.stop()

	second := startDevServer(t, bin, site, data)
	c = devClient{t: t, base: second.url}
	c.signIn()
	c.api("GET", "/auth/tenant-info", nil, nil)
	var got map[string]any
	c.api("GET", "/faqs/"+faq.ID, nil, &got)
	if got["question"] != "Does it survive a restart?" {
		t.Fatalf("after the restart the record reads %v", got)
	}
	if body := c.get(fileURL); string(body) != "kept between runs" {
		t.Fatalf("after the restart the file reads %q", body)
	}
	second.stop()
	t.Logf("first run:\n%s\nsecond run:\n%s", first.log, second.log)
}

// buildDevServer builds the dev server into dir.
func buildDevServer(t *testing.T, dir string) string {
	t.Helper()
	bin := filepath.Join(dir, "devserver")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

type devServer struct {
	t   *testing.T
	cmd *exec.Cmd
	url string
	log *bytes.Buffer
	// mailbox is the address of its local mailbox; motoURL its emulator's.
	mailbox, motoURL string
}

func startDevServer(t *testing.T, bin, site, data string) *devServer {
	t.Helper()
	port, moto, mailPort, smtpPort := freePort(t), freePort(t), freePort(t), freePort(t)
	cmd := exec.Command(bin)
	cmd.Dir = t.TempDir()
	// This test binary points the SDK at its own emulator and table: the dev server gets none of
	// that, as a newcomer's shell has none.
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "AWS_") && !strings.HasPrefix(kv, "TABLE_NAME=") && !strings.HasPrefix(kv, "MEDIA_BUCKET=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	// The mailbox from this repository's tools/mailbox (the server runs in a folder of its own).
	mailboxDir, err := filepath.Abs(filepath.Join("..", "..", "tools", "mailbox"))
	must(t, err)
	cmd.Env = append(cmd.Env, fmt.Sprint("PORT=", port), fmt.Sprint("MOTO_PORT=", moto), "SITE_DIR="+site, "DEV_DATA="+data,
		"DEMO_ADMIN_PASSWORD=restart-pass-1", fmt.Sprint("MAIL_PORT=", mailPort), fmt.Sprint("MAIL_SMTP_PORT=", smtpPort),
		"MAILBOX_DIR="+mailboxDir, "MAIL_INTERVAL=1s")
	s := &devServer{t: t, cmd: cmd, url: fmt.Sprintf("http://127.0.0.1:%d", port), log: &bytes.Buffer{},
		mailbox: fmt.Sprintf("http://127.0.0.1:%d", mailPort), motoURL: fmt.Sprintf("http://127.0.0.1:%d", moto)}
	cmd.Stdout, cmd.Stderr = s.log, s.log
	must(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	deadline := time.Now().Add(2 * time.Minute)
	for {
		resp, err := http.Get(s.url + "/api/health")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return s
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the dev server did not answer:\n%s", s.log)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// stop ends the server as Ctrl-C does and waits for it (and its emulator) to exit.
func (s *devServer) stop() {
	s.t.Helper()
	must(s.t, s.cmd.Process.Signal(syscall.SIGINT))
	done := make(chan error, 1)
	go func() { done <- s.cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(2 * time.Minute):
		s.t.Fatalf("the dev server did not stop:\n%s", s.log)
	}
	if !strings.Contains(s.log.String(), "emulator: kept") {
		s.t.Fatalf("the emulator did not say it kept its data:\n%s", s.log)
	}
}

func freePort(t *testing.T) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	must(t, err)
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// devClient speaks to the dev server as the panel does.
type devClient struct {
	t                         *testing.T
	base, token, objectPrefix string
}

func (c *devClient) signIn() {
	var res struct {
		Token string `json:"token"`
	}
	c.api("POST", "/auth/login", map[string]any{"username": demoUsername, "password": "restart-pass-1"}, &res)
	c.token = res.Token
}

func (c *devClient) api(method, path string, body, out any) {
	c.t.Helper()
	var rd io.Reader
	if body != nil {
		raw, _ := json.Marshal(body)
		rd = bytes.NewReader(raw)
	}
	req, _ := http.NewRequestWithContext(context.Background(), method, c.base+"/api/v1/tenant"+path, rd)
	req.Header.Set("X-Tenant-Id", demoTenant)
	req.Header.Set("Content-Type", "application/json")
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	resp, err := http.DefaultClient.Do(req)
	must(c.t, err)
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var env struct {
		Result          json.RawMessage `json:"result"`
		ObjectURLPrefix string          `json:"objectUrlPrefix"`
	}
	if resp.StatusCode/100 != 2 || json.Unmarshal(raw, &env) != nil || (out != nil && json.Unmarshal(env.Result, out) != nil) {
		c.t.Fatalf("%s %s: %d %.300s", method, path, resp.StatusCode, raw)
	}
	if env.ObjectURLPrefix != "" {
		c.objectPrefix = env.ObjectURLPrefix
	}
}

// upload sends a file as the Media Library does (upload ticket, form POST, confirmation) and
// returns its address.
func (c *devClient) upload(name string, body []byte) string {
	c.t.Helper()
	var ticket struct {
		URL    string            `json:"url"`
		Fields map[string]string `json:"fields"`
		Key    string            `json:"key"`
	}
	c.api("POST", "/media/uploads", map[string]any{"name": name, "size": len(body), "mimeType": "text/plain"}, &ticket)
	var form bytes.Buffer
	mw := multipart.NewWriter(&form)
	for k, v := range ticket.Fields {
		must(c.t, mw.WriteField(k, v))
	}
	fw, _ := mw.CreateFormFile("file", name)
	_, _ = fw.Write(body)
	must(c.t, mw.Close())
	target := ticket.URL
	if strings.HasPrefix(target, "/") {
		target = c.base + target
	}
	resp, err := http.Post(target, mw.FormDataContentType(), &form)
	must(c.t, err)
	raw, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		c.t.Fatalf("upload: %d %.300s", resp.StatusCode, raw)
	}
	var rec struct {
		FileURL string `json:"fileUrl"`
	}
	c.api("POST", "/media", map[string]any{"key": ticket.Key, "name": name}, &rec)
	return rec.FileURL
}

func (c *devClient) get(ref string) []byte {
	c.t.Helper()
	if !strings.HasPrefix(ref, "http") {
		ref = c.objectPrefix + ref
	}
	if strings.HasPrefix(ref, "/") {
		ref = c.base + ref
	}
	resp, err := http.Get(ref)
	must(c.t, err)
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		c.t.Fatalf("GET %s: %d %.200s", ref, resp.StatusCode, raw)
	}
	return raw
}
