// Command lipton checks layered proofs of concurrent programs.
//
// Usage:
//
//	lipton check [flags] FILE...     check proofs
//	lipton explore [flags] FILE      model-check a finite instance
//	lipton show [flags] FILE         print a layer's reduced view
//	lipton fmt [-w|-l|--check] [FILE...]  print files in canonical form
//	lipton lsp [flags]               the language server for editors
//	lipton version                   print the version
//	lipton help [COMMAND]            describe commands
//
// Exit codes: 0 when everything holds, 1 when a check failed or is
// unknown, 2 when the input could not be read, parsed or typed (or the
// command line is wrong), 3 on an internal error.
package main
