"""Scripted LSP session against `hms-lint --lsp` (run by lsp_session.sh)."""
import json
import os
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lsp_client import LspClient, uri_of  # noqa: E402

binary, source_dir = sys.argv[1], sys.argv[2]
failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


tmp = tempfile.mkdtemp()
try:
    # The uncoalesced store only exists with -DHMS_TEST_STRIDED, which only
    # the compile_commands.json above the file gives: finding it proves the
    # database was used.
    proj = os.path.join(tmp, "proj")
    os.makedirs(os.path.join(proj, "src"))
    os.makedirs(os.path.join(proj, "build"))
    kernel = os.path.join(proj, "src", "k.cu")
    shutil.copy(os.path.join(source_dir, "examples", "transpose.cu"), kernel)
    with open(kernel) as f:
        text = f.read()
    text = text.replace("    out[x * n + y] = in[y * n + x];",
                        "#ifdef HMS_TEST_STRIDED\n    out[x * n + y] = in[y * n + x];\n"
                        "#else\n    out[y * n + x] = in[y * n + x];\n#endif")
    with open(kernel, "w") as f:
        f.write(text)
    before = os.stat(kernel).st_mtime_ns
    with open(os.path.join(proj, "build", "compile_commands.json"), "w") as f:
        json.dump([{"directory": os.path.join(proj, "build"), "file": kernel,
                    "command": "nvcc -DHMS_TEST_STRIDED -c %s -o k.o" % kernel}], f)
    # The project's .hms-lint turns a check off, for disk and buffer runs alike.
    with open(os.path.join(proj, ".hms-lint"), "w") as f:
        f.write("Checks: '-hms-partition-camping'\n")
    uri = uri_of(kernel)
    lines = text.split("\n")
    store_line = next(i for i, l in enumerate(lines) if l.strip() == "out[x * n + y] = in[y * n + x];")

    c = LspClient(binary)
    rid = c.request("initialize", {"processId": None, "rootUri": uri_of(proj), "capabilities": {},
                                   "initializationOptions": {"debounceMs": 200}})
    r = c.response(rid)
    caps = (r or {}).get("result", {}).get("capabilities", {})
    check(caps.get("hoverProvider") is True, "initialize: hoverProvider")
    check(caps.get("codeActionProvider", {}).get("codeActionKinds") == ["quickfix"],
          "initialize: quickfix code actions")
    c.notify("initialized", {})

    # Garbage: bad JSON, a header without Content-Length, an unknown method,
    # an invalid request; each answered, and the server goes on.
    c.send_raw(b"Content-Length: 9\r\n\r\n{not json")
    r = c.wait_for(lambda m: m.get("error", {}).get("code") == -32700, 10)
    check(r is not None and r["id"] is None, "malformed JSON -> ParseError (-32700), id null")
    c.send_raw(b"X-Garbage: 1\r\n\r\n")
    r = c.wait_for(lambda m: m.get("error", {}).get("code") == -32700, 10)
    check(r is not None and "Content-Length" in r["error"]["message"],
          "header without Content-Length -> ParseError naming it")
    rid = c.request("textDocument/frobnicate", {})
    r = c.response(rid, 10)
    check(r is not None and r.get("error", {}).get("code") == -32601
          and "textDocument/frobnicate" in r["error"]["message"],
          "unknown method -> MethodNotFound naming it")
    c.send({"jsonrpc": "2.0", "id": 99, "params": {}})
    r = c.response(99, 10)
    check(r is not None and r.get("error", {}).get("code") == -32600, "no method -> InvalidRequest")

    # Open: diagnostics from the file on disk, with the database's flags.
    t0 = time.monotonic()
    c.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "cuda",
                                                       "version": 1, "text": text}})
    diags = c.diagnostics(uri)
    print("  open -> diagnostics in %.2f s" % (time.monotonic() - t0))
    check(diags is not None, "didOpen publishes diagnostics")
    diags = diags or []
    unc = [d for d in diags if d.get("code") == "hms-uncoalesced-access"]
    check(len(unc) == 1 and unc[0]["range"]["start"] == {"line": store_line, "character": 4},
          "uncoalesced store found at its 0-based line/character (flags from compile_commands)")
    if unc:
        check(unc[0]["severity"] == 2 and unc[0]["source"] == "hms-lint", "severity warning")
        check(unc[0]["codeDescription"]["href"].endswith("docs/checks/hms-uncoalesced-access.md"),
              "codeDescription.href points at the check's page")
    check(not any(d.get("code") == "hms-partition-camping" for d in diags),
          "the project's .hms-lint applies")
    bank = [d for d in diags if d.get("code") == "hms-shared-bank-conflict"]
    check(len(bank) == 1 and bank[0].get("relatedInformation")
          and bank[0]["relatedInformation"][0]["location"]["uri"] == uri,
          "bank conflict with its note as relatedInformation")

    # Code action: the padding fix-it as a quickfix edit.
    bl = bank[0]["range"]["start"]["line"] if bank else 0
    rid = c.request("textDocument/codeAction", {"textDocument": {"uri": uri},
                    "range": {"start": {"line": bl, "character": 0},
                              "end": {"line": bl, "character": 0}},
                    "context": {"diagnostics": []}})
    r = c.response(rid) or {}
    acts = r.get("result") or []
    edits = acts[0]["edit"]["changes"][uri] if acts else []
    check(len(acts) == 1 and acts[0]["kind"] == "quickfix" and edits
          and edits[0]["newText"] == " + 1", "codeAction offers the padding fix-it")

    # Hover on the strided store: its figures and the placement ranking.
    rid = c.request("textDocument/hover", {"textDocument": {"uri": uri},
                                            "position": {"line": store_line, "character": 6}})
    r = c.response(rid) or {}
    value = ((r.get("result") or {}).get("contents") or {}).get("value", "")
    check("sectors per request: 32" in value and "`out`" in value,
          "hover shows sectors per request of the access")
    check("Placement ranking" in value and "1. global:" in value and "readonly" not in value,
          "hover shows the placement ranking of the legal options only")
    rid = c.request("textDocument/hover", {"textDocument": {"uri": uri},
                                            "position": {"line": 0, "character": 0}})
    r = c.response(rid) or {}
    check("result" in r and r["result"] is None, "hover where no access is: null")

    # Change: a save starts a run, an edit right after cancels it; two quick
    # edits make one debounced run of the final buffer (not written to disk).
    c.notify("textDocument/didSave", {"textDocument": {"uri": uri}})
    fixed = text.replace("    out[x * n + y] = in[y * n + x];", "    out[y * n + x] = in[y * n + x];")
    c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2},
                                        "contentChanges": [{"text": fixed + "\n"}]})
    c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 3},
                                        "contentChanges": [{"text": fixed}]})
    diags = c.diagnostics(uri) or []
    check(diags and not any(d.get("code") == "hms-uncoalesced-access" for d in diags),
          "the edited buffer is linted: the fixed store no longer reported")
    check(not any(d.get("code") == "hms-partition-camping" for d in diags),
          "the buffer run applies the file's .hms-lint")
    more = c.diagnostics(uri, timeout=3)
    check(more is None, "the cancelled run published nothing (one publish for three events)")
    check(os.stat(kernel).st_mtime_ns == before, "the source file was not written")

    # The buffer copy gets the file's compile_commands.json flags: with the
    # strided store back (under #ifdef HMS_TEST_STRIDED), it is reported again.
    c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 4},
                                        "contentChanges": [{"text": text + "// edited\n"}]})
    diags = c.diagnostics(uri) or []
    check(any(d.get("code") == "hms-uncoalesced-access" for d in diags),
          "the buffer run uses the database's flags for the file (-DHMS_TEST_STRIDED)")

    # A header that is not there: the run's warning (a structured record of
    # the report's notifications) at its #include line.
    missing = '#include "no_such_header.h"\n' + fixed
    c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 4},
                                        "contentChanges": [{"text": missing}]})
    diags = c.diagnostics(uri) or []
    nf = [d for d in diags if "'no_such_header.h' not found" in d.get("message", "")]
    check(len(nf) == 1 and nf[0]["severity"] == 2 and nf[0]["range"]["start"]["line"] == 0,
          "missing header -> a warning at its #include line: %s" % nf)

    # A syntax error in the buffer: an hms-parse-error diagnostic at its place.
    broken = fixed.replace("__syncthreads();", "__syncthreads()", 1)
    c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 4},
                                        "contentChanges": [{"text": broken}]})
    diags = c.diagnostics(uri) or []
    pe = [d for d in diags if d.get("code") == "hms-parse-error"]
    check(len(pe) >= 1 and pe[0]["severity"] == 1, "syntax error -> hms-parse-error diagnostic")

    c.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    diags = c.diagnostics(uri, 10)
    check(diags == [], "didClose clears the diagnostics")
    rid = c.request("shutdown")
    r = c.response(rid, 10)
    check(r is not None and r.get("result") is None and "error" not in r, "shutdown")
    c.notify("exit", None)
    check(c.proc.wait(10) == 0, "exit after shutdown: status 0")
    c.proc.stderr.read()

    # A client that goes away mid-run: the server stops, cleanly.
    c = LspClient(binary)
    c.response(c.request("initialize", {"processId": None, "capabilities": {}}))
    c.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "cuda",
                                                       "version": 1, "text": text}})
    c.send_raw(b"Content-Length: 100\r\n\r\n{\"trunc")
    c.proc.stdin.close()
    code = c.proc.wait(20)
    err = c.proc.stderr.read().decode()
    check(code == 1 and "closed the connection" in err,
          "disconnect without exit: status 1 and a message (got %r, %r)" % (code, err))
finally:
    shutil.rmtree(tmp)

print("%d failure(s)" % len(failures))
sys.exit(1 if failures else 0)
