package main

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"

	"github.com/campuscms/panel/shared/mail"
	"github.com/campuscms/panel/shared/mail/maildev"
	"github.com/campuscms/panel/shared/store"
)

// TestDevServerSendsMailToItsMailbox runs the dev server as make dev does: it starts the local
// mailbox beside the emulator and prints its address beside the panel's; mail written to the
// outbox of its table reaches that mailbox through its worker; stopping the server stops the
// mailbox.
func TestDevServerSendsMailToItsMailbox(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the dev server")
	}
	dir := t.TempDir()
	bin := buildDevServer(t, dir)
	site := filepath.Join(dir, "site")
	must(t, os.MkdirAll(site, 0o755))
	must(t, os.WriteFile(filepath.Join(site, "index.html"), []byte("<!doctype html><title>panel</title>"), 0o644))
	s := startDevServer(t, bin, site, filepath.Join(dir, "data"))
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(s.log.String(), "Mailbox at "+s.mailbox+"/") {
		if time.Now().After(deadline) {
			t.Fatalf("no \"Mailbox at %s/\" line:\n%s", s.mailbox, s.log)
		}
		time.Sleep(50 * time.Millisecond)
	}

	// A mail enqueued in the dev server's own table, as a feature's transaction does.
	cfg := aws.Config{Region: "us-east-1", BaseEndpoint: aws.String(s.motoURL),
		Credentials: credentials.NewStaticCredentialsProvider("test", "test", "")}
	st := store.New(cfg, "cms")
	scope, err := store.NewScope(demoTenant)
	must(t, err)
	to := "newcomer@example.org"
	msg := mail.Message{To: to, FromName: demoName, Subject: "Welcome to the mailbox", Kind: "test"}
	must(t, msg.Render(mail.TemplateMessage, mail.Notice{Body: "It arrived."}))
	out, err := mail.Enqueue(st, scope, msg)
	must(t, err)
	tx := st.WriteTx()
	store.AddToTx(tx, out.Put)
	must(t, tx.Run(context.Background()))

	deadline = time.Now().Add(20 * time.Second)
	for {
		all, err := maildev.Messages(context.Background(), s.mailbox)
		must(t, err)
		if len(all) == 1 && all[0].SentTo(to) {
			if all[0].Subject != msg.Subject || !strings.Contains(all[0].Text, "It arrived.") || all[0].From[0].Name != demoName {
				t.Fatalf("mail %+v", all[0])
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("mailbox holds %d mails after 20 s:\n%s", len(all), s.log)
		}
		time.Sleep(200 * time.Millisecond)
	}
	s.stop()
	if resp, err := http.Get(s.mailbox + "/healthz"); err == nil {
		resp.Body.Close()
		t.Fatal("the mailbox still answers after the dev server stopped")
	}
}
