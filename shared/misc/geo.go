package misc

import (
	"errors"
	"net/http"
	"strings"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/geo"
)

func (s *Service) registerGeo(mux api.Mux, base string) {
	mux.Handle("GET "+base+"/misc/countries-states-cities", s.guard.Require("", s.countries))
	mux.Handle("GET "+base+"/misc/states", s.guard.Require("", s.states))
	mux.Handle("GET "+base+"/misc/cities", s.guard.Require("", s.cities))
}

func (s *Service) countries(w http.ResponseWriter, r *http.Request) error {
	cat, err := s.geo()
	if err != nil {
		return err
	}
	return api.OK(w, cat.CountriesWithStates())
}

func (s *Service) states(w http.ResponseWriter, r *http.Request) error {
	return s.geoList(w, r, "country_id", func(c *geo.Catalogue, id string) (any, error) { return c.States(id) })
}

func (s *Service) cities(w http.ResponseWriter, r *http.Request) error {
	return s.geoList(w, r, "state_id", func(c *geo.Catalogue, id string) (any, error) { return c.Cities(id) })
}

func (s *Service) geoList(w http.ResponseWriter, r *http.Request, param string, find func(*geo.Catalogue, string) (any, error)) error {
	id := strings.TrimSpace(r.URL.Query().Get(param))
	if id == "" {
		return api.FieldError(http.StatusBadRequest, param, param+" is required!")
	}
	cat, err := s.geo()
	if err != nil {
		return err
	}
	list, err := find(cat, id)
	if errors.Is(err, geo.ErrUnknown) {
		return &api.Error{Status: http.StatusNotFound, Message: "Unknown " + param + " " + id + "!", Cause: err}
	}
	if err != nil {
		return err
	}
	return api.OK(w, list)
}
