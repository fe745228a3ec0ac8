.PHONY: dev test test-go bench functions synth

# Start the whole panel locally (emulator, demo tenant, API, SPA) at http://127.0.0.1:8080.
dev:
	@bash scripts/dev.sh

# Run every test: Go, SPA unit, browser, infrastructure.
test:
	@bash scripts/test.sh

test-go:
	go test ./...

bench:
	go test -run '^$$' -bench . -benchmem ./...

functions:
	bash infra/scripts/build-functions.sh

synth: functions
	npm run synth --prefix infra
