// Package audit is the tenant's audit log: one entry for every accepted write, sign-in (success
// and failure), sign-out, restore and export, written in the same transaction as what it
// records, so a refused write records nothing and an accepted one is never missing. Entries are
// never edited or deleted by any route; DynamoDB's TTL removes them after Retention. It depends
// on the store alone, so the collections engine and the auth package both write through it.
package audit

import (
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/campuscms/panel/shared/ids"
	"github.com/campuscms/panel/shared/listing"
	"github.com/campuscms/panel/shared/store"
)

// Retention is how long an entry is kept.
const Retention = 365 * 24 * time.Hour

// Actions an entry records beside the collections' create, update, delete and restore.
const (
	ActionLogin       = "login"
	ActionLoginFailed = "login-failed"
	ActionLogout      = "logout"
	ActionExport      = "export"
	// Sessions ended by the user (every other one) or by an administrator (all of a user's).
	ActionSignOutOthers = "sign-out-others"
	ActionSignOutUser   = "sign-out-user"
)

// Client is where a request came from.
type Client struct {
	Address   string
	UserAgent string
}

// maxUserAgent bounds what an entry keeps of a User-Agent header (clients send anything).
const maxUserAgent = 300

// ClientOf is the request's client: CloudFront's CloudFront-Viewer-Address (which CloudFront
// sets itself, overwriting whatever a viewer sent) when the request came through it, else the
// connection's address; X-Forwarded-For is not used, a client can write its first entries.
func ClientOf(r *http.Request) Client {
	c := Client{UserAgent: r.UserAgent()}
	if len(c.UserAgent) > maxUserAgent {
		c.UserAgent = c.UserAgent[:maxUserAgent]
	}
	if v := r.Header.Get("CloudFront-Viewer-Address"); v != "" {
		// "ip:port", IPv6 unbracketed ("2001:db8::1:443"): the port is after the last colon.
		if i := strings.LastIndexByte(v, ':'); i > 0 {
			c.Address = v[:i]
		} else {
			c.Address = v
		}
		return c
	}
	if host, _, err := net.SplitHostPort(r.RemoteAddr); err == nil {
		c.Address = host
	} else {
		c.Address = r.RemoteAddr
	}
	return c
}

// Entry is one audited event.
type Entry struct {
	At       time.Time
	UserID   string
	Username string
	Action   string
	// Collection and RecordID name what a write changed ("menu" for the menu tree).
	Collection string
	RecordID   string
	// Changed names the fields a write changed; never their values.
	Changed []string
	Client  Client
}

// item is an entry as stored: newest first by its sort key in the tenant's audit partition, and
// by the same key under its user (GSI1), its collection (GSI2) and its action (GSI3), so each
// filter reads one index range at a cost that does not grow with the log.
type item struct {
	PK         string   `dynamo:"PK" json:"-"`
	SK         string   `dynamo:"SK" json:"-"`
	GSI1PK     string   `dynamo:"GSI1PK,omitempty" json:"-"`
	GSI1SK     string   `dynamo:"GSI1SK,omitempty" json:"-"`
	GSI2PK     string   `dynamo:"GSI2PK,omitempty" json:"-"`
	GSI2SK     string   `dynamo:"GSI2SK,omitempty" json:"-"`
	GSI3PK     string   `dynamo:"GSI3PK" json:"-"`
	GSI3SK     string   `dynamo:"GSI3SK" json:"-"`
	ID         string   `dynamo:"id" json:"id"`
	At         string   `dynamo:"at" json:"at"`
	UserID     string   `dynamo:"userId,omitempty" json:"userId"`
	Username   string   `dynamo:"username,omitempty" json:"username"`
	Action     string   `dynamo:"action" json:"action"`
	Collection string   `dynamo:"collection,omitempty" json:"collection"`
	RecordID   string   `dynamo:"recordId,omitempty" json:"recordId"`
	Changed    []string `dynamo:"changed,omitempty" json:"changed"`
	Address    string   `dynamo:"address,omitempty" json:"address"`
	UserAgent  string   `dynamo:"userAgent,omitempty" json:"userAgent"`
	ExpiresAt  int64    `dynamo:"expiresAt" json:"-"`
}

func partition(scope store.Scope, parts ...string) string {
	return scope.Partition(append([]string{"AUDIT"}, parts...)...)
}

// Item is the table item that records e for the scope's tenant, to be put in the transaction of
// what it records.
func Item(scope store.Scope, e Entry) any {
	id := ids.New()
	sk := listing.TimeKey(e.At) + "#" + id
	it := item{PK: partition(scope), SK: sk, ID: id, At: e.At.UTC().Format(time.RFC3339Nano), UserID: e.UserID,
		Username: e.Username, Action: e.Action, Collection: e.Collection, RecordID: e.RecordID, Changed: e.Changed,
		Address: e.Client.Address, UserAgent: e.Client.UserAgent, ExpiresAt: e.At.Add(Retention).Unix(),
		GSI3PK: partition(scope, "ACT", e.Action), GSI3SK: sk}
	if e.UserID != "" {
		it.GSI1PK, it.GSI1SK = partition(scope, "USER", e.UserID), sk
	}
	if e.Collection != "" {
		it.GSI2PK, it.GSI2SK = partition(scope, "COLL", e.Collection), sk
	}
	return it
}
