;;; hms-lint-eglot.el --- hms-lint's language server with eglot -*- lexical-binding: t; -*-
;; Load this file (or copy the forms into your init file), open a .cu file
;; and run M-x eglot. A mode of its own keeps clangd on plain C++ buffers.
(require 'eglot)
(define-derived-mode hms-cuda-mode c++-mode "CUDA"
  "C++ mode for CUDA sources, linted by hms-lint's language server.")
(add-to-list 'auto-mode-alist '("\\.cuh?\\'" . hms-cuda-mode))
(add-to-list 'eglot-server-programs
             '((hms-cuda-mode :language-id "cuda") . ("hms-lint" "--lsp")))
;; Flags when no compile_commands.json is found above the file:
;; (setq-default eglot-workspace-configuration nil)
;; and start the server with initializationOptions, e.g.
;; '((hms-cuda-mode :language-id "cuda")
;;   . ("hms-lint" "--lsp" :initializationOptions
;;      (:compilationDatabase "build" :extraArgs ["-DTILE=32"])))
(provide 'hms-lint-eglot)
;;; hms-lint-eglot.el ends here
