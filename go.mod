module github.com/lipton-dev/lipton

go 1.22

require (
	github.com/alecthomas/participle/v2 v2.1.4 // indirect
	github.com/fatih/color v1.18.0 // indirect
	github.com/mattn/go-colorable v0.1.13 // indirect
	github.com/mattn/go-isatty v0.0.20 // indirect
	golang.org/x/sys v0.28.0 // indirect
)
