# Embeds patterns/*.toml (the causes) and patterns/presets/*.toml (named log formats for
# --format-file NAME) into the binary so that an installed gapscan carries its catalog.
# The files stay the source of truth: editing one rebuilds the embedded copy, and
# `--patterns DIR` reads a directory at run time instead.
file(GLOB GAPSCAN_PATTERN_FILES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/patterns/*.toml
     ${PROJECT_SOURCE_DIR}/patterns/presets/*.toml)
list(SORT GAPSCAN_PATTERN_FILES)
set(GAPSCAN_EMBEDDED_CATALOG ${PROJECT_BINARY_DIR}/generated/embedded_catalog.cpp)
add_custom_command(
  OUTPUT ${GAPSCAN_EMBEDDED_CATALOG}
  COMMAND ${CMAKE_COMMAND} -DOUTPUT=${GAPSCAN_EMBEDDED_CATALOG}
          "-DINPUTS=${GAPSCAN_PATTERN_FILES}" -DROOT=${PROJECT_SOURCE_DIR}
          -P ${PROJECT_SOURCE_DIR}/cmake/embed_files.cmake
  DEPENDS ${GAPSCAN_PATTERN_FILES} ${PROJECT_SOURCE_DIR}/cmake/embed_files.cmake
  COMMENT "Embedding the cause catalog (patterns/*.toml)"
  VERBATIM)
