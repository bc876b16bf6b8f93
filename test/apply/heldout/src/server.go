package server

import (
	"encoding/json"
	"errors"
	"net/http"
	"sync"
)

var allowedMethods = []string{"GET", "POST", "DELETE"}

type Store interface {
	Get(id string) (*Record, error)
	Put(r *Record) error
	Delete(id string) error
}

type Record struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Count int    `json:"count"`
}

type Server struct {
	mu    sync.Mutex
	store Store
}

func New(store Store) *Server {
	return &Server{store: store}
}

func (s *Server) handleGet(w http.ResponseWriter, r *http.Request) error {
	id := r.URL.Query().Get("id")
	rec, err := s.store.Get(id)
	if err != nil {
		return err
	}
	return json.NewEncoder(w).Encode(rec)
}

func (s *Server) handlePut(w http.ResponseWriter, r *http.Request) error {
	var rec Record
	if err := json.NewDecoder(r.Body).Decode(&rec); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.store.Put(&rec); err != nil {
		return err
	}
	w.WriteHeader(http.StatusCreated)
	return nil
}

func (s *Server) handleDelete(w http.ResponseWriter, r *http.Request) error {
	id := r.URL.Query().Get("id")
	if id == "" {
		return errors.New("missing id")
	}
	if err := s.store.Delete(id); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func validateID(id string) error {
	if id == "" {
		return errors.New("empty id")
	}
	return nil
}

func validateName(name string) error {
	if name == "" {
		return errors.New("empty name")
	}
	return nil
}
