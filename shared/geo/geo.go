// Package geo provides a read-only catalogue of countries, their states
// (first-level subdivisions) and their cities, for address forms and the
// /misc/countries-states-cities, /misc/states and /misc/cities endpoints.
//
// The data is embedded from data/, which scripts/geo/generate.mjs builds from
// the npm package country-state-city (itself derived from the
// dr5hn/countries-states-cities-database, ODbL-1.0); data/SOURCE.json records
// the exact package version. Go builds need no Node: the generated files are
// committed.
//
// Identifiers:
//   - a country id is its ISO 3166-1 alpha-2 code ("US");
//   - a state id is "{countryId}-{isoCode}" ("US-CA"); isoCode may itself
//     contain a hyphen ("GB-SH-AC");
//   - a city id is "{stateId}-{n}" ("US-CA-559"), where n is the 1-based
//     position of the city in its state's name-sorted list. City ids are
//     stable for a given data release, but regenerating from a newer release
//     may renumber them: store names alongside city ids if they must survive
//     a data upgrade.
//
// Lookups match ids case-insensitively and ignore surrounding spaces.
//
// All lists are sorted by name, ignoring case and accents (the order is
// computed once by the generator and kept as stored). Every method returns a
// fresh slice that the caller may modify. A Catalogue is safe for concurrent
// use.
package geo

import (
	"compress/gzip"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strconv"
	"strings"
	"sync"
)

//go:embed data/*
var dataFS embed.FS

// ErrUnknown is returned, wrapped with the offending id, when a country or
// state id is not in the catalogue. Test for it with errors.Is.
var ErrUnknown = errors.New("geo: unknown id")

// Country is a country, identified by its ISO 3166-1 alpha-2 code.
type Country struct {
	// ID is the upper-case ISO 3166-1 alpha-2 code, e.g. "US".
	ID string `json:"id"`
	// Name is the English name, e.g. "United States".
	Name string `json:"name"`
	// PhoneCode is the international dialling code without a leading "+",
	// as given by the source: usually digits ("1", "44") but sometimes with
	// an area code ("1-684") or two alternatives ("1-809 and 1-829").
	PhoneCode string `json:"phoneCode"`
	// Flag is the flag emoji, or "" if the source has none.
	Flag string `json:"flag,omitempty"`
}

// State is a first-level subdivision of a country (state, province, region…).
type State struct {
	// ID is "{CountryID}-{ISOCode}", e.g. "US-CA".
	ID string `json:"id"`
	// CountryID is the ID of the Country the state belongs to.
	CountryID string `json:"countryId"`
	// Name is the state's name, e.g. "California".
	Name string `json:"name"`
	// ISOCode is the subdivision code within the country, e.g. "CA"
	// (usually the ISO 3166-2 code without the country prefix).
	ISOCode string `json:"isoCode"`
}

// City is a city or town of a State.
type City struct {
	// ID is "{StateID}-{n}", e.g. "US-CA-559"; see the package comment on
	// its stability.
	ID string `json:"id"`
	// StateID is the ID of the State the city belongs to.
	StateID string `json:"stateId"`
	// Name is the city's name, e.g. "Los Angeles".
	Name string `json:"name"`
}

// CountryWithStates is a Country together with all of its states, as served
// by /misc/countries-states-cities. States is empty, not nil, for countries
// the source has no subdivisions for.
type CountryWithStates struct {
	Country
	// States are the country's states, sorted by name.
	States []State `json:"states"`
}

// Source describes where the embedded data came from (data/SOURCE.json).
type Source struct {
	// Package is the npm package the data was generated from.
	Package string `json:"package"`
	// Version is that package's version.
	Version string `json:"version"`
	// Integrity is the npm tarball's sha512 integrity string.
	Integrity string `json:"integrity"`
	// PackageLicense is the licence declared by the npm package.
	PackageLicense string `json:"packageLicense"`
	// Upstream is the database the npm package's data is derived from.
	Upstream string `json:"upstream"`
	// UpstreamLicense is the licence of the upstream database.
	UpstreamLicense string `json:"upstreamLicense"`
}

// Catalogue is the loaded, indexed data set. Obtain one with Load (shared,
// embedded data) or LoadFS. Its methods are safe for concurrent use.
type Catalogue struct {
	source       Source
	countries    []Country             // sorted by name
	countryIndex map[string]int        // upper-case country id -> index in countries
	states       [][]State             // parallel to countries, each sorted by name
	stateCount   int                   // total number of states
	stateIndex   map[string]stateEntry // upper-case state id -> entry
}

type stateEntry struct {
	state  State
	cities []City // sorted by name; City.ID numbered in this order
}

var (
	loadOnce  sync.Once
	loadedCat *Catalogue
	loadedErr error
)

// Load returns the catalogue built from the embedded data. The data is parsed
// on the first call only (about 80 ms on a 2-core machine; the catalogue then
// keeps about 12 MB of heap, mostly cities); later calls return the same
// *Catalogue, or the same error.
func Load() (*Catalogue, error) {
	loadOnce.Do(func() {
		loadedCat, loadedErr = LoadFS(dataFS)
	})
	return loadedCat, loadedErr
}

// LoadFS parses a fresh catalogue from fsys, which must hold the files that
// scripts/geo/generate.mjs writes, under data/: countries.json.gz,
// states.json.gz, cities.json.gz and SOURCE.json. Most callers want Load.
func LoadFS(fsys fs.FS) (*Catalogue, error) {
	var (
		src       Source
		countries []Country
		states    map[string][][2]string // country id -> [isoCode, name]
		cities    map[string][]string    // state id -> names
	)
	b, err := fs.ReadFile(fsys, "data/SOURCE.json")
	if err != nil {
		return nil, fmt.Errorf("geo: %w", err)
	}
	if err := json.Unmarshal(b, &src); err != nil {
		return nil, fmt.Errorf("geo: data/SOURCE.json: %w", err)
	}
	if err := readGzipJSON(fsys, "data/countries.json.gz", &countries); err != nil {
		return nil, err
	}
	if err := readGzipJSON(fsys, "data/states.json.gz", &states); err != nil {
		return nil, err
	}
	if err := readGzipJSON(fsys, "data/cities.json.gz", &cities); err != nil {
		return nil, err
	}

	c := &Catalogue{
		source:       src,
		countries:    countries,
		countryIndex: make(map[string]int, len(countries)),
		states:       make([][]State, len(countries)),
	}
	for i, co := range countries {
		if co.ID == "" || co.Name == "" {
			return nil, fmt.Errorf("geo: countries.json.gz: incomplete country %+v", co)
		}
		key := normID(co.ID)
		if _, dup := c.countryIndex[key]; dup {
			return nil, fmt.Errorf("geo: countries.json.gz: duplicate country %q", co.ID)
		}
		c.countryIndex[key] = i
	}

	for cid, list := range states {
		if _, ok := c.countryIndex[normID(cid)]; !ok {
			return nil, fmt.Errorf("geo: states.json.gz: states for unknown country %q", cid)
		}
		c.stateCount += len(list)
	}
	c.stateIndex = make(map[string]stateEntry, c.stateCount)
	all := make([]State, 0, c.stateCount) // one backing array for every state
	for i, co := range countries {
		start := len(all)
		for _, st := range states[co.ID] {
			s := State{ID: co.ID + "-" + st[0], CountryID: co.ID, Name: st[1], ISOCode: st[0]}
			if st[0] == "" || st[1] == "" {
				return nil, fmt.Errorf("geo: states.json.gz: incomplete state %q", s.ID)
			}
			if _, dup := c.stateIndex[normID(s.ID)]; dup {
				return nil, fmt.Errorf("geo: states.json.gz: duplicate state %q", s.ID)
			}
			c.stateIndex[normID(s.ID)] = stateEntry{state: s}
			all = append(all, s)
		}
		c.states[i] = all[start:len(all):len(all)]
	}
	if len(all) != c.stateCount {
		return nil, fmt.Errorf("geo: states.json.gz: states keyed by non-canonical country ids")
	}

	total := 0
	for _, names := range cities {
		total += len(names)
	}
	allCities := make([]City, 0, total) // one backing array for every city
	idEnds := make([]int, 0, total)     // end offset of each city's id in ids
	var ids strings.Builder             // one allocation for every city id
	ids.Grow(total * 12)
	type span struct {
		key        string
		start, end int
	}
	spans := make([]span, 0, len(cities))
	for sid, names := range cities {
		key := normID(sid)
		e, ok := c.stateIndex[key]
		if !ok {
			return nil, fmt.Errorf("geo: cities.json.gz: cities for unknown state %q", sid)
		}
		if e.cities != nil {
			return nil, fmt.Errorf("geo: cities.json.gz: duplicate state key %q", sid)
		}
		e.cities = []City{} // mark as seen; replaced below
		c.stateIndex[key] = e
		start := len(allCities)
		for n, name := range names {
			if name == "" {
				return nil, fmt.Errorf("geo: cities.json.gz: empty city name in %q", sid)
			}
			allCities = append(allCities, City{StateID: e.state.ID, Name: name})
			ids.WriteString(e.state.ID)
			ids.WriteByte('-')
			ids.WriteString(strconv.Itoa(n + 1))
			idEnds = append(idEnds, ids.Len())
		}
		spans = append(spans, span{key, start, len(allCities)})
	}
	// Slice the ids out of the single buffer now that it no longer grows.
	buf, off := ids.String(), 0
	for i, end := range idEnds {
		allCities[i].ID = buf[off:end]
		off = end
	}
	for _, sp := range spans {
		e := c.stateIndex[sp.key]
		e.cities = allCities[sp.start:sp.end:sp.end]
		c.stateIndex[sp.key] = e
	}
	return c, nil
}

func readGzipJSON(fsys fs.FS, name string, v any) error {
	f, err := fsys.Open(name)
	if err != nil {
		return fmt.Errorf("geo: %w", err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return fmt.Errorf("geo: %s: %w", name, err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		return fmt.Errorf("geo: %s: %w", name, err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("geo: %s: %w", name, err)
	}
	return nil
}

func normID(id string) string {
	return strings.ToUpper(strings.TrimSpace(id))
}

// Source reports the provenance of the loaded data.
func (c *Catalogue) Source() Source { return c.source }

// Countries returns every country, sorted by name.
func (c *Catalogue) Countries() []Country {
	return append([]Country(nil), c.countries...)
}

// Country returns the country with the given id (ISO 3166-1 alpha-2,
// case-insensitive), or an error wrapping ErrUnknown.
func (c *Catalogue) Country(id string) (Country, error) {
	i, ok := c.countryIndex[normID(id)]
	if !ok {
		return Country{}, fmt.Errorf("country %q: %w", id, ErrUnknown)
	}
	return c.countries[i], nil
}

// States returns the states of the country with the given id
// (case-insensitive), sorted by name. A known country without subdivisions
// yields an empty slice and a nil error; an unknown id yields an error
// wrapping ErrUnknown.
func (c *Catalogue) States(countryID string) ([]State, error) {
	i, ok := c.countryIndex[normID(countryID)]
	if !ok {
		return nil, fmt.Errorf("country %q: %w", countryID, ErrUnknown)
	}
	return append(make([]State, 0, len(c.states[i])), c.states[i]...), nil
}

// State returns the state with the given id ("US-CA", case-insensitive), or
// an error wrapping ErrUnknown.
func (c *Catalogue) State(id string) (State, error) {
	e, ok := c.stateIndex[normID(id)]
	if !ok {
		return State{}, fmt.Errorf("state %q: %w", id, ErrUnknown)
	}
	return e.state, nil
}

// Cities returns the cities of the state with the given id ("US-CA",
// case-insensitive), sorted by name. A known state without cities yields an
// empty slice and a nil error; an unknown id yields an error wrapping
// ErrUnknown.
func (c *Catalogue) Cities(stateID string) ([]City, error) {
	e, ok := c.stateIndex[normID(stateID)]
	if !ok {
		return nil, fmt.Errorf("state %q: %w", stateID, ErrUnknown)
	}
	return append(make([]City, 0, len(e.cities)), e.cities...), nil
}

// CountriesWithStates returns every country, sorted by name, each with its
// states sorted by name: the payload of /misc/countries-states-cities.
// Cities are deliberately excluded: there are about 150,000 of them (several
// MB of JSON), so clients fetch them per state with Cities
// (/misc/cities?state_id=).
func (c *Catalogue) CountriesWithStates() []CountryWithStates {
	out := make([]CountryWithStates, len(c.countries))
	all := make([]State, 0, c.stateCount)
	for i, co := range c.countries {
		start := len(all)
		all = append(all, c.states[i]...)
		out[i] = CountryWithStates{Country: co, States: all[start:len(all):len(all)]}
	}
	return out
}
