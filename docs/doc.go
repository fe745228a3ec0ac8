// Package docs holds the project's documentation (README.md at the root and the Markdown files
// beside this one) and the test that keeps its relative links working: links_test.go, run by
// go test ./... and so by make test.
package docs
