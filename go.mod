module github.com/acpgen/acpgen

go 1.26.0

require (
	github.com/coder/websocket v1.8.14
	github.com/dave/jennifer v1.7.1
	github.com/go-json-experiment/json v0.0.0-20240815174924-0599f16bf0e2
	github.com/gobwas/ws v1.5.0
	github.com/santhosh-tekuri/jsonschema/v5 v5.3.1
	golang.org/x/mod v0.42.0
	golang.org/x/tools v0.52.0
)

require (
	github.com/gobwas/httphead v0.1.0 // indirect
	golang.org/x/sync v0.24.0 // indirect
)
