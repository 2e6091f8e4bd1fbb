# Installation and packaging. The binary finds its CUDA headers relative to
# itself (analyzer/frontend/include_dir.c): <prefix>/bin/hms-lint looks in
# <prefix>/share/hms-lint/include. In the build tree the same layout is made
# with a link, <build>/share/hms-lint/include -> analyzer/include, so the
# built binary, the tests and the benchmarks find them the same way.
include(GNUInstallDirs)

file(MAKE_DIRECTORY ${CMAKE_BINARY_DIR}/share/hms-lint)
file(CREATE_LINK ${CMAKE_SOURCE_DIR}/analyzer/include ${CMAKE_BINARY_DIR}/share/hms-lint/include
     SYMBOLIC)

install(TARGETS hms-lint RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY analyzer/include/ DESTINATION ${CMAKE_INSTALL_DATADIR}/hms-lint/include)
install(FILES docs/hms-lint.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(DIRECTORY docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR} PATTERN "*.1" EXCLUDE)
install(FILES README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY editors/ DESTINATION ${CMAKE_INSTALL_DATADIR}/hms-lint/editors)

set(CPACK_PACKAGE_NAME hms-lint)
set(CPACK_PACKAGE_VENDOR "hms-lint")
set(CPACK_PACKAGE_CONTACT "hms-lint maintainers <hms-lint@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Lints CUDA kernels for memory performance without a GPU")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
# shlibdeps reads the libraries the binary links (libclang, jansson, libyaml).
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
include(CPack)
