package listing

import (
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/guregu/dynamo/v2"
)

func TestTimeKeysSortAsTimes(t *testing.T) {
	base := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	times := []time.Time{base.Add(120 * time.Millisecond), base, base.Add(100 * time.Millisecond), base.Add(time.Nanosecond), base.Add(time.Second)}
	keys := make([]string, len(times))
	for i, at := range times {
		keys[i] = TimeKey(at)
		if len(keys[i]) != len(TimeLayout) {
			t.Fatalf("%q is not fixed-width", keys[i])
		}
	}
	sort.Strings(keys)
	sort.Slice(times, func(i, j int) bool { return times[i].Before(times[j]) })
	for i := range times {
		if keys[i] != TimeKey(times[i]) {
			t.Fatalf("string order %v differs from time order at %d", keys, i)
		}
	}
}

func TestNameKey(t *testing.T) {
	cases := map[string]string{"  Hello World ": "hello+world", "ÉCOLE": "ecole", "": "", "About Us (edited)": "about+us+edited"}
	for in, want := range cases {
		if got := NameKey(in); got != want {
			t.Errorf("NameKey(%q) = %q, want %q", in, got, want)
		}
	}
	long := strings.Repeat("жжж ", 200)
	if got := NameKey(long); len([]rune(got)) != nameKeyRunes || len(got) > 1024 {
		t.Errorf("long name: %d runes, %d bytes", len([]rune(got)), len(got))
	}
}

// TestNameOrder: names sort as people read them, whatever their accents, case and punctuation.
func TestNameOrder(t *testing.T) {
	names := []string{"Emma", "about us (edited)", "Émile", "About Us", "Emil", "zebra", "Über", "ubar", "Ab"}
	keys := map[string]string{}
	for _, n := range names {
		keys[n] = Attributes(Record{Partition: "T#x#p", ID: "01", Name: n})["GSI2SK"].(string)
	}
	sort.Slice(names, func(i, j int) bool { return keys[names[i]] < keys[names[j]] })
	if got := strings.Join(names, "|"); got != "Ab|About Us|about us (edited)|Emil|Émile|Emma|ubar|Über|zebra" {
		t.Fatalf("order %s", got)
	}
}

func TestCursorRoundTripAndRefusals(t *testing.T) {
	p := plan{partition: "T#acme#faqs", index: ByUpdated, hash: "T#acme#faqs", desc: true}
	item := dynamo.Item{}
	for k, v := range map[string]string{"PK": "T#acme#faqs", "SK": "01J", "GSI1PK": "T#acme#faqs", "GSI1SK": "2026#01J", "question": "Q"} {
		item[k] = &types.AttributeValueMemberS{Value: v}
	}
	c := p.cursorAt(item, false)
	key, back, err := p.decodeCursor(c)
	if err != nil || back || len(key) != 4 {
		t.Fatalf("round trip: %v %v %v", key, back, err)
	}
	others := map[string]plan{
		"other tenant":     {partition: "T#acme-corp#faqs", index: ByUpdated, hash: "T#acme-corp#faqs", desc: true},
		"other collection": {partition: "T#acme#events", index: ByUpdated, hash: "T#acme#events", desc: true},
		"other order":      {partition: "T#acme#faqs", index: ByUpdated, hash: "T#acme#faqs"},
		"other index":      {partition: "T#acme#faqs", index: ByName, hash: "T#acme#faqs#NAME", desc: true},
		"with a search":    {partition: "T#acme#faqs", index: ByUpdated, hash: "T#acme#faqs", prefix: "q", desc: true},
	}
	for name, o := range others {
		if _, _, err := o.decodeCursor(c); err == nil {
			t.Errorf("%s: cursor accepted", name)
		}
	}
}
