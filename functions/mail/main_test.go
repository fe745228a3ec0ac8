package main

import (
	"context"
	"strings"
	"testing"
)

// TestBuildReadsTheConfigurationOnce: the function starts with the stack's environment (SES
// through the configuration set) and refuses, before serving anything, one that would send from
// an unverified setup.
func TestBuildReadsTheConfigurationOnce(t *testing.T) {
	t.Setenv("AWS_ENDPOINT_URL", "http://127.0.0.1:1")
	t.Setenv("TABLE_NAME", "cms")
	for _, c := range []struct {
		name, transport, configSet, domain, wantErr string
	}{
		{"ses", "ses", "campuscms-mail", "mail.example.org", ""},
		{"off", "off", "", "", ""},
		{"ses without a configuration set", "ses", "", "mail.example.org", "MAIL_CONFIGURATION_SET"},
		{"an unknown transport", "carrier-pigeon", "", "", "MAIL_TRANSPORT"},
		{"a domain that is none", "ses", "campuscms-mail", "mail example", "MAIL_DOMAIN"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("MAIL_TRANSPORT", c.transport)
			t.Setenv("MAIL_CONFIGURATION_SET", c.configSet)
			t.Setenv("MAIL_DOMAIN", c.domain)
			h, err := build(context.Background())
			if c.wantErr == "" && (err != nil || h == nil) {
				t.Fatalf("build: %v", err)
			}
			if c.wantErr != "" && (err == nil || !strings.Contains(err.Error(), c.wantErr)) {
				t.Fatalf("build: %v, want an error naming %s", err, c.wantErr)
			}
		})
	}
}
