package auth

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/guregu/dynamo/v2"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/ids"
	"github.com/campuscms/panel/shared/mail"
	"github.com/campuscms/panel/shared/store"
)

// Password reset (issue 33): "Forgot password?" asks for a username or an email and always
// answers the same, in the same time, whether or not an account matches; a matching active user
// with an email gets a single-use link to the panel's /reset-password, valid ResetTTL, at most
// MaxResetMails an hour. The link's token is stored only as its SHA-256, under the tenant, bound
// to the user; using it sets the new password under the password rules, ends every session of
// the user and records the change (its version and audit entry, through the Recorder) in one
// transaction with the token's delete. Two-factor sign-in is untouched: the next sign-in still
// asks for the code.

// Limits of the reset.
const (
	// ResetTTL is how long a reset link works.
	ResetTTL = 30 * time.Minute
	// MaxResetMails is how many reset mails one user gets within ResetWindow.
	MaxResetMails = 3
	ResetWindow   = time.Hour
	// maxResetTargets bounds the accounts one request mails (several may share an email).
	maxResetTargets = 5
	// maxEmailScan bounds the users an email lookup reads (a Query of the tenant's users).
	maxEmailScan = 2000
	kindReset    = "RESET"
	// resetTokenBytes is the random part of a token: 32 bytes, 43 base64url characters.
	resetTokenBytes = 32
	// resetFloor is the least time a reset request takes, whatever it finds: well above what
	// the work takes (a few reads and one transaction), so the time of an answer tells nothing.
	resetFloor = 300 * time.Millisecond
)

// Messages of the reset, shown by the panel as they are.
const (
	// MsgResetSent is the one answer to every well-formed reset request.
	MsgResetSent       = "If the account exists, we have sent an email"
	MsgResetDone       = "Your password has been changed. Sign in with your new password."
	MsgResetLinkBad    = "This password reset link has expired or has already been used. Ask for a new one."
	msgResetNameNeeded = "Enter your username or email."
	msgResetNameShape  = "Enter a valid username or email."
	msgResetPassword   = "Choose a new password."
	// ResetSubject is the reset mail's subject.
	ResetSubject = "Reset your password"
)

// resetToken is the stored side of a reset link: the hash of its token is the key.
type resetToken struct {
	PK        string    `dynamo:"PK,hash"`
	SK        string    `dynamo:"SK,range"`
	Tenant    string    `dynamo:"tenant"`
	UserID    string    `dynamo:"userId"`
	CreatedAt time.Time `dynamo:"createdAt"`
	ExpiresAt time.Time `dynamo:"expiresAt,unixtime"`
}

// ResetTokenKey is the key of the stored reset token: its SHA-256 under the tenant (the token
// itself is never stored).
func ResetTokenKey(scope store.Scope, token string) store.Key {
	sum := sha256.Sum256([]byte(token))
	return store.Key{PK: scope.Partition(kindReset), SK: "TOKEN#" + hex.EncodeToString(sum[:])}
}

// resetLimitKey is the key of the counter of reset mails of user id within the window.
func resetLimitKey(scope store.Scope, id string) store.Key {
	return store.Key{PK: scope.Partition(kindReset), SK: "LIMIT#" + id}
}

// validResetToken reports whether s has the shape of a token (43 base64url characters).
func validResetToken(s string) bool {
	if len(s) != 43 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// WithMail sets the nudger told about reset mail once its transaction committed (the process's,
// mailapp.Nudger); without one the worker's schedule sends it.
func (s *Service) WithMail(n mail.Nudger) *Service {
	s.nudger = n
	return s
}

func (s *Service) registerReset(mux api.Mux, base string) {
	mux.Handle("POST "+base+"/auth/password-reset", s.guard.Public(s.requestReset))
	mux.Handle("POST "+base+"/auth/password-reset/confirm", s.guard.Public(s.confirmReset))
}

// requestReset serves POST /auth/password-reset {username}: a username or an email.
func (s *Service) requestReset(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		Username string `json:"username"`
	}
	if err := api.Decode(r, &in); err != nil {
		return err
	}
	name := strings.TrimSpace(in.Username)
	if name == "" {
		return api.FieldError(http.StatusBadRequest, "username", msgResetNameNeeded)
	}
	byName, byEmail := ValidateUsername(name) == "", mail.ValidAddress(name)
	if !byName && !byEmail {
		// No account can have it, whoever asks: its shape says so, not the accounts (and a line
		// break or control character never gets near a mail).
		return api.FieldError(http.StatusBadRequest, "username", msgResetNameShape)
	}
	ctx, c, now := r.Context(), CallerFrom(r.Context()), s.now()
	// What is left of a difference in time (a transaction that writes against one that checks)
	// is hidden under a floor: no answer comes sooner than resetFloor after the request.
	defer waitUntil(ctx, time.Now().Add(resetFloor))
	origin, err := s.panelOrigin(r)
	if err != nil {
		return err
	}
	// The same reads whether or not an account matches: the username's marker and a user (a
	// made-up id when there is no marker), the footer (the reply-to), and, for an email, the
	// tenant's users; then one transaction of the same size (a decoy of condition checks that
	// writes nothing when no account gets mail), so neither the answer nor its time tells.
	targets, err := s.resetTargets(ctx, c.Scope, name, byName, byEmail)
	if err != nil {
		return err
	}
	replyTo := s.footerEmail(ctx, c.Scope)
	for _, u := range targets {
		out, ok, err := s.sendReset(ctx, c, &u, origin, replyTo, now)
		if err != nil {
			return err
		}
		if ok {
			if s.nudger != nil {
				s.nudger.Nudge(context.WithoutCancel(ctx), out)
			}
		}
	}
	if len(targets) == 0 {
		if err := s.decoyReset(ctx, c.Scope, name, origin); err != nil {
			return err
		}
	}
	return api.JSON(w, http.StatusOK, api.Envelope{Result: true, Message: MsgResetSent})
}

// waitUntil returns at t, or when ctx ends.
func waitUntil(ctx context.Context, t time.Time) {
	d := time.Until(t)
	if d <= 0 {
		return
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
	case <-ctx.Done():
	}
}

// resetTargets are the active users with an address that name stands for: the user of that
// username, and for an email every user having it (at most maxResetTargets).
func (s *Service) resetTargets(ctx context.Context, scope store.Scope, name string, byName, byEmail bool) ([]User, error) {
	var out []User
	seen := map[string]bool{}
	add := func(u User) {
		if u.Status && mail.ValidAddress(u.Email) && !seen[u.ID] && len(out) < maxResetTargets {
			seen[u.ID] = true
			out = append(out, u)
		}
	}
	if byName {
		var marker usernameMarker
		err := s.st.Get(ctx, UsernameKey(scope, name), &marker)
		if err != nil && !store.IsNotFound(err) {
			return nil, err
		}
		id := marker.UserID
		if id == "" {
			id = "0000000000000000000000NONE" // read all the same: the same time as a user's read
		}
		u, err := s.users.Get(ctx, scope, id)
		if err != nil && !store.IsNotFound(err) {
			return nil, err
		}
		if err == nil && marker.UserID != "" {
			add(u)
		}
	}
	if byEmail {
		// Emails are not unique nor indexed: one bounded Query of the tenant's users, whatever
		// the name (so a username shaped like an address costs the same as an unknown one).
		var start dynamo.PagingKey
		read := 0
		for read < maxEmailScan {
			var page []User
			q := s.st.Table.Get("PK", scope.Collection(KindUsers)).Project("PK", "SK", "id", "username", "email", "status", "firstName").
				SearchLimit(500)
			if start != nil {
				q.StartFrom(start)
			}
			next, err := q.AllWithLastEvaluatedKey(ctx, &page)
			if err != nil {
				return nil, store.Wrap("find users by email", err)
			}
			read += len(page)
			for _, p := range page {
				if strings.EqualFold(strings.TrimSpace(p.Email), name) {
					u, err := s.users.Get(ctx, scope, p.ID)
					if err != nil && !store.IsNotFound(err) {
						return nil, err
					}
					if err == nil {
						add(u)
					}
				}
			}
			if next == nil {
				break
			}
			start = next
		}
	}
	return out, nil
}

// footerEmail is the footer's contact email, the reset mail's reply-to ("" when it has none).
func (s *Service) footerEmail(ctx context.Context, scope store.Scope) string {
	var footer struct {
		ContactEmail string `dynamo:"contactEmail"`
	}
	if err := s.st.Get(ctx, store.Key{PK: scope.Root(), SK: "FOOTER"}, &footer); err != nil {
		return ""
	}
	if e := strings.TrimSpace(footer.ContactEmail); mail.ValidAddress(e) {
		return e
	}
	return ""
}

// resetMail is the reset mail to u with link.
func resetMail(tenant store.Tenant, u *User, to, replyTo, link string) (mail.Message, error) {
	msg := mail.Message{To: to, FromName: fromName(tenant.Name), ReplyTo: replyTo, Subject: ResetSubject, Kind: mail.KindPasswordReset}
	err := msg.Render("password-reset", struct {
		Name, Username, Link string
		Minutes              int
	}{Name: u.FirstName, Username: u.Username, Link: link, Minutes: int(ResetTTL.Minutes())})
	return msg, err
}

// fromName is the institution's name as a display name: one line, at most mail.MaxNameLength.
func fromName(name string) string {
	name = strings.Join(strings.FieldsFunc(name, func(r rune) bool { return r < 0x20 || r == 0x7f || r == '\u2028' || r == '\u2029' }), " ")
	if rs := []rune(name); len(rs) > mail.MaxNameLength {
		name = string(rs[:mail.MaxNameLength])
	}
	return strings.TrimSpace(name)
}

// sendReset writes, in one transaction, one use of u's hourly allowance, a new token and its
// mail; ok false (nothing written) once the allowance is used up.
func (s *Service) sendReset(ctx context.Context, c *Caller, u *User, origin, replyTo string, now time.Time) (store.Key, bool, error) {
	token := ids.Secret(resetTokenBytes)
	tk := ResetTokenKey(c.Scope, token)
	link := resetLink(origin, c.Scope.Tenant(), token)
	msg, err := resetMail(c.Tenant, u, u.Email, replyTo, link)
	if err != nil {
		return store.Key{}, false, err
	}
	out, err := mail.Enqueue(s.st, c.Scope, msg)
	if err != nil {
		return store.Key{}, false, err
	}
	item := resetToken{PK: tk.PK, SK: tk.SK, Tenant: c.Scope.Tenant(), UserID: u.ID, CreatedAt: now.UTC(), ExpiresAt: now.Add(ResetTTL)}
	lk := resetLimitKey(c.Scope, u.ID)
	// Two rounds: within a live window one more use if any is left; else a new window, unless
	// one just started.
	for range 2 {
		live := s.st.Table.Update("PK", lk.PK).Range("SK", lk.SK).Add("count", 1).
			If("attribute_exists(PK) AND expiresAt > ? AND $ < ?", now.Unix(), "count", MaxResetMails)
		tx := s.st.WriteTx().Update(live).Put(s.st.Table.Put(item).If("attribute_not_exists(PK)")).Put(out.Put)
		err := tx.Run(ctx)
		if err == nil {
			return out.Key, true, nil
		}
		if !store.CondFailedAt(err, 0) {
			return store.Key{}, false, store.Wrap("request password reset", err)
		}
		var counter attemptCounter
		if err := s.st.Get(ctx, lk, &counter); err != nil && !store.IsNotFound(err) {
			return store.Key{}, false, err
		}
		if counter.PK != "" && counter.ExpiresAt.After(now) && counter.Count >= MaxResetMails {
			return store.Key{}, false, nil
		}
		fresh := attemptCounter{PK: lk.PK, SK: lk.SK, Count: 1, ExpiresAt: now.Add(ResetWindow)}
		tx = s.st.WriteTx().Put(s.st.Table.Put(fresh).If("attribute_not_exists(PK) OR expiresAt <= ?", now.Unix())).
			Put(s.st.Table.Put(item).If("attribute_not_exists(PK)")).Put(out.Put)
		err = tx.Run(ctx)
		if err == nil {
			return out.Key, true, nil
		}
		if !store.CondFailedAt(err, 0) {
			return store.Key{}, false, store.Wrap("request password reset", err)
		}
	}
	return store.Key{}, false, nil
}

// decoyReset does what a reset of an account does, writing nothing: a mail rendered and checked,
// a token hashed, one transaction of three condition checks on keys nobody has, and the
// counter's read.
func (s *Service) decoyReset(ctx context.Context, scope store.Scope, name, origin string) error {
	token := ids.Secret(resetTokenBytes)
	tk := ResetTokenKey(scope, token)
	u := User{ID: "0000000000000000000000NONE", Username: name, FirstName: name}
	msg, err := resetMail(store.Tenant{}, &u, "nobody@example.org", "", resetLink(origin, scope.Tenant(), token))
	if err != nil {
		return err
	}
	if _, err := mail.Enqueue(s.st, scope, msg); err != nil {
		return err
	}
	lk := resetLimitKey(scope, u.ID)
	ok := s.st.Table.Check("PK", lk.PK).Range("SK", lk.SK).If("attribute_not_exists(PK)")
	err = s.st.WriteTx().Check(ok).
		Check(s.st.Table.Check("PK", tk.PK).Range("SK", tk.SK).If("attribute_not_exists(PK)")).
		Check(s.st.Table.Check("PK", mail.OutboxPartition(scope)).Range("SK", "NONE#"+token).If("attribute_not_exists(PK)")).
		Run(ctx)
	if err != nil && !dynamo.IsCondCheckFailed(err) {
		return store.Wrap("request password reset", err)
	}
	return nil
}

// resetLink is the panel's reset screen for token: /reset-password?token=…, with the tenant
// (the screen sends it as X-Tenant-Id, as the login screen does).
func resetLink(origin, tenant, token string) string {
	return origin + "/reset-password?token=" + url.QueryEscape(token) + "&tenant=" + url.QueryEscape(tenant)
}

// errNoPanelURL answers a reset request on a deployment that does not say where its panel is.
var errNoPanelURL = api.Errorf(http.StatusServiceUnavailable, "Password reset is not available: the deployment does not set the panel's address (PANEL_URL).")

// errNoPanelAddress answers a reset request whose panel address cannot be told.
var errNoPanelAddress = api.Errorf(http.StatusBadRequest, "The panel's address could not be determined from this request.")

// panelOrigin is scheme://host of the panel the reset link points at: PANEL_URL when the
// deployment sets it (config.PanelURL; required behind CloudFront, where no request may choose
// where a link points), else, locally, the request's validated host (X-Site-Host, else Host, as public.RequestOrigin reads it: a
// well-formed name, never a path or user info), https but on a loopback name, whose port is
// kept (the local server at 127.0.0.1:PORT).
func (s *Service) panelOrigin(r *http.Request) (string, error) {
	if s.panelURL != "" {
		return s.panelURL, nil
	}
	if s.cfg.PanelURL != "" {
		return s.cfg.PanelURL, nil
	}
	if s.cfg.OriginSecret != "" {
		// Behind CloudFront the API sees no Host of the panel's, and X-Site-Host comes from the
		// viewer on the panel's API: a link there could point anywhere. The deployment says.
		return "", errNoPanelURL
	}
	h := r.Header.Get("X-Site-Host")
	if h == "" {
		h = r.Host
	}
	h, _, _ = strings.Cut(h, ",")
	h = strings.TrimSpace(h)
	port := ""
	if hp, p, err := net.SplitHostPort(h); err == nil {
		h, port = hp, p
	}
	h = strings.TrimSuffix(strings.ToLower(h), ".")
	ip := net.ParseIP(h)
	loopback := h == "localhost" || strings.HasSuffix(h, ".localhost") || (ip != nil && ip.IsLoopback())
	if !store.ValidHost(h) && !(ip != nil && ip.IsLoopback() && ip.To4() != nil) {
		return "", errNoPanelAddress
	}
	if !loopback {
		return "https://" + h, nil
	}
	scheme := "http"
	if r.TLS != nil || r.Header.Get("X-Forwarded-Proto") == "https" {
		scheme = "https"
	}
	if port != "" && validPort(port) {
		h += ":" + port
	}
	return scheme + "://" + h, nil
}

func validPort(p string) bool {
	if len(p) == 0 || len(p) > 5 {
		return false
	}
	n := 0
	for i := 0; i < len(p); i++ {
		if p[i] < '0' || p[i] > '9' {
			return false
		}
		n = n*10 + int(p[i]-'0')
	}
	return n > 0 && n < 65536
}

// PanelURLFromEnv is PANEL_URL (https://panel.example.org, no path), checked: "" when unset.
func PanelURLFromEnv() (string, error) {
	v := strings.TrimRight(strings.TrimSpace(os.Getenv("PANEL_URL")), "/")
	if v == "" {
		return "", nil
	}
	u, err := url.Parse(v)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.Path != "" || u.RawQuery != "" || u.User != nil {
		return "", errors.New("auth: PANEL_URL must be scheme://host[:port], as https://panel.example.org")
	}
	return u.Scheme + "://" + u.Host, nil
}

// WithPanelURL sets the panel's address for the links of reset mails (PanelURLFromEnv).
func (s *Service) WithPanelURL(u string) *Service {
	s.panelURL = u
	return s
}

// confirmReset serves POST /auth/password-reset/confirm {token, password}.
func (s *Service) confirmReset(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		Token    string `json:"token"`
		Password string `json:"password"`
	}
	if err := api.Decode(r, &in); err != nil {
		return err
	}
	in.Token = strings.TrimSpace(in.Token)
	if !validResetToken(in.Token) {
		return api.FieldError(http.StatusBadRequest, "token", MsgResetLinkBad)
	}
	if in.Password == "" {
		return api.FieldError(http.StatusBadRequest, "password", msgResetPassword)
	}
	if msg := ValidatePassword(in.Password); msg != "" {
		return api.FieldError(http.StatusBadRequest, "password", msg)
	}
	ctx, c := r.Context(), CallerFrom(r.Context())
	hash, err := HashSecret(in.Password)
	if err != nil {
		return err
	}
	tk := ResetTokenKey(c.Scope, in.Token)
	// A user's write racing this one (its version moved) is read again, once.
	for range 2 {
		now := s.now().UTC()
		var item resetToken
		if err := s.st.Get(ctx, tk, &item); err != nil {
			if store.IsNotFound(err) {
				return api.FieldError(http.StatusBadRequest, "token", MsgResetLinkBad)
			}
			return err
		}
		if item.Tenant != c.Scope.Tenant() || !item.ExpiresAt.After(now) || !ids.Valid(item.UserID) {
			return api.FieldError(http.StatusBadRequest, "token", MsgResetLinkBad)
		}
		u, err := s.users.Get(ctx, c.Scope, item.UserID)
		if err != nil {
			if store.IsNotFound(err) {
				return api.FieldError(http.StatusBadRequest, "token", MsgResetLinkBad)
			}
			return err
		}
		if !u.Status {
			return api.Errorf(http.StatusForbidden, msgDisabled)
		}
		after := u
		after.Version, after.UpdatedAt = u.Version+1, now
		caller := &Caller{Scope: c.Scope, Tenant: c.Tenant, User: &u, Client: c.Client}
		rec, err := s.users.rec.RecordUser(ctx, UserChange{Caller: caller, Action: "update", Before: &u, After: &after, AlsoChanged: []string{"password"}, At: now})
		if err != nil {
			return err
		}
		k := UserKey(c.Scope, u.ID)
		up := s.st.Table.Update("PK", k.PK).Range("SK", k.SK).Set("passwordHash", hash).
			Set("version", after.Version).Set("updatedAt", now).
			If("attribute_exists(PK) AND version = ?", u.Version)
		// Every session of the user ends: whoever had the account's sessions keeps none.
		EndSessions(up, u.SessionEpoch)
		rec.Set(up)
		// The token goes with the change (index 0): single use, and never after its time.
		del := s.st.Table.Delete("PK", tk.PK).Range("SK", tk.SK).If("attribute_exists(PK) AND expiresAt > ?", now.Unix())
		ak := attemptKey(c.Scope, u.Username)
		tx := s.st.WriteTx().Delete(del).Update(up).
			// The sign-in lockout the forgotten password may have run into ends with it.
			Delete(s.st.Table.Delete("PK", ak.PK).Range("SK", ak.SK))
		rec.AddTo(tx)
		err = tx.Run(ctx)
		if err == nil {
			return api.JSON(w, http.StatusOK, api.Envelope{Result: true, Message: MsgResetDone})
		}
		if store.CondFailedAt(err, 0) {
			return api.FieldError(http.StatusBadRequest, "token", MsgResetLinkBad)
		}
		if !store.CondFailedAt(err, 1) {
			return store.Wrap("reset password", err)
		}
	}
	return api.ErrConflict
}
