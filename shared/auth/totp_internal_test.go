package auth

import (
	"testing"
	"time"
)

// RFC 6238 appendix B, SHA-1 rows: the key is "12345678901234567890" and the codes are 8 digits;
// our 6-digit codes are their last six (the value mod 10^6).
func TestTOTPMatchesRFC6238Vectors(t *testing.T) {
	key := []byte("12345678901234567890")
	for _, v := range []struct {
		unix int64
		want string // 8-digit value of the RFC
	}{
		{59, "94287082"}, {1111111109, "07081804"}, {1111111111, "14050471"},
		{1234567890, "89005924"}, {2000000000, "69279037"}, {20000000000, "65353130"},
	} {
		at := time.Unix(v.unix, 0)
		if got := hotp(key, totpStep(at)); got != v.want[2:] {
			t.Errorf("T=%d: %s, want %s", v.unix, got, v.want[2:])
		}
		if _, ok := matchTOTP(key, v.want[2:], at, 0); !ok {
			t.Errorf("T=%d: its own code refused", v.unix)
		}
	}
}

func TestTOTPWindowAndReplay(t *testing.T) {
	key := newTOTPKey()
	now := time.Unix(1_800_000_000, 0)
	cur := totpStep(now)
	for _, c := range []struct {
		step int64
		ok   bool
	}{{cur - 2, false}, {cur - 1, true}, {cur, true}, {cur + 1, true}, {cur + 2, false}} {
		step, ok := matchTOTP(key, hotp(key, c.step), now, 0)
		if ok != c.ok || (ok && step != c.step) {
			t.Errorf("step %+d: ok=%v step=%d, want ok=%v", c.step-cur, ok, step, c.ok)
		}
	}
	// Replay: once the current step is used, its code (and any earlier step's) is refused.
	if _, ok := matchTOTP(key, hotp(key, cur), now, cur); ok {
		t.Error("a used step's code was accepted again")
	}
	if _, ok := matchTOTP(key, hotp(key, cur-1), now, cur); ok {
		t.Error("an earlier step's code was accepted after a later one")
	}
	if _, ok := matchTOTP(key, hotp(key, cur+1), now, cur); !ok {
		t.Error("the next step's code was refused")
	}
	for _, bad := range []string{"", "12345", "1234567", "abcdef"} {
		if _, ok := matchTOTP(key, bad, now, 0); ok {
			t.Errorf("%q accepted", bad)
		}
	}
}
