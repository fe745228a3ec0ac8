// Package compiled keeps an embedded JSON declaration (the route table, the plans, the theme
// catalogue, the website's fonts) as Go, written by go generate, so that a Lambda's start builds
// the value instead of parsing JSON: encoding/json's first decode of a type costs about a tenth of
// a millisecond, more than the rest of a small group's own start. The JSON stays the source:
// Load uses the compiled copy only while it was generated from the embedded bytes (their CRC-32),
// and parses them otherwise, so an edit without a generate is slower, never wrong, and the
// package's test (Current) fails until it is run. The generator is shared/compiled/generate,
// which the Lambdas do not link.
package compiled

import (
	"encoding/json"
	"fmt"
	"hash/crc32"
	"reflect"
)

// Copy is a value compiled from JSON: Build makes it, Hash is the CRC-32 of the JSON it came from.
type Copy[T any] struct {
	Hash  uint32
	Build func() T
}

// Hash is the CRC-32 (IEEE: the CPU's carry-less multiply; CRC-32C first builds tables, 0.2 ms
// on amd64) of raw.
func Hash(raw []byte) uint32 { return crc32.ChecksumIEEE(raw) }

// From returns the value c builds, if c was compiled from raw.
func (c Copy[T]) From(raw []byte) (T, bool) {
	if c.Build == nil || c.Hash != Hash(raw) {
		var zero T
		return zero, false
	}
	return c.Build(), true
}

// Decode parses raw, the JSON file name, as a T.
func Decode[T any](raw []byte, name string) (T, error) {
	var v T
	if err := json.Unmarshal(raw, &v); err != nil {
		return v, fmt.Errorf("parse %s: %w", name, err)
	}
	return v, nil
}

// Load returns the value of raw (the JSON file name): built from c when c was compiled from raw,
// decoded otherwise.
func Load[T any](raw []byte, name string, c Copy[T]) (T, error) {
	if v, ok := c.From(raw); ok {
		return v, nil
	}
	return Decode[T](raw, name)
}

// Current reports why c is not the compiled copy of raw, the JSON file name ("" when it is).
func Current[T any](raw []byte, name string, c Copy[T]) string {
	want, err := Decode[T](raw, name)
	if err != nil {
		return err.Error()
	}
	built, ok := c.From(raw)
	switch {
	case !ok:
		return "the compiled copy of " + name + " is missing or older than it: run go generate"
	case !reflect.DeepEqual(built, want):
		return fmt.Sprintf("the compiled copy differs from %s:\nparsed   %#v\ncompiled %#v", name, want, built)
	}
	return ""
}
