// This file keeps the Go tool out of site/ (its node_modules may hold .go files).
module github.com/campuscms/panel/site
