-- Neovim (0.8+): put in init.lua, or :luafile it. Starts `hms-lint --lsp` for
-- CUDA buffers; flags come from the nearest compile_commands.json.
vim.api.nvim_create_autocmd('FileType', {
  pattern = { 'cuda' },
  callback = function(args)
    vim.lsp.start({
      name = 'hms-lint',
      cmd = { 'hms-lint', '--lsp' },
      root_dir = vim.fs.dirname(vim.fs.find({ 'compile_commands.json', '.hms-lint', '.git' },
                                            { upward = true, path = vim.fs.dirname(args.file) })[1]),
      -- init_options = { compilationDatabase = 'build', extraArgs = { '-DTILE=32' } },
    })
  end,
})
