// This file keeps the Go tool out of infra/ (its node_modules holds .go templates).
module github.com/campuscms/panel/infra
