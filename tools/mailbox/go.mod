// This file keeps the Go tool out of tools/mailbox/ (its node_modules may hold .go files).
module github.com/campuscms/panel/tools/mailbox
