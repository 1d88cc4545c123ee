// The lipton extension: the .lip language (its grammar and editing
// rules are declared in package.json) and a client of `lipton lsp`,
// which publishes diagnostics while you type and answers hover, go to
// definition, the outline and formatting. The verdict of the last check
// of the active document is shown in the status bar.
import * as vscode from "vscode";
import {
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
  TransportKind,
} from "vscode-languageclient/node";

let client: LanguageClient | undefined;
let status: vscode.StatusBarItem;

// Checked is the notification lipton/checked: the verdict of the check
// of one version of a document.
interface Checked {
  uri: string;
  version: number;
  verdict: string;
  summary: string;
}

const verdicts = new Map<string, Checked>();

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  status = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Left, 0);
  context.subscriptions.push(status);
  context.subscriptions.push(vscode.window.onDidChangeActiveTextEditor(showStatus));
  context.subscriptions.push(
    vscode.commands.registerCommand("lipton.restartServer", async () => {
      await stopClient();
      await startClient(context);
    }),
  );
  await startClient(context);
}

export async function deactivate(): Promise<void> {
  await stopClient();
}

async function startClient(context: vscode.ExtensionContext): Promise<void> {
  const config = vscode.workspace.getConfiguration("lipton");
  const command = config.get<string>("path", "lipton");
  const args = ["lsp", ...config.get<string[]>("lspArgs", [])];
  const serverOptions: ServerOptions = {
    run: { command, args, transport: TransportKind.stdio },
    debug: { command, args, transport: TransportKind.stdio },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: "file", language: "lipton" },
      { scheme: "untitled", language: "lipton" },
    ],
  };
  client = new LanguageClient("lipton", "lipton", serverOptions, clientOptions);
  context.subscriptions.push(
    client.onNotification("lipton/checked", (p: Checked) => {
      verdicts.set(p.uri, p);
      showStatus();
    }),
  );
  try {
    await client.start();
  } catch (err) {
    vscode.window.showErrorMessage(
      `lipton: could not start "${command} lsp" (set lipton.path to the lipton executable): ${err}`,
    );
  }
}

async function stopClient(): Promise<void> {
  if (client) {
    await client.stop();
    client = undefined;
  }
}

// showStatus shows the verdict of the active document's last check.
function showStatus(): void {
  const doc = vscode.window.activeTextEditor?.document;
  const p = doc && verdicts.get(doc.uri.toString());
  if (!doc || doc.languageId !== "lipton" || !p) {
    status.hide();
    return;
  }
  const icons: Record<string, string> = {
    proven: "$(check)",
    failed: "$(error)",
    unknown: "$(warning)",
    error: "$(error)",
  };
  status.text = `${icons[p.verdict] ?? ""} lipton: ${p.verdict}`;
  status.tooltip = `version ${p.version}: ${p.summary}`;
  status.show();
}
