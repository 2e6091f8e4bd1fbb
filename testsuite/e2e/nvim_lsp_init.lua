-- Headless Neovim with its built-in LSP client attached to a .cu buffer:
-- starts `hms-lint --lsp`, waits for the diagnostics, writes them to
-- $HMS_OUT (one "line:col:code:message" each) and quits. Used by
-- nvim_lsp.sh; vim.lsp.start (0.8+) or start_client + buf_attach_client (0.7).
local bin, file, out = os.getenv('HMS_BIN'), os.getenv('HMS_FILE'), os.getenv('HMS_OUT')
vim.cmd('edit ' .. vim.fn.fnameescape(file))
vim.bo.filetype = 'cuda'
local config = {
  name = 'hms-lint',
  cmd = { bin, '--lsp' },
  root_dir = vim.fn.fnamemodify(file, ':p:h'),
}
if vim.lsp.start then
  vim.lsp.start(config)
else
  local id = vim.lsp.start_client(config)
  vim.lsp.buf_attach_client(0, id)
end
local got = vim.wait(60000, function() return #vim.diagnostic.get(0) > 0 end, 50)
local lines = {}
for _, d in ipairs(vim.diagnostic.get(0)) do
  local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code) or ''
  table.insert(lines, string.format('%d:%d:%s:%s:%s', d.lnum + 1, d.col + 1, d.severity,
                                    code, d.message:gsub('\n', ' ')))
end
if not got then table.insert(lines, 'TIMEOUT: no diagnostics') end
vim.fn.writefile(lines, out)
vim.cmd('qa!')
