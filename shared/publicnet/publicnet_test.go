package publicnet

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestPublic(t *testing.T) {
	for addr, want := range map[string]bool{
		"93.184.216.34": true, "2606:2800:220:1:248:1893:25c8:1946": true,
		"127.0.0.1": false, "::1": false, "10.1.2.3": false, "172.16.0.1": false, "192.168.1.1": false,
		"169.254.169.254": false, "fe80::1": false, "fd00::1": false, "0.0.0.0": false, "224.0.0.1": false,
		"100.64.0.1": false, "::ffff:127.0.0.1": false, "::ffff:100.64.0.1": false,
	} {
		if got := Public(net.ParseIP(addr)); got != want {
			t.Errorf("Public(%s) = %v, want %v", addr, got, want)
		}
	}
}

// A server on loopback is never reached through the dialer.
func TestDialerRefusesLoopback(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { t.Error("reached") }))
	defer srv.Close()
	client := &http.Client{Transport: &http.Transport{DialContext: Dialer(time.Second).DialContext}}
	req, _ := http.NewRequestWithContext(context.Background(), http.MethodGet, srv.URL, nil)
	_, err := client.Do(req)
	if err == nil || !strings.Contains(err.Error(), "is not a public address") {
		t.Fatalf("dial loopback: %v", err)
	}
}
