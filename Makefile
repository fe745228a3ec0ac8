.PHONY: dev dev-reset test test-go bench bench-website bench-public functions synth

# Start the whole panel locally (emulator, demo tenant, API, SPA) at http://127.0.0.1:8080.
dev:
	@bash scripts/dev.sh

# Start afresh: forget what earlier runs of make dev kept in .dev/data, then start with the demo.
dev-reset:
	rm -rf .dev/data
	@bash scripts/dev.sh

# Run every test: Go, SPA unit, browser, infrastructure.
test:
	@bash scripts/test.sh

test-go:
	go test ./...

# Benchmarks that print figures (never assertions): list cost at 100 vs 10,000 records, Lambda
# init against a hello-world function, the SPA's initial JS gzipped against 150 kB.
bench:
	@bash bench/list.sh
	@bash bench/lambda-init.sh
	@bash bench/spa-size.sh
	@bash bench/website.sh

# The public website in each theme: bytes gzipped, Lighthouse scores (mobile), axe findings.
bench-website:
	@bash bench/website.sh

# Load benchmark of the public website API: 200 concurrent readers for 30 s on the local stack.
bench-public:
	go run ./bench/public -c 200 -d 30s $(BENCH_ARGS) 2>/dev/null

functions:
	bash infra/scripts/build-functions.sh

synth: functions
	npm run synth --prefix infra

# Screenshots for the README from the demo (dev server on ports 8191/4591, Chromium):
# docs/images/panel.png and docs/images/website.png, 1280x800.
.PHONY: screenshots
screenshots:
	@bash scripts/screenshots.sh
