// Package adversarial holds the generated adversarial suite (tests only): it walks every route
// the groups declare (app.Patterns, from routes.json) and every collection of collections.json,
// and attacks each one: no token, another tenant's token, another tenant's ids, a user without
// the permission, mass assignment of server-owned fields, malformed and oversized bodies, odd
// ids and query parameters, XSS through rich text, a parallel login burst, and AWS faults. New
// routes and collections are covered without editing it. TestMain prints the totals.
package adversarial
