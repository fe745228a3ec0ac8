// Package drafts holds the end-to-end tests of drafts and review (issue 36): the workflow itself
// is the collections engine's (shared/collections/workflow.go: "workflow": true in
// collections.json), served with each workflow collection's routes and GET /drafts. These tests
// drive it through the staff API and read the result back through every public read path (the
// website, the public API, the sitemap, visitor search) and the schedule job.
package drafts
