// smoke.js runs `lipton lsp` through vscode-jsonrpc, the JSON-RPC
// implementation under VS Code's language client, as the extension
// does: initialize, open a file, wait for the check's verdict, print the
// diagnostics and a hover, shut down. It checks that lipton's server and
// VS Code's side of the protocol understand each other, without VS Code.
//
//   node scripts/smoke.js LIPTON FILE.lip
"use strict";
const { spawn } = require("child_process");
const fs = require("fs");
const path = require("path");
const rpc = require("vscode-jsonrpc/node");

async function main() {
  const [lipton, file] = process.argv.slice(2);
  if (!lipton || !file) {
    console.error("usage: node scripts/smoke.js LIPTON FILE.lip");
    process.exit(2);
  }
  const server = spawn(lipton, ["lsp", "--no-cache"], { stdio: ["pipe", "pipe", "inherit"] });
  const conn = rpc.createMessageConnection(
    new rpc.StreamMessageReader(server.stdout),
    new rpc.StreamMessageWriter(server.stdin),
  );
  const uri = "file://" + path.resolve(file);
  let diagnostics = [];
  conn.onNotification("textDocument/publishDiagnostics", (p) => {
    if (p.uri === uri) diagnostics = p.diagnostics;
  });
  const checked = new Promise((resolve) => conn.onNotification("lipton/checked", resolve));
  conn.listen();
  const init = await conn.sendRequest("initialize", { processId: process.pid, rootUri: null, capabilities: {} });
  console.log("server:", JSON.stringify(init.serverInfo), "capabilities:", Object.keys(init.capabilities).join(", "));
  conn.sendNotification("initialized", {});
  const text = fs.readFileSync(file, "utf8");
  conn.sendNotification("textDocument/didOpen", { textDocument: { uri, languageId: "lipton", version: 1, text } });
  const verdict = await checked;
  console.log("lipton/checked:", verdict.verdict, "-", verdict.summary);
  for (const d of diagnostics) {
    console.log(`diagnostic ${d.range.start.line + 1}:${d.range.start.character + 1} [${d.code}] ${d.message.split("\n")[0]}`);
  }
  const symbols = await conn.sendRequest("textDocument/documentSymbol", { textDocument: { uri } });
  console.log("symbols:", symbols.map((s) => s.name + (s.children ? ` (${s.children.map((c) => c.name).join(", ")})` : "")).join("; "));
  await conn.sendRequest("shutdown");
  conn.sendNotification("exit");
  server.on("exit", (code) => {
    console.log("lipton lsp exited with", code);
    process.exit(code === 0 && diagnostics !== undefined ? 0 : 1);
  });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
