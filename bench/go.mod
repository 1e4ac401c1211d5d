module github.com/acpgen/acpgen/bench

go 1.26.8

replace github.com/acpgen/acpgen => ../

require (
	github.com/acpgen/acpgen v0.0.0-00010101000000-000000000000
	github.com/coder/acp-go-sdk v0.13.0
)

require github.com/go-json-experiment/json v0.0.0-20260820222146-c27c302e5fc3

require (
	github.com/coder/websocket v1.8.14 // indirect
	github.com/gobwas/httphead v0.1.0 // indirect
	github.com/gobwas/ws v1.5.0 // indirect
)
