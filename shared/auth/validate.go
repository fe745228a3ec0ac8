package auth

import (
	"net/http"
	"strings"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/formats"
	"github.com/campuscms/panel/shared/lazyre"
)

// SPEC §5 messages, verbatim.
const (
	msgFillDetails    = "Please Fill Details!"
	msgMandatory      = "Please fillup mandatory fields!"
	msgEmail          = "Please enter a valid email!"
	msgPhone          = "Please enter a 10 digit phone number!"
	msgPasswordLength = "Password should be atleast 6 characters!"
	msgPasswordShape  = "Password cannot be just 6 digits: that is the shape of a passcode!"
	msgPasscodeShape  = "Passcode must be exactly 6 digits!"
	msgUsernameShape  = "Username may use 3 to 40 letters, digits and . _ - @ only!"
	msgUsernameTaken  = "Username is already taken!"
	msgBadLogin       = "Invalid username or password!"
	msgDisabled       = "This account is disabled. Ask an administrator to enable it."
)

var (
	phonePattern    = lazyre.New(`^[0-9\s\-()+]{10}$`)
	passcodePattern = lazyre.New(`^[0-9]{6}$`)
	usernamePattern = lazyre.New(`^[A-Za-z0-9._@-]{3,40}$`)
)

// IsPasscodeShaped reports whether s has the shape of a passcode (exactly 6 digits). Passwords of
// that shape are refused so that the login form can tell the two apart.
func IsPasscodeShaped(s string) bool { return passcodePattern().MatchString(s) }

// ValidatePassword applies the password rules of SPEC §5 plus the passcode-shape rule.
func ValidatePassword(pw string) string {
	switch {
	case len(pw) < 6:
		return msgPasswordLength
	case len(pw) > 256:
		return "Password is too long!"
	case IsPasscodeShaped(pw):
		return msgPasswordShape
	}
	return ""
}

// ValidateUsername checks the username's shape.
func ValidateUsername(name string) string {
	if !usernamePattern().MatchString(name) {
		return msgUsernameShape
	}
	return ""
}

// profileInput is the body of PATCH /auth/me. Fields a caller may not set here (isAdmin,
// permissionIds, roleId, status…) are unknown to it and so refused by the decoder.
type profileInput struct {
	Username string `json:"username"`
	Email    string `json:"email"`
	Phone    string `json:"phone"`
	Password string `json:"password"`
	Passcode string `json:"passcode"`
	// A new password or passcode also takes the current password, and where two-factor sign-in
	// is on a code or a recovery code (reauth.go).
	CurrentPassword string `json:"currentPassword"`
	Code            string `json:"code"`
	RecoveryCode    string `json:"recoveryCode"`
}

func (in *profileInput) normalize() {
	in.Username = strings.TrimSpace(in.Username)
	in.Email = strings.TrimSpace(in.Email)
	in.Phone = strings.TrimSpace(in.Phone)
}

// validate applies SPEC §5 "Profile" in its order, returning every field's message.
func (in *profileInput) validate() error {
	fields := map[string]string{}
	if in.Username == "" {
		fields["username"] = msgMandatory
	} else if msg := ValidateUsername(in.Username); msg != "" {
		fields["username"] = msg
	}
	if in.Email == "" {
		fields["email"] = msgMandatory
	} else if !formats.Email(in.Email) {
		fields["email"] = msgEmail
	}
	if in.Phone == "" {
		fields["phone"] = msgMandatory
	} else if !phonePattern().MatchString(in.Phone) {
		fields["phone"] = msgPhone
	}
	if in.Password != "" {
		if msg := ValidatePassword(in.Password); msg != "" {
			fields["password"] = msg
		}
	}
	if in.Passcode != "" && !IsPasscodeShaped(in.Passcode) {
		fields["passcode"] = msgPasscodeShape
	}
	if len(fields) == 0 {
		return nil
	}
	// A missing mandatory field is reported first, as the SPA does.
	for _, f := range []string{"username", "email", "phone"} {
		if fields[f] == msgMandatory {
			return &api.Error{Status: http.StatusBadRequest, Message: msgMandatory, Fields: fields}
		}
	}
	return api.BadRequest(fields, "username", "email", "phone", "password", "passcode")
}
