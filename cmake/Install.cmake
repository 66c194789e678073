# `cmake --install`: the binary, the man page (docs/gapscan.1, the one source of the reference),
# bash completion and the catalog, which the installed binary finds beside itself
# (<prefix>/share/gapscan/patterns, see cli/reading.cpp); `cpack -G DEB` makes a Debian package
# of the same files, with its library dependencies worked out by dpkg-shlibdeps.
include(GNUInstallDirs)
install(TARGETS gapscan RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES ${PROJECT_SOURCE_DIR}/docs/gapscan.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES ${PROJECT_SOURCE_DIR}/scripts/completion/gapscan.bash
        DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions RENAME gapscan)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/patterns/ DESTINATION ${CMAKE_INSTALL_DATADIR}/gapscan/patterns
        FILES_MATCHING PATTERN "*.toml" PATTERN "examples" EXCLUDE)

set(CPACK_PACKAGE_NAME gapscan)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGE_CONTACT "gapscan developers <gapscan@localhost>")
set(CPACK_DEBIAN_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)  # dpkg-shlibdeps (Debian's dpkg-dev) names the libraries
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
    "gapscan groups log lines per request, measures the gaps between them, finds the\n \
statistically significant modes (40-50 ms delayed-ACK stalls, fork stalls, CPU-quota\n \
periods, SYN and DNS retries) and names their likely cause from a catalog of known ones.")
set(CPACK_STRIP_FILES ON)
include(CPack)
