package geo

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"io/fs"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
)

func mustLoad(tb testing.TB) *Catalogue {
	tb.Helper()
	c, err := Load()
	if err != nil {
		tb.Fatalf("Load: %v", err)
	}
	return c
}

func TestLoadIsShared(t *testing.T) {
	a, b := mustLoad(t), mustLoad(t)
	if a != b {
		t.Fatal("Load returned different catalogues on two calls")
	}
}

func TestCountry(t *testing.T) {
	c := mustLoad(t)
	tests := []struct {
		name, id, wantName string
		wantErr            error
	}{
		{"US by upper-case id", "US", "United States", nil},
		{"lower-case id works", "us", "United States", nil},
		{"surrounding spaces ignored", " in ", "India", nil},
		{"unknown country", "ZZ", "", ErrUnknown},
		{"empty id", "", "", ErrUnknown},
		{"alpha-3 code is not an id", "USA", "", ErrUnknown},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := c.Country(tt.id)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("Country(%q) error = %v, want %v", tt.id, err, tt.wantErr)
			}
			if got.Name != tt.wantName {
				t.Fatalf("Country(%q).Name = %q, want %q", tt.id, got.Name, tt.wantName)
			}
		})
	}
}

func TestStates(t *testing.T) {
	c := mustLoad(t)
	tests := []struct {
		name, countryID string
		contains        string // a state name that must be present
		minLen          int
		wantErr         error
	}{
		{"US has California", "US", "California", 50, nil},
		{"lower-case id works", "us", "California", 50, nil},
		{"India has states", "IN", "Maharashtra", 28, nil},
		{"country without subdivisions is empty, not an error", "AQ", "", 0, nil},
		{"unknown country", "ZZ", "", 0, ErrUnknown},
		{"empty id", "", "", 0, ErrUnknown},
		{"state id is not a country id", "US-CA", "", 0, ErrUnknown},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := c.States(tt.countryID)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("States(%q) error = %v, want %v", tt.countryID, err, tt.wantErr)
			}
			if err != nil {
				if !strings.Contains(err.Error(), strconv.Quote(tt.countryID)) {
					t.Errorf("error %q does not name the id %q", err, tt.countryID)
				}
				return
			}
			if got == nil {
				t.Fatalf("States(%q) = nil, want a non-nil slice", tt.countryID)
			}
			if len(got) < tt.minLen {
				t.Errorf("States(%q) has %d states, want at least %d", tt.countryID, len(got), tt.minLen)
			}
			found := tt.contains == ""
			for _, s := range got {
				if s.Name == tt.contains {
					found = true
				}
				if s.ID != s.CountryID+"-"+s.ISOCode || !strings.EqualFold(s.CountryID, strings.TrimSpace(tt.countryID)) {
					t.Errorf("inconsistent state %+v", s)
				}
			}
			if !found {
				t.Errorf("States(%q) has no %q", tt.countryID, tt.contains)
			}
		})
	}
}

func TestState(t *testing.T) {
	c := mustLoad(t)
	s, err := c.State("us-ca")
	if err != nil || s != (State{ID: "US-CA", CountryID: "US", Name: "California", ISOCode: "CA"}) {
		t.Fatalf("State(us-ca) = %+v, %v", s, err)
	}
	if _, err := c.State("US-ZZ"); !errors.Is(err, ErrUnknown) {
		t.Fatalf("State(US-ZZ) error = %v, want ErrUnknown", err)
	}
}

func TestCities(t *testing.T) {
	c := mustLoad(t)
	tests := []struct {
		name, stateID string
		contains      string // a city name that must be present
		minLen        int
		wantErr       error
	}{
		{"California has Los Angeles", "US-CA", "Los Angeles", 1000, nil},
		{"lower-case id works", "us-ca", "San Francisco", 1000, nil},
		{"Maharashtra has Mumbai", "IN-MH", "Mumbai", 100, nil},
		{"state with hyphenated ISO code and no cities", "GB-SH-AC", "", 0, nil},
		{"unknown state", "US-ZZ", "", 0, ErrUnknown},
		{"country id is not a state id", "US", "", 0, ErrUnknown},
		{"city id is not a state id", "US-CA-1", "", 0, ErrUnknown},
		{"empty id", "", "", 0, ErrUnknown},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := c.Cities(tt.stateID)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("Cities(%q) error = %v, want %v", tt.stateID, err, tt.wantErr)
			}
			if err != nil {
				if !strings.Contains(err.Error(), strconv.Quote(tt.stateID)) {
					t.Errorf("error %q does not name the id %q", err, tt.stateID)
				}
				return
			}
			if got == nil {
				t.Fatalf("Cities(%q) = nil, want a non-nil slice", tt.stateID)
			}
			if len(got) < tt.minLen {
				t.Errorf("Cities(%q) has %d cities, want at least %d", tt.stateID, len(got), tt.minLen)
			}
			found := tt.contains == ""
			for i, city := range got {
				if city.Name == tt.contains {
					found = true
				}
				if want := city.StateID + "-" + strconv.Itoa(i+1); city.ID != want ||
					!strings.EqualFold(city.StateID, tt.stateID) {
					t.Errorf("city %d = %+v, want ID %q in state %q", i, city, want, tt.stateID)
				}
			}
			if !found {
				t.Errorf("Cities(%q) has no %q", tt.stateID, tt.contains)
			}
		})
	}
}

func TestCountriesWithStates(t *testing.T) {
	c := mustLoad(t)
	got := c.CountriesWithStates()
	if len(got) != len(c.Countries()) {
		t.Fatalf("CountriesWithStates has %d countries, Countries %d", len(got), len(c.Countries()))
	}
	total := 0
	for _, cw := range got {
		if cw.States == nil {
			t.Errorf("%s: States is nil, want empty slice", cw.ID)
		}
		want, err := c.States(cw.ID)
		if err != nil || len(want) != len(cw.States) {
			t.Errorf("%s: %d states, States() gives %d (%v)", cw.ID, len(cw.States), len(want), err)
		}
		total += len(cw.States)
	}
	if total != c.stateCount {
		t.Errorf("CountriesWithStates holds %d states, catalogue %d", total, c.stateCount)
	}
	// The JSON shape the endpoint serves: country fields flattened, plus states.
	b, err := json.Marshal(got[0])
	if err != nil || !bytes.HasPrefix(b, []byte(`{"id":"AF","name":"Afghanistan","phoneCode":"93","flag":"`)) ||
		!bytes.Contains(b, []byte(`"states":[{"id":"AF-`)) {
		t.Errorf("unexpected JSON %s (%v)", b, err)
	}
}

func TestReturnedSlicesAreCopies(t *testing.T) {
	c := mustLoad(t)
	cs := c.Countries()
	cs[0].Name = "mutated"
	ss, _ := c.States("US")
	ss[0].Name = "mutated"
	ci, _ := c.Cities("US-CA")
	ci[0].Name = "mutated"
	cw := c.CountriesWithStates()
	i := 0 // a country with states, followed by one with states
	for len(cw[i].States) == 0 || len(cw[i+1].States) == 0 {
		i++
	}
	cw[i].Name = "mutated"
	cw[i].States[0].Name = "mutated"
	_ = append(cw[i].States, State{Name: "appended"})

	if c.Countries()[0].Name == "mutated" {
		t.Error("Countries shares its backing array")
	}
	if s, _ := c.States("US"); s[0].Name == "mutated" {
		t.Error("States shares its backing array")
	}
	if s, _ := c.Cities("US-CA"); s[0].Name == "mutated" {
		t.Error("Cities shares its backing array")
	}
	if x := c.CountriesWithStates(); x[i].Name == "mutated" || x[i].States[0].Name == "mutated" || x[i+1].States[0].Name == "appended" {
		t.Error("CountriesWithStates shares its backing arrays")
	}
}

// TestDataInvariants checks the whole embedded data set: counts match
// SOURCE.json, ids are unique and well formed, and lists are sorted.
func TestDataInvariants(t *testing.T) {
	c := mustLoad(t)
	var src struct {
		Package, Version string
		Counts           struct{ Countries, States, Cities int }
	}
	b, err := fs.ReadFile(dataFS, "data/SOURCE.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &src); err != nil {
		t.Fatal(err)
	}
	if got := c.Source(); got.Package != "country-state-city" || got.Version != src.Version || got.Version == "" {
		t.Errorf("Source() = %+v", got)
	}

	countries := c.Countries()
	checkSorted(t, "countries", countries, func(x Country) string { return x.Name })
	seen := map[string]bool{}
	nStates, nCities := 0, 0
	for _, co := range countries {
		if len(co.ID) != 2 || strings.ToUpper(co.ID) != co.ID || co.Name == "" {
			t.Errorf("bad country %+v", co)
		}
		states, _ := c.States(co.ID)
		checkSorted(t, "states of "+co.ID, states, func(x State) string { return x.Name })
		nStates += len(states)
		for _, s := range states {
			if seen[s.ID] {
				t.Errorf("duplicate state id %q", s.ID)
			}
			seen[s.ID] = true
			cities, err := c.Cities(s.ID)
			if err != nil {
				t.Fatalf("Cities(%q): %v", s.ID, err)
			}
			checkSorted(t, "cities of "+s.ID, cities, func(x City) string { return x.Name })
			nCities += len(cities)
			for i, ci := range cities {
				if ci.ID != s.ID+"-"+strconv.Itoa(i+1) || ci.StateID != s.ID || ci.Name == "" {
					t.Fatalf("bad city %+v at %d in %s", ci, i, s.ID)
				}
				if seen[ci.ID] {
					t.Errorf("duplicate id %q", ci.ID)
				}
				seen[ci.ID] = true
			}
		}
	}
	if len(countries) != src.Counts.Countries || nStates != src.Counts.States || nCities != src.Counts.Cities {
		t.Errorf("counts %d/%d/%d, SOURCE.json says %+v", len(countries), nStates, nCities, src.Counts)
	}
}

// checkSorted checks the generator's order (case- and accent-insensitive) on
// the pure-ASCII names of list, where it reduces to a case-insensitive
// comparison with ties broken by the raw name.
func checkSorted[T any](t *testing.T, what string, list []T, name func(T) string) {
	t.Helper()
	prev := ""
	for _, x := range list {
		n := name(x)
		if !isASCII(n) {
			continue
		}
		if prev != "" {
			pl, nl := strings.ToLower(prev), strings.ToLower(n)
			if pl > nl || (pl == nl && prev > n) {
				t.Errorf("%s: %q sorted before %q", what, prev, n)
				return
			}
		}
		prev = n
	}
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

func gz(t *testing.T, v any) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	if err := json.NewEncoder(w).Encode(v); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestLoadFS runs LoadFS on small hand-made data sets, valid and broken.
func TestLoadFS(t *testing.T) {
	countries := []Country{{ID: "AA", Name: "Alpha", PhoneCode: "1"}, {ID: "BB", Name: "Beta", PhoneCode: "2"}}
	states := map[string][][2]string{"AA": {{"X-1", "Ex"}, {"Y", "Why"}}}
	cities := map[string][]string{"AA-X-1": {"One", "Two"}}
	mk := func(countries, states, cities any) fstest.MapFS {
		return fstest.MapFS{
			"data/SOURCE.json":       {Data: []byte(`{"package":"p","version":"1"}`)},
			"data/countries.json.gz": {Data: gz(t, countries)},
			"data/states.json.gz":    {Data: gz(t, states)},
			"data/cities.json.gz":    {Data: gz(t, cities)},
		}
	}

	t.Run("valid", func(t *testing.T) {
		c, err := LoadFS(mk(countries, states, cities))
		if err != nil {
			t.Fatal(err)
		}
		got, err := c.Cities("aa-x-1")
		if err != nil || len(got) != 2 || got[1] != (City{ID: "AA-X-1-2", StateID: "AA-X-1", Name: "Two"}) {
			t.Fatalf("Cities = %+v, %v", got, err)
		}
		if s, err := c.States("BB"); err != nil || s == nil || len(s) != 0 {
			t.Fatalf("States(BB) = %#v, %v", s, err)
		}
		if c.Source().Version != "1" {
			t.Fatalf("Source = %+v", c.Source())
		}
	})

	broken := []struct {
		name string
		fsys fstest.MapFS
	}{
		{"missing file", func() fstest.MapFS { m := mk(countries, states, cities); delete(m, "data/cities.json.gz"); return m }()},
		{"not gzip", func() fstest.MapFS {
			m := mk(countries, states, cities)
			m["data/states.json.gz"] = &fstest.MapFile{Data: []byte("{}")}
			return m
		}()},
		{"states of unknown country", mk(countries, map[string][][2]string{"ZZ": {{"A", "A"}}}, cities)},
		{"cities of unknown state", mk(countries, states, map[string][]string{"AA-ZZ": {"x"}})},
		{"duplicate country", mk(append(countries, countries[0]), states, cities)},
		{"duplicate state", mk(countries, map[string][][2]string{"AA": {{"X-1", "Ex"}, {"X-1", "Ex"}}}, nil)},
		{"empty city name", mk(countries, states, map[string][]string{"AA-X-1": {""}})},
	}
	for _, tt := range broken {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := LoadFS(tt.fsys); err == nil {
				t.Fatal("LoadFS succeeded on broken data")
			}
		})
	}
}

// BenchmarkLoad measures parsing the embedded data into a fresh Catalogue
// (what the first Load call costs). retained-MB is the live heap the
// catalogue keeps after a GC.
func BenchmarkLoad(b *testing.B) {
	b.ReportAllocs()
	var keep *Catalogue
	for b.Loop() {
		c, err := LoadFS(dataFS)
		if err != nil {
			b.Fatal(err)
		}
		keep = c
	}
	b.StopTimer()
	var before, after runtime.MemStats
	keep = nil
	runtime.GC()
	runtime.ReadMemStats(&before)
	keep, _ = LoadFS(dataFS)
	runtime.GC()
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/(1<<20), "retained-MB")
	runtime.KeepAlive(keep)
}

// BenchmarkCities measures one /misc/cities lookup (copying the list).
func BenchmarkCities(b *testing.B) {
	c := mustLoad(b)
	for _, id := range []string{"us-ca", "GB-ENG"} {
		b.Run(id, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := c.Cities(id); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkCountriesWithStates measures building the
// /misc/countries-states-cities payload.
func BenchmarkCountriesWithStates(b *testing.B) {
	c := mustLoad(b)
	b.ReportAllocs()
	for b.Loop() {
		_ = c.CountriesWithStates()
	}
}
