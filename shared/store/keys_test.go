package store

import "testing"

func TestTenantIDs(t *testing.T) {
	cases := []struct {
		id    string
		valid bool
	}{
		{"demo", true}, {"st-marys-college", true}, {"a1", true},
		{"", false}, {"a", false}, {"Demo", false}, {"acme#corp", false}, {"T#acme", false}, {"a b", false},
		{"x123456789012345678901234567890123456789", true}, {"x1234567890123456789012345678901234567890", false},
	}
	for _, c := range cases {
		t.Run(c.id, func(t *testing.T) {
			_, err := NewScope(c.id)
			if (err == nil) != c.valid {
				t.Fatalf("NewScope(%q) error %v, want valid=%v", c.id, err, c.valid)
			}
		})
	}
}

func TestKeysStartWithTheTenant(t *testing.T) {
	s, _ := NewScope("acme")
	cases := map[string]string{
		s.Root():                  "T#acme",
		s.Collection("faqs"):      "T#acme#faqs",
		s.Partition("PAGE", "p1"): "T#acme#PAGE#p1",
	}
	for got, want := range cases {
		if got != want {
			t.Errorf("key %q, want %q", got, want)
		}
	}
}

func TestZeroScopeRefusesKeys(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("a key was built without a tenant")
		}
	}()
	_ = Scope{}.Collection("faqs")
}
