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

// Load returns the value of raw: built from c when c was compiled from raw, parsed otherwise.
func Load[T any](raw []byte, c Copy[T], parse func() (T, error)) (T, error) {
	if c.Build != nil && c.Hash == Hash(raw) {
		return c.Build(), nil
	}
	return parse()
}

// Current reports why c is not the compiled copy of raw, whose parse gives want ("" when it is).
func Current[T any](raw []byte, c Copy[T], want T) string {
	switch {
	case c.Build == nil || c.Hash != Hash(raw):
		return "the compiled copy is missing or older than its JSON: run go generate"
	case !reflect.DeepEqual(c.Build(), want):
		return fmt.Sprintf("the compiled copy differs from its JSON:\nparsed   %#v\ncompiled %#v", want, c.Build())
	}
	return ""
}
