// Starts `hms-lint --lsp` for CUDA files; everything else (diagnostics,
// quick fixes, hover) is the Language Server Protocol.
const vscode = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');

let client;

function activate(context) {
  const cfg = vscode.workspace.getConfiguration('hms-lint');
  const init = { extraArgs: cfg.get('extraArgs') };
  if (cfg.get('compilationDatabase')) init.compilationDatabase = cfg.get('compilationDatabase');
  if (cfg.get('arch')) init.arch = cfg.get('arch');
  client = new LanguageClient(
    'hms-lint',
    'hms-lint',
    { command: cfg.get('path'), args: ['--lsp'] },
    {
      documentSelector: [
        { scheme: 'file', language: 'cuda-cpp' },
        { scheme: 'file', language: 'cuda' },
        { scheme: 'file', pattern: '**/*.{cu,cuh}' },
      ],
      initializationOptions: init,
    });
  client.start();
  context.subscriptions.push({ dispose: () => client && client.stop() });
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
